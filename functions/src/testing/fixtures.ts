/** Test data for unit and integration tests: one place for a whole plan and a whole generation. */
import type { Plan } from '../domain/plans/plan';
import type { Generation } from '../domain/tracks/track';

/** A plan; the Free plan unless overridden. */
export const aPlan = (overrides: Partial<Plan> = {}): Plan => ({
  id: 'plan-free',
  name: 'Free',
  description: null,
  weeklyPrice: 0,
  monthlyPrice: 0,
  yearlyPrice: 0,
  weeklyPriceId: null,
  monthlyPriceId: null,
  yearlyPriceId: null,
  maxGenerations: 5,
  generationsNumber: 5,
  features: [],
  isActive: true,
  sortOrder: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** The Basic plan at the Terms' prices and quota. */
export const aBasicPlan = (overrides: Partial<Plan> = {}): Plan =>
  aPlan({
    id: 'plan-basic',
    name: 'Basic',
    weeklyPrice: 2.08,
    monthlyPrice: 9,
    maxGenerations: 30,
    ...overrides,
  });

/** A completed private text track of user `owner`, with audio in our bucket. */
export const aGeneration = (overrides: Partial<Generation> = {}): Generation => ({
  id: 't1',
  userId: 'owner',
  type: 'text-to-music',
  title: 'Night Drive',
  tags: 'synthwave',
  lyrics: null,
  duration: 30,
  status: 'completed',
  visibility: 'private',
  showInGallery: true,
  inputAudioUrl: null,
  audioUrl: 's3://tracks/tracks/owner/t1.wav',
  seed: 1,
  falRequestId: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...overrides,
});
