/**
 * Stems (decision 044): the owner asks for a finished track to be taken apart
 * (one unit of the weekly quota, refunded if it fails, nothing for asking
 * again), the workflow separates it, and whoever may see the track sees them.
 */
import { generationMessages } from '@tunesmith/shared/generation-values';
import { type StemSet, type StemsStatus, stemsMessages } from '@tunesmith/shared/stems';
import type { User } from '../accounts/user';
import { conflict, DomainError, forbidden, notFound, validationError } from '../errors';
import { downloadMessages } from '../generations/download';
import { entitlementsFor } from '../generations/entitlements';
import { mayView, reserveUnit } from '../generations/generation-service';
import type { GenerationDeps, GenerationStore } from '../generations/ports';
import { quotaWindowStart } from '../generations/quota-window';
import type { Plan, PlanRepository } from '../plans/plan';
import type { Generation } from '../tracks/track';
import { planAllowsSet, plansWithSet, stemsPlanInForce } from './stem-sets';
import { latestStems, STEMS_MODELS, type StemsRecord, type StoredStem } from './stems';

/** Launches the workflow that separates a track (the generation state machine, its stems path). */
export interface StemsWorkflow {
  start(generationId: string, stems: { set: StemSet; attempt: number }): Promise<void>;
}

export interface StemsDeps extends GenerationDeps {
  plans: Pick<PlanRepository, 'listBySortOrder'>;
  workflow: StemsWorkflow;
}

type Subscriber = Pick<User, 'id' | 'planStatus' | 'planEndDate'>;

const trackNotFound = () => notFound(generationMessages.trackNotFound);

/** The refusal of a set the plan does not separate into, naming the active plans that do. */
const setNotOnPlan = (plans: readonly Plan[], set: StemSet): DomainError =>
  forbidden(stemsMessages.setNotOnPlan(set, plansWithSet(plans, set)));

/** A set being made or made already is answered as it is; a new ask (or one after a failure) starts it. */
const inHand = (record: StemsRecord | undefined) =>
  record?.status === 'processing' || record?.status === 'ready';

/**
 * `POST /api/generation/{id}/stems`: the owner's completed track (anyone
 * else's is not found, an unfinished one a 400, one whose download is still
 * being prepared a 409) is separated into `set`, if the plan in force allows
 * it (403 naming the plans that do). A set that exists or is being made is
 * answered with its state and costs nothing; otherwise one compare-and-set on
 * the track claims the work (of two racing asks, one wins; the other sees it
 * processing), then one unit is reserved (429 when the week's are used: the
 * claim is undone) and the workflow started (a start that fails fails the set
 * and refunds the unit).
 */
export async function requestStems(
  deps: StemsDeps,
  user: Subscriber,
  plan: Plan | undefined,
  id: string,
  set: StemSet,
): Promise<{ status: StemsStatus }> {
  const track = await deps.generations.get(id);
  if (!track || track.userId !== user.id) throw trackNotFound();
  if (track.status !== 'completed' || !track.audioUrl) throw validationError(generationMessages.notCompleted);
  if (track.downloadPending) throw conflict(downloadMessages.preparing);
  const existing = track.stems?.[set];
  if (inHand(existing)) return { status: existing?.status ?? 'processing' };
  const now = deps.clock.now();
  const plans = await deps.plans.listBySortOrder();
  if (!planAllowsSet(stemsPlanInForce(user, plan, plans, now), set)) throw setNotOnPlan(plans, set);

  const at = now.toISOString();
  let claimed: StemsRecord | undefined;
  const claim = await deps.generations.update(id, (current) => {
    const record = current.stems?.[set];
    if (current.userId !== user.id || inHand(record)) return undefined;
    claimed = {
      set,
      status: 'processing',
      requestedAt: at,
      attempt: (record?.attempt ?? 0) + 1,
      requestId: null,
      model: STEMS_MODELS[set],
      files: [],
      updatedAt: at,
    };
    return { ...current, stems: { ...current.stems, [set]: claimed } };
  });
  if (!claim) throw trackNotFound();
  if (!claim.after || !claimed) {
    // Another ask claimed it between our read and our write: it is paid for once, by that ask.
    return { status: claim.before.stems?.[set]?.status ?? 'processing' };
  }
  const previous = track.stems?.[set];
  const mine = claimed;
  try {
    await reserveUnit(deps, user, entitlementsFor(user, plan, now).weeklyLimit, now);
  } catch (error) {
    // Nothing was paid: the set goes back to what it was.
    await deps.generations.update(id, (current) => {
      if (current.stems?.[set]?.requestedAt !== mine.requestedAt) return undefined;
      const stems = { ...current.stems };
      if (previous) stems[set] = previous;
      else delete stems[set];
      return { ...current, stems };
    });
    throw error;
  }
  try {
    await deps.workflow.start(id, { set, attempt: mine.attempt });
  } catch (_error) {
    await markStemsFailed(deps, id, set, mine.attempt).catch(() => undefined);
    throw new DomainError('unavailable', generationMessages.startFailed);
  }
  return { status: 'processing' };
}

/** The record of `set` on a track, if it is the attempt named and still being made. */
const processing = (g: Generation, set: StemSet, attempt: number) => {
  const record = g.stems?.[set];
  return record && record.status === 'processing' && record.attempt === attempt ? record : undefined;
};

/** The provider accepted the separation: its request id is kept (a retried submit reuses it). */
export async function markStemsSubmitted(
  deps: Pick<GenerationDeps, 'generations' | 'clock'>,
  id: string,
  set: StemSet,
  attempt: number,
  requestId: string,
): Promise<void> {
  const updatedAt = deps.clock.now().toISOString();
  await deps.generations.update(id, (g) => {
    const record = processing(g, set, attempt);
    if (!record) return undefined;
    return { ...g, stems: { ...g.stems, [set]: { ...record, requestId, updatedAt } } };
  });
}

/**
 * The stems are stored: processing → ready with their files. Returns false
 * when the track was deleted, or the attempt failed or was replaced meanwhile
 * (the caller removes the files then: nothing else knows of them).
 */
export async function markStemsReady(
  deps: { generations: Pick<GenerationStore, 'update'>; clock: GenerationDeps['clock'] },
  id: string,
  set: StemSet,
  attempt: number,
  files: StoredStem[],
): Promise<boolean> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (g) => {
    const record = processing(g, set, attempt);
    if (!record) return undefined;
    return { ...g, stems: { ...g.stems, [set]: { ...record, status: 'ready', files, updatedAt } } };
  });
  return !!result?.after;
}

/**
 * Any error or timeout: processing → failed, and the unit reserved for it
 * goes back (into the week it was asked in), once: only the call that makes
 * the change refunds.
 */
export async function markStemsFailed(
  deps: Pick<GenerationDeps, 'generations' | 'quota' | 'clock'>,
  id: string,
  set: StemSet,
  attempt: number,
): Promise<{ refunded: boolean }> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (g) => {
    const record = processing(g, set, attempt);
    if (!record) return undefined;
    return { ...g, stems: { ...g.stems, [set]: { ...record, status: 'failed', updatedAt } } };
  });
  const failed = result?.after?.stems?.[set];
  if (!result?.after || !failed) return { refunded: false };
  const refunded = await deps.quota.refund(
    result.after.userId,
    quotaWindowStart(new Date(failed.requestedAt)),
  );
  return { refunded };
}

type ReadySetDeps = { generations: Pick<GenerationStore, 'update'>; clock: GenerationDeps['clock'] };

/**
 * Changes the ready set of this attempt, if it is still that: false when the
 * set is gone or was asked for again meanwhile (the caller removes the files
 * it made for it).
 */
async function updateReadySet(
  deps: ReadySetDeps,
  id: string,
  set: StemSet,
  attempt: number,
  change: (record: StemsRecord) => Partial<StemsRecord>,
): Promise<boolean> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (g) => {
    const record = g.stems?.[set];
    if (record?.status !== 'ready' || record.attempt !== attempt) return undefined;
    return { ...g, stems: { ...g.stems, [set]: { ...record, ...change(record), updatedAt } } };
  });
  return !!result?.after;
}

/**
 * The stems' loudness and Opus copies, made after they began to play:
 * recorded on the ready set of this attempt (players move to the copies).
 */
export const markStemsStreams = (
  deps: ReadySetDeps,
  id: string,
  set: StemSet,
  attempt: number,
  copies: Array<{ name: string; streamUrl: string | null; loudness: StoredStem['loudness'] }>,
): Promise<boolean> =>
  updateReadySet(deps, id, set, attempt, (record) => ({
    files: record.files.map((file) => {
      const copy = copies.find((c) => c.name === file.name);
      return copy ? { ...file, streamUrl: copy.streamUrl, loudness: copy.loudness } : file;
    }),
  }));

/**
 * The stems' WAVs are prepared for download (marked, signed, hashed, stored
 * under keys of their own): each stem still on the provider's WAV it played
 * from (`from`) moves to its marked WAV and hash.
 */
export const markStemsPrepared = (
  deps: ReadySetDeps,
  id: string,
  set: StemSet,
  attempt: number,
  prepared: Array<{ name: string; from: string; wavUrl: string; sha256: string }>,
): Promise<boolean> =>
  updateReadySet(deps, id, set, attempt, (record) => ({
    files: record.files.map((file) => {
      const wav = prepared.find(
        (p) => p.name === file.name && p.from === file.wavUrl && file.sha256 === null,
      );
      return wav ? { ...file, wavUrl: wav.wavUrl, sha256: wav.sha256 } : file;
    }),
  }));

/** The zip is there: recorded on the ready set it was made of. */
export const markStemsZipped = (
  deps: ReadySetDeps,
  id: string,
  set: StemSet,
  attempt: number,
  zipUrl: string,
): Promise<boolean> => updateReadySet(deps, id, set, attempt, () => ({ zipUrl }));

/** A stem as a viewer gets it, before its links are signed. */
export interface StemView {
  name: string;
  /** The stored stream copy (or the WAV): signed by the caller. */
  audio: string;
  peaks: string | null;
  /** Null while the stem's download is being prepared. */
  sha256: string | null;
  loudness: StoredStem['loudness'];
}

/**
 * `GET /api/track/{id}/stems` before signing: for whoever may see the track
 * (the track page's rule), the set asked for last (or the one named), or
 * `none`. Files are listed only when ready.
 */
export async function stemsForViewer(
  deps: Pick<GenerationDeps, 'generations'>,
  viewer: Pick<User, 'id'> | undefined,
  id: string,
  /** One set's state (`?set=`); the one asked for last when absent. */
  set?: StemSet,
): Promise<{ status: StemsStatus; set?: StemSet; stems: StemView[] }> {
  const track = await deps.generations.get(id);
  if (!track || !mayView(track, viewer)) throw trackNotFound();
  const record = set ? track.stems?.[set] : latestStems(track.stems);
  if (!record) return { status: 'none', stems: [] };
  return {
    status: record.status,
    set: record.set,
    stems:
      record.status === 'ready'
        ? record.files.map((f) => ({
            name: f.name,
            audio: f.streamUrl ?? f.wavUrl,
            peaks: f.peaksUrl,
            sha256: f.sha256,
            loudness: f.loudness,
          }))
        : [],
  };
}

/**
 * What the stems zip is made of, for the owner on a paid plan: the set asked
 * for last that is ready (anyone else: not found; the free plan: forbidden;
 * none ready: conflict).
 */
export async function stemsForDownload(
  deps: Pick<GenerationDeps, 'generations' | 'clock'>,
  user: Subscriber,
  plan: Plan | undefined,
  id: string,
): Promise<{ track: Generation; record: StemsRecord & { zipUrl: string } }> {
  const track = await deps.generations.get(id);
  if (!track || track.userId !== user.id) throw trackNotFound();
  if (!entitlementsFor(user, plan, deps.clock.now()).canDownload)
    throw forbidden(stemsMessages.downloadNeedsPaidPlan);
  const ready = Object.values(track.stems ?? {})
    .filter((r): r is StemsRecord => r?.status === 'ready')
    .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt))[0];
  if (!ready) throw conflict(stemsMessages.notReady);
  if (!ready.zipUrl) throw conflict(downloadMessages.preparing);
  return { track, record: { ...ready, zipUrl: ready.zipUrl } };
}
