import type { Clock } from '../accounts/ports';
import type { PlanRepository } from '../plans/plan';
import type { Generation, GenerationRepository, Page } from '../tracks/track';

/** Storage port for generations: the gallery reads plus the lifecycle writes. */
export interface GenerationStore extends GenerationRepository {
  /** Stores a new generation. Throws `conflict` when the id exists. */
  create(generation: Generation): Promise<void>;
  get(id: string): Promise<Generation | undefined>;
  /**
   * Compare-and-set: reads the current version, applies `change` (a pure function
   * that returns the next version, or undefined for "no change") and writes it only
   * if nobody changed the item in between; retried on contention. The gallery index
   * follows the written version. Returns undefined when the item does not exist;
   * `after` is undefined when `change` declined.
   */
  update(
    id: string,
    change: (current: Generation) => Generation | undefined,
  ): Promise<{ before: Generation; after: Generation | undefined } | undefined>;
  /** A user's generations, newest first. */
  listByUser(userId: string, options: { limit: number; cursor?: string }): Promise<Page<Generation>>;
  /** Deletes the generation if it belongs to `userId`; returns what was deleted. */
  delete(id: string, userId: string): Promise<Generation | undefined>;
}

export type QuotaReservation = { ok: true; used: number } | { ok: false; used: number; limit: number };

/**
 * The weekly generation counter on the user's profile (`generationsUsedThisMonth`,
 * the spec's field name, with `quotaWindowStart`).
 */
export interface QuotaStore {
  /**
   * Atomically takes `units` (default 1; a model's quota cost, decision 051):
   * succeeds only if the stored window is `windowStart` and `units` more stay
   * within `limit`, or the stored window is older (or absent), in which case
   * the counter restarts at `units` in the new window.
   */
  reserve(
    userId: string,
    options: { limit: number; windowStart: string; now: string; units?: number },
  ): Promise<QuotaReservation>;
  /**
   * Gives `units` (default 1) back if the counter is still in `windowStart`
   * and holds at least that many. Returns whether it did.
   */
  refund(userId: string, windowStart: string, units?: number): Promise<boolean>;
  /** The stored counter, for display (the caller treats an old window as 0 used). */
  read(userId: string): Promise<{ used: number; windowStart: string | null } | undefined>;
}

/**
 * Launches the workflow that carries a started generation to completed or
 * failed (Step Functions on AWS, the local runner locally). One execution per
 * generation: the execution is named after its id.
 */
export interface WorkflowStarter {
  start(generationId: string): Promise<void>;
}

/** What the generation service needs. */
export interface GenerationDeps {
  generations: GenerationStore;
  quota: QuotaStore;
  clock: Clock;
  newId: () => string;
}

/** What a new track's provenance needs on top of {@link GenerationDeps}. */
export interface ProvenanceDeps {
  /** The site's public origin (PUBLIC_ORIGIN): the license's link to the terms. */
  siteOrigin: string;
  /** The plans: a user without a paid plan in force makes tracks on the Free plan's terms. */
  plans: Pick<PlanRepository, 'listBySortOrder'>;
}
