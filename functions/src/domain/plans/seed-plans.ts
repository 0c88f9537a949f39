import type { Plan } from './plan';

/**
 * The plans a new installation starts with, at the prices and weekly quotas the
 * Terms of Service state (spec 1 section 9). Price ids are empty until billing
 * is configured.
 */
export function seedPlans(now: string): Plan[] {
  const base = {
    weeklyPriceId: null,
    monthlyPriceId: null,
    yearlyPriceId: null,
    isActive: true,
    commercialUse: false,
    // Every plan separates into 4 stems, paid plans into 6 as well (decision 044).
    stemsFour: true,
    stemsSix: false,
    // Every plan may use the developer API, Free within its quota (decision 052).
    apiAccess: true,
    createdAt: now,
    updatedAt: now,
  };
  return [
    {
      ...base,
      id: 'free',
      name: 'Free',
      description: 'Try AI music creation at no cost.\nPublic sharing only.',
      weeklyPrice: 0,
      monthlyPrice: 0,
      yearlyPrice: 0,
      maxGenerations: 5,
      generationsNumber: 5,
      features: ['5 songs a week', 'Up to 4-minute tracks', 'Public sharing only', 'Community gallery'],
      sortOrder: 0,
    },
    {
      ...base,
      id: 'basic',
      stemsSix: true,
      name: 'Basic',
      description: 'For regular creators.\nPrivate or public tracks and downloads.',
      weeklyPrice: 2.08,
      monthlyPrice: 9,
      yearlyPrice: 90,
      maxGenerations: 30,
      generationsNumber: 30,
      features: [
        '30 songs a week',
        'Private or public tracks',
        'Download your tracks',
        'Up to 4-minute tracks',
      ],
      sortOrder: 1,
    },
    {
      ...base,
      id: 'premium',
      stemsSix: true,
      commercialUse: true,
      name: 'Premium',
      description: 'For professionals and heavy users.\nPriority generation and a commercial license.',
      weeklyPrice: 4.39,
      monthlyPrice: 19,
      yearlyPrice: 190,
      maxGenerations: 100,
      generationsNumber: 100,
      features: [
        '100 songs a week',
        'Priority generation',
        'Commercial license',
        'Private or public tracks',
        'Download your tracks',
      ],
      sortOrder: 2,
    },
  ];
}
