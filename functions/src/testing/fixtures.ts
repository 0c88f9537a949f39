/** Test data for unit and integration tests: one place for a whole user, plan and generation. */
import { newUser, type User } from '../domain/accounts/user';
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
  commercialUse: false,
  stemsFour: true,
  stemsSix: false,
  apiAccess: true,
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

/** A completed public text track with sensible defaults for tests. */
export function aGeneration(overrides: Partial<Generation> = {}): Generation {
  const id = overrides.id ?? `g-${Math.random().toString(36).slice(2, 10)}`;
  return {
    id,
    userId: 'user-1',
    type: 'text-to-music',
    title: 'A song',
    tags: 'pop, upbeat',
    lyrics: null,
    duration: 60,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: `https://cdn.example/${id}.wav`,
    seed: 42,
    falRequestId: 'req-1',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Track `t1`: completed, private, of user `owner`, titled Night Drive, with audio in our bucket. */
export const aPrivateTrack = (overrides: Partial<Generation> = {}): Generation =>
  aGeneration({
    id: 't1',
    userId: 'owner',
    title: 'Night Drive',
    tags: 'synthwave',
    duration: 30,
    visibility: 'private',
    audioUrl: 's3://tracks/tracks/owner/t1.wav',
    seed: 1,
    falRequestId: null,
    createdAt: '2026-03-01T00:00:00.000Z',
    updatedAt: '2026-03-01T00:00:00.000Z',
    ...overrides,
  });

/** A verified user on the free plan, created now. */
export function aUser(overrides: Partial<User> = {}): User {
  const id = overrides.id ?? `user-${Math.random().toString(36).slice(2, 10)}`;
  const fields = { id, email: `${id}@example.test`, firstName: 'Ada', lastName: 'Lovelace' };
  return { ...newUser(fields, new Date().toISOString()), emailVerified: true, ...overrides };
}
