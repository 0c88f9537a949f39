import {
  type AudioToMusicRequest,
  generationMessages,
  type TextToMusicRequest,
  type UpdateGenerationRequest,
} from '@tunesmith/shared/generations';
import type { TrackStatus } from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { DomainError, notFound } from '../errors';
import type { Plan } from '../plans/plan';
import { type Generation, storedTrackAudio } from '../tracks/track';
import { entitlementsFor } from './entitlements';
import type { GenerationDeps, WorkflowStarter } from './ports';
import { formatResetDate, quotaResetsAt, quotaWindowStart, usedThisWindow } from './quota-window';

type WithOptionalTitle<T extends { title?: unknown }> = Omit<T, 'title'> & { title?: string };

/** A parsed request (shared/generations schemas) and its kind. */
export type StartGenerationInput =
  | ({ type: 'text-to-music' } & WithOptionalTitle<Omit<TextToMusicRequest, 'instrumental'>> & {
        instrumental?: boolean;
      })
  | ({ type: 'audio-to-music' } & WithOptionalTitle<AudioToMusicRequest>);

type Owner = Pick<User, 'id'>;
type Subscriber = Pick<User, 'id' | 'planStatus' | 'planEndDate'>;

const ACTIVE: readonly TrackStatus[] = ['pending', 'generating'];

const trackNotFound = () => notFound(generationMessages.trackNotFound);
const privateNeedsPaidPlan = () =>
  new DomainError('payment-required', generationMessages.privateNeedsPaidPlan);

/** The 429 answer when the week's generations are used up. */
export function quotaExhaustedMessage(limit: number, now: Date): string {
  const noun = limit === 1 ? 'generation' : 'generations';
  return `You have used all ${limit} ${noun} of your plan this week. Your quota resets on ${formatResetDate(quotaResetsAt(now))}.`;
}

/**
 * Starts a generation: checks the plan allows the visibility, reserves one unit
 * of the weekly quota (atomically, in the store), then records the generation as
 * `pending`. If recording fails the unit is given back. The caller starts the
 * workflow with the returned id.
 */
export async function startGeneration(
  deps: GenerationDeps,
  user: Subscriber,
  plan: Plan | undefined,
  input: StartGenerationInput,
): Promise<Generation> {
  const now = deps.clock.now();
  const entitlements = entitlementsFor(user, plan, now);
  if (input.visibility === 'private' && !entitlements.canPrivate) throw privateNeedsPaidPlan();

  const windowStart = quotaWindowStart(now);
  const reservation = await deps.quota.reserve(user.id, {
    limit: entitlements.weeklyLimit,
    windowStart,
    now: now.toISOString(),
  });
  if (!reservation.ok) {
    throw new DomainError('quota', quotaExhaustedMessage(entitlements.weeklyLimit, now), {
      used: reservation.used,
      limit: reservation.limit,
      resetsAt: quotaResetsAt(now).toISOString(),
    });
  }

  const at = now.toISOString();
  const generation: Generation = {
    id: deps.newId(),
    userId: user.id,
    type: input.type,
    title: input.title ?? null,
    tags: input.tags,
    lyrics: input.lyrics,
    duration: input.type === 'text-to-music' ? input.duration : null,
    status: 'pending',
    visibility: input.visibility,
    showInGallery: true,
    inputAudioUrl: input.type === 'audio-to-music' ? input.inputAudioUrl : null,
    audioUrl: null,
    seed: null,
    falRequestId: null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await deps.generations.create(generation);
  } catch (error) {
    await deps.quota.refund(user.id, windowStart);
    throw error;
  }
  return generation;
}

/**
 * What the create calls do: {@link startGeneration} (plan check, one unit
 * reserved, `pending` recorded), then the workflow is launched for it. A
 * generation whose workflow cannot be launched would never move on, so it is
 * marked failed at once (which gives the unit back) and the caller gets
 * `unavailable` with the spec's start-failure message.
 */
export async function createGeneration(
  deps: GenerationDeps & { workflow: WorkflowStarter },
  user: Subscriber,
  plan: Plan | undefined,
  input: StartGenerationInput,
): Promise<Generation> {
  const generation = await startGeneration(deps, user, plan, input);
  try {
    await deps.workflow.start(generation.id);
  } catch (error) {
    const reason = `workflow did not start: ${error instanceof Error ? error.message : String(error)}`;
    try {
      await markFailed(deps, generation.id, reason);
    } catch {
      // The user still hears the start failed; the answer below does not depend on the refund.
    }
    throw new DomainError('unavailable', generationMessages.startFailed);
  }
  return generation;
}

/**
 * Applies a status change if the generation is still active (pending or
 * generating); completed and failed are final. Returns the stored generation and
 * whether this call made the change.
 */
async function transition(
  deps: GenerationDeps,
  id: string,
  from: readonly TrackStatus[],
  next: (g: Generation, updatedAt: string) => Generation,
): Promise<{ generation: Generation; changed: boolean }> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (current) =>
    from.includes(current.status) ? next(current, updatedAt) : undefined,
  );
  if (!result) throw trackNotFound();
  return { generation: result.after ?? result.before, changed: result.after !== undefined };
}

/** The provider accepted the request: pending → generating. */
export async function markGenerating(
  deps: GenerationDeps,
  id: string,
  provider: { falRequestId?: string } = {},
): Promise<Generation> {
  const { generation } = await transition(deps, id, ['pending'], (g, updatedAt) => ({
    ...g,
    status: 'generating',
    falRequestId: provider.falRequestId ?? g.falRequestId,
    updatedAt,
  }));
  return generation;
}

/** The audio is in our bucket: pending or generating → completed (final). */
export async function markCompleted(
  deps: GenerationDeps,
  id: string,
  result: {
    audioUrl: string;
    streamAudioUrl?: string | null;
    peaksUrl?: string | null;
    duration: number;
    seed: number | null;
  },
): Promise<Generation> {
  const { generation } = await transition(deps, id, ACTIVE, (g, updatedAt) => ({
    ...g,
    status: 'completed',
    audioUrl: result.audioUrl,
    streamAudioUrl: result.streamAudioUrl ?? null,
    peaksUrl: result.peaksUrl ?? null,
    duration: result.duration,
    seed: result.seed,
    updatedAt,
  }));
  return generation;
}

/**
 * Any error or timeout: pending or generating → failed (final), and the unit
 * reserved at start goes back to the owner. Only the call that makes the change
 * refunds, so repeating it, or failing a completed track, changes nothing. The
 * unit is refunded into the window it was taken from (the week of `createdAt`);
 * once that week is over there is nothing to give back.
 * `reason` is returned for the caller's logs; the track keeps no error text.
 */
export async function markFailed(
  deps: GenerationDeps,
  id: string,
  reason: string,
): Promise<{ generation: Generation; refunded: boolean; reason: string }> {
  const { generation, changed } = await transition(deps, id, ACTIVE, (g, updatedAt) => ({
    ...g,
    status: 'failed',
    updatedAt,
  }));
  if (!changed) return { generation, refunded: false, reason };
  const refunded = await deps.quota.refund(
    generation.userId,
    quotaWindowStart(new Date(generation.createdAt)),
  );
  return { generation, refunded, reason };
}

/**
 * Renames a track and sets its visibility. Only the owner may; anyone else gets
 * not-found so private tracks do not leak. Making a track private needs a paid
 * plan; a track that is already private may stay so (a downgraded user can still
 * rename it).
 */
export async function renameOrSetVisibility(
  deps: GenerationDeps,
  user: Subscriber,
  plan: Plan | undefined,
  id: string,
  input: UpdateGenerationRequest,
): Promise<Generation> {
  const now = deps.clock.now();
  const { canPrivate } = entitlementsFor(user, plan, now);
  const updatedAt = now.toISOString();
  const result = await deps.generations.update(id, (current) => {
    if (current.userId !== user.id) return undefined;
    if (input.visibility === 'private' && current.visibility !== 'private' && !canPrivate) {
      throw privateNeedsPaidPlan();
    }
    return { ...current, title: input.title, visibility: input.visibility, updatedAt };
  });
  if (!result || result.before.userId !== user.id || !result.after) throw trackNotFound();
  return result.after;
}

/**
 * Deletes the owner's track; anyone else gets not-found. Returns the audio the
 * caller must remove from storage: the result and, for a remix, the upload.
 * A track deleted while pending or generating never completes, so its unit
 * goes back (the workflow finds it gone and refunds nothing itself).
 */
export async function deleteGeneration(
  deps: GenerationDeps,
  user: Owner,
  id: string,
): Promise<{ generation: Generation; audioUrls: string[]; refunded: boolean }> {
  const deleted = await deps.generations.delete(id, user.id);
  if (!deleted) throw trackNotFound();
  // An upload restyled more than once stays while another of the owner's tracks uses it.
  const upload =
    deleted.inputAudioUrl && !(await uploadInUse(deps, user.id, deleted.inputAudioUrl))
      ? deleted.inputAudioUrl
      : null;
  const audioUrls = [...storedTrackAudio(deleted), ...(upload ? [upload] : [])];
  const refunded = ACTIVE.includes(deleted.status)
    ? await deps.quota.refund(deleted.userId, quotaWindowStart(new Date(deleted.createdAt)))
    : false;
  return { generation: deleted, audioUrls, refunded };
}

/** Whether any of the owner's tracks restyles this upload (every page of the library). */
async function uploadInUse(
  deps: Pick<GenerationDeps, 'generations'>,
  userId: string,
  inputAudioUrl: string,
): Promise<boolean> {
  for await (const generation of tracksOf(deps, userId)) {
    if (generation.inputAudioUrl === inputAudioUrl) return true;
  }
  return false;
}

/** Every track of a user, newest first, read a page at a time. */
async function* tracksOf(
  deps: Pick<GenerationDeps, 'generations'>,
  userId: string,
  pageSize = 100,
): AsyncGenerator<Generation> {
  let cursor: string | undefined;
  do {
    const page = await deps.generations.listByUser(userId, {
      limit: pageSize,
      ...(cursor ? { cursor } : {}),
    });
    yield* page.items;
    cursor = page.cursor;
  } while (cursor);
}

/** A track as a viewer may see it: a private track is not found for anyone but its owner. */
export async function getForViewer(
  deps: Pick<GenerationDeps, 'generations'>,
  viewer: Owner | undefined,
  id: string,
): Promise<Generation> {
  const generation = await deps.generations.get(id);
  if (!generation) throw trackNotFound();
  if (generation.visibility === 'private' && viewer?.id !== generation.userId) throw trackNotFound();
  return generation;
}

/** One of the owner's own tracks (status polling); anyone else's, private or public, is not found. */
export async function getOwn(
  deps: Pick<GenerationDeps, 'generations'>,
  owner: Owner,
  id: string,
): Promise<Generation> {
  const generation = await deps.generations.get(id);
  if (!generation || generation.userId !== owner.id) throw trackNotFound();
  return generation;
}

/**
 * The most tracks one library answer holds: the library counts, searches and
 * filters in the browser, so it gets every track up to this (a Premium user's
 * ten weeks), and the answer stays far below a Lambda response's 6 MB.
 */
export const LIBRARY_MAX = 1000;

/** The owner's library, newest first: all of it, up to {@link LIBRARY_MAX} tracks. */
export async function listLibrary(
  deps: Pick<GenerationDeps, 'generations'>,
  user: Owner,
  options: { pageSize?: number; max?: number } = {},
): Promise<Generation[]> {
  const max = options.max ?? LIBRARY_MAX;
  const items: Generation[] = [];
  if (max <= 0) return items;
  for await (const generation of tracksOf(deps, user.id, options.pageSize)) {
    items.push(generation);
    if (items.length >= max) break;
  }
  return items;
}

/** For the profile: how many of this week's generations are used, and when the count resets. */
export async function quotaStatus(
  deps: Pick<GenerationDeps, 'quota' | 'clock'>,
  user: Subscriber,
  plan: Plan | undefined,
): Promise<{ used: number; limit: number; resetsAt: string }> {
  const now = deps.clock.now();
  const stored = await deps.quota.read(user.id);
  return {
    used: usedThisWindow(stored, now),
    limit: entitlementsFor(user, plan, now).weeklyLimit,
    resetsAt: quotaResetsAt(now).toISOString(),
  };
}
