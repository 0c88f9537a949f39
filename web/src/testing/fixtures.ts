import type { CurrentUser } from '@tunesmith/shared/auth';
import type { Plan } from '@tunesmith/shared/plans';
import type { Track } from '@tunesmith/shared/tracks';

const now = '2024-01-01T00:00:00.000Z';

/** A public track as the gallery receives it. */
export function makeTrack(overrides: Partial<Track> = {}): Track {
  return {
    id: 'track-1',
    title: 'Neon Nights',
    tags: 'synthwave, energetic',
    lyrics: null,
    duration: 90,
    status: 'completed',
    type: 'text-to-music',
    visibility: 'public',
    showInGallery: true,
    audioUrl: 'https://cdn.test/track-1.wav',
    createdAt: now,
    ...overrides,
  };
}

export function makeTracks(count: number): Track[] {
  return Array.from({ length: count }, (_, i) =>
    makeTrack({ id: `track-${i + 1}`, title: `Track ${i + 1}` }),
  );
}

const planBase = {
  weeklyPriceId: null,
  monthlyPriceId: null,
  yearlyPriceId: null,
  isActive: true,
  createdAt: now,
  updatedAt: now,
};

/** The seed plans, at the Terms' prices. */
export function seedPlans(): Plan[] {
  return [
    {
      ...planBase,
      id: 'free',
      name: 'Free',
      description: 'Try AI music creation at no cost.\nPublic sharing only.',
      weeklyPrice: 0,
      monthlyPrice: 0,
      yearlyPrice: 0,
      maxGenerations: 5,
      generationsNumber: 5,
      features: ['5 songs a week', 'Public sharing only'],
      sortOrder: 0,
    },
    {
      ...planBase,
      id: 'basic',
      name: 'Basic',
      description: 'For regular creators.\nPrivate or public tracks and downloads.',
      weeklyPrice: 2.08,
      monthlyPrice: 9,
      yearlyPrice: 90,
      maxGenerations: 30,
      generationsNumber: 30,
      features: '["30 songs a week","Download your tracks"]',
      sortOrder: 1,
    },
    {
      ...planBase,
      id: 'premium',
      name: 'Premium',
      description: 'For professionals and heavy users.\nPriority generation and a commercial license.',
      weeklyPrice: 4.39,
      monthlyPrice: 19,
      yearlyPrice: 190,
      maxGenerations: 100,
      generationsNumber: 100,
      features: '100 songs a week\nPriority generation\nCommercial license',
      sortOrder: 2,
    },
  ];
}

export const signedInUser = {
  id: 'user-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  planStatus: 'free' as const,
  subscriptionPlanId: null,
  generationsUsedThisMonth: 0,
};

/** A complete signed-in user as `GET /api/auth/user` and `POST /api/auth/login` answer. */
export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'user-1',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    emailVerified: true,
    planStatus: 'free',
    subscriptionPlanId: null,
    stripeSubscriptionId: null,
    generationsUsedThisMonth: 2,
    planStartDate: null,
    planEndDate: null,
    createdAt: now,
    ...overrides,
  };
}
