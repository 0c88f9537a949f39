import type { CurrentUser, Entitlements } from '@tunesmith/shared/auth';
import { DEFAULT_MODEL_ID, MUSIC_MODELS } from '@tunesmith/shared/models';
import type { Plan } from '@tunesmith/shared/plans';
import type { StemSet } from '@tunesmith/shared/stems';
import type { Track } from '@tunesmith/shared/tracks';
import type { ModelCatalogue } from '@/lib/models';

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
    instrumental: false,
    parentId: null,
    edit: null,
    peaksUrl: null,
    loudness: null,
    license: null,
    downloadReady: true,
    likes: 0,
    plays: 0,
    remixable: false,
    creator: null,
    remixOf: null,
    analysis: null,
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
  commercialUse: false,
  stemsFour: true,
  stemsSix: false,
  apiAccess: true,
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
      stemsSix: true,
      sortOrder: 1,
    },
    {
      ...planBase,
      id: 'premium',
      commercialUse: true,
      name: 'Premium',
      description: 'For professionals and heavy users.\nPriority generation and a commercial license.',
      weeklyPrice: 4.39,
      monthlyPrice: 19,
      yearlyPrice: 190,
      maxGenerations: 100,
      generationsNumber: 100,
      features: '100 songs a week\nPriority generation\nCommercial license',
      stemsSix: true,
      sortOrder: 2,
    },
  ];
}

const FREE_WEEKLY_GENERATIONS = 5;

/**
 * What the plan allows, by the server's rule (`entitlementsFor` in
 * functions/src/domain/generations/entitlements.ts) over the seed plans: a
 * paid plan counts while active or cancelled; a fixture's cancelled plan is
 * inside its paid period (pass `entitlements` to model one that has ended).
 */
function entitlementsOf(user: Pick<CurrentUser, 'planStatus' | 'subscriptionPlanId'>): Entitlements {
  const plan = seedPlans().find((p) => p.id === user.subscriptionPlanId);
  const paid =
    !!plan && plan.monthlyPrice > 0 && (user.planStatus === 'active' || user.planStatus === 'cancelled');
  return {
    paid,
    weeklyLimit: paid && plan ? plan.maxGenerations : FREE_WEEKLY_GENERATIONS,
    canPrivate: paid,
    canDownload: paid,
    stems: seedStems(paid ? plan : undefined),
  };
}

/**
 * The stem sets of the entitlements (functions/src/domain/stems/stem-sets.ts)
 * over the seed plans: `plan`'s while in force, else the Free plan's.
 */
export function seedStems(plan?: Plan): Entitlements['stems'] {
  const plans = seedPlans();
  const inForce = plan ?? plans.find((p) => p.name === 'Free');
  const allows = (p: Plan | undefined, set: StemSet) => (set === '4' ? p?.stemsFour : p?.stemsSix) === true;
  const withSet = (set: StemSet) => plans.filter((p) => p.isActive && allows(p, set)).map((p) => p.name);
  return {
    sets: (['4', '6'] as const).filter((set) => allows(inForce, set)),
    plans: { '4': withSet('4'), '6': withSet('6') },
  };
}

/** A paid seed plan's stem sets (Basic and Premium have the same). */
export const paidStems = (): Entitlements['stems'] => seedStems(seedPlans().find((p) => p.id === 'basic'));

/** The subscribed plan's name, as the server sends it (null without a plan). */
function planNameOf(planId: string | null): string | null {
  return planId ? (seedPlans().find((p) => p.id === planId)?.name ?? null) : null;
}

/**
 * A complete signed-in user as `GET /api/auth/user` and `POST /api/auth/login`
 * answer: on the free plan unless told otherwise. `planName` and
 * `entitlements` follow the plan fields given, as the server derives them.
 */
export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  const fields = {
    id: 'user-1',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    emailVerified: true,
    planStatus: 'free' as CurrentUser['planStatus'],
    subscriptionPlanId: null,
    stripeSubscriptionId: null,
    generationsUsedThisMonth: 2,
    planStartDate: null,
    planEndDate: null,
    createdAt: now,
    billingCycle: null,
    // The fixture's week starts on Monday 2024-01-01; the count resets a week later.
    quotaResetsAt: '2024-01-08T00:00:00.000Z',
    ...overrides,
  };
  return {
    ...fields,
    planName: overrides.planName !== undefined ? overrides.planName : planNameOf(fields.subscriptionPlanId),
    entitlements: overrides.entitlements ?? entitlementsOf(fields),
    // As the server derives them: a plan in force with no Stripe subscription was granted by the site;
    // a user who has had a plan (or a subscription) is taken to be known to Stripe unless told otherwise.
    planGrantedBySite:
      overrides.planGrantedBySite ??
      (!!fields.subscriptionPlanId &&
        !fields.stripeSubscriptionId &&
        (fields.planStatus === 'active' || fields.planStatus === 'cancelled')),
    hasBillingAccount:
      overrides.hasBillingAccount ?? (!!fields.stripeSubscriptionId || fields.planStatus !== 'free'),
    // Invoices exist once a subscription did: a subscriber's, or one that ended.
    hasBillingHistory:
      overrides.hasBillingHistory ?? (!!fields.stripeSubscriptionId || fields.planStatus === 'expired'),
  };
}

/**
 * A user with a running subscription: Basic, billed monthly, active, in a
 * period that ends on 2024-02-01 (noon UTC, the same date in any time zone).
 */
export function makeSubscriber(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return makeUser({
    planStatus: 'active',
    subscriptionPlanId: 'basic',
    stripeSubscriptionId: 'sub_1',
    billingCycle: 'monthly',
    planStartDate: '2024-01-01T12:00:00.000Z',
    planEndDate: '2024-02-01T12:00:00.000Z',
    ...overrides,
  });
}

/** A signed-in user on the free plan who has generated nothing this week. */
export const signedInUser: CurrentUser = makeUser({ generationsUsedThisMonth: 0 });

/**
 * `GET /api/models` as the server answers it with no settings made: every
 * registered model on at its default cost, MiniMax Music 2.5 and Stable Audio
 * 2.5 only in the paid plans; `paid` says whether the user is on one.
 */
export function modelCatalogue({ paid = false }: { paid?: boolean } = {}): ModelCatalogue {
  const plans = seedPlans().map(({ id, name }) => ({ id, name }));
  const paidOnly = new Set(['minimax-music-2.5', 'stable-audio-2.5']);
  return {
    defaultModel: DEFAULT_MODEL_ID,
    models: MUSIC_MODELS.map((model) => {
      const offeredIn = paidOnly.has(model.id) ? plans.filter((plan) => plan.id !== 'free') : plans;
      return {
        id: model.id,
        name: model.name,
        vendor: model.vendor,
        bestFor: model.bestFor,
        lyrics: model.lyrics,
        ...('lyricsLength' in model ? { lyricsLength: { ...model.lyricsLength } } : {}),
        promptLength: { ...model.promptLength },
        duration: model.duration ? { ...model.duration } : null,
        languages: [...model.languages],
        studio: (['audio', 'extend', 'repaint'] as const).filter((kind) => kind in model.endpoints),
        price: { ...model.price },
        termsUrl: model.termsUrl,
        quotaCost: model.defaultQuotaCost,
        plans: offeredIn,
        available: paid || !paidOnly.has(model.id),
      };
    }),
  };
}
