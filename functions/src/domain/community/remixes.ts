import { type RemixRequest, remixMessages } from '@tunesmith/shared/community';
import { generationMessages } from '@tunesmith/shared/generation-values';
import type { RemixCredit } from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { forbidden, notFound, validationError } from '../errors';
import { createGeneration, mayView, type StartDeps } from '../generations/generation-service';
import type { GenerationStore, WorkflowStarter } from '../generations/ports';
import type { Plan } from '../plans/plan';
import { type Generation, isGalleryVisible } from '../tracks/track';
import type { CreatorNames } from './ports';

/** Where a track's remixes are found, newest first (decision 060). An entry names the remix only. */
export interface RemixIndex {
  add(sourceId: string, remix: Pick<Generation, 'id' | 'createdAt'>): Promise<void>;
  /** The source's remixes, newest first, at most `limit`: each remix's id and its entry's key. */
  list(sourceId: string, limit: number): Promise<{ id: string; entry: string }[]>;
  /** Forgets an entry whose remix is gone. */
  remove(sourceId: string, entry: string): Promise<void>;
  /** A deleted track's remix records: its entry in its source's list, and its own list. */
  forget(track: Pick<Generation, 'id' | 'createdAt' | 'remixOf'>): Promise<void>;
}

/** How a remix's provenance names a creator without a public profile. */
export const ANONYMOUS_CREATOR = 'anonymous';
/** The most remixes one list answers. */
export const REMIXES_LIST_MAX = 200;

type Viewer = Pick<User, 'id'> | undefined;
const trackNotFound = () => notFound(generationMessages.trackNotFound);

/** Whether others may see a track at all: not private to them, and not hidden after a report. */
const visibleTo = (g: Generation, viewer: Viewer) =>
  viewer?.id === g.userId || (mayView(g, viewer) && !g.hidden);

/**
 * Lets others remix the owner's track, or stops them. Anyone else's track is not found. Only a
 * public track may be made remixable; a track made private later keeps the choice but nobody
 * may remix it until it is public and listed again (the check is at each remix's start).
 */
export async function setRemixable(
  deps: { generations: GenerationStore; clock: { now(): Date } },
  user: Pick<User, 'id'>,
  id: string,
  remixable: boolean,
): Promise<Generation> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (current) => {
    if (current.userId !== user.id) return undefined;
    if (remixable && current.visibility !== 'public')
      throw validationError(remixMessages.privateNotRemixable);
    return { ...current, remixable, updatedAt };
  });
  if (!result || result.before.userId !== user.id || !result.after) throw trackNotFound();
  return result.after;
}

/**
 * Starts a remix of another user's track: a restyle of its audio, paid from the remixer's quota
 * through the same start as any generation (plan, models, quota, workflow). A track the caller
 * may not see is not found; their own track, or one that is not listed or not remixable, is
 * refused with the reason. The remix records its source as it is now: id, owner and the hash of
 * its audio; its provenance names the creator's handle, or "anonymous".
 */
export async function startRemix(
  deps: StartDeps & { workflow: WorkflowStarter; remixes: RemixIndex; creators: CreatorNames },
  user: Pick<User, 'id' | 'planStatus' | 'planEndDate'>,
  plan: Plan | undefined,
  sourceId: string,
  input: RemixRequest,
): Promise<Generation> {
  const source = await deps.generations.get(sourceId);
  if (!source || !visibleTo(source, user)) throw trackNotFound();
  if (source.userId === user.id) throw forbidden(remixMessages.ownTrack);
  if (!isGalleryVisible(source) || !source.remixable || !source.audioUrl)
    throw forbidden(remixMessages.cannotRemix);
  const names = await deps.creators.names([source.userId]);
  const remix = await createGeneration(deps, user, plan, {
    type: 'audio-to-music',
    ...input,
    remixOf: {
      source: { trackId: source.id, userId: source.userId, sha256: source.audioSha256 ?? null },
      creator: names.get(source.userId)?.handle ?? ANONYMOUS_CREATOR,
    },
  });
  await deps.remixes.add(source.id, remix);
  return remix;
}

/**
 * How a remix names its source to anyone (decision 060): with its title and creator while the
 * source is listed, and nothing of it once it is deleted, private or hidden. Null for a track
 * that is not a remix.
 */
export async function remixCreditOf(
  deps: { generations: Pick<GenerationStore, 'get'>; creators: CreatorNames },
  remix: Pick<Generation, 'remixOf'>,
): Promise<RemixCredit | null> {
  if (!remix.remixOf) return null;
  const source = await deps.generations.get(remix.remixOf.trackId);
  if (!source || !isGalleryVisible(source))
    return { available: false, trackId: null, title: null, creator: null };
  const names = await deps.creators.names([source.userId]);
  return {
    available: true,
    trackId: source.id,
    title: source.title,
    creator: names.get(source.userId) ?? null,
  };
}

/**
 * The listed remixes of a track, newest first, for anyone who may see the track; its owner also
 * learns how many of its remixes they may not see (`privateCount`). Entries whose remix is gone
 * are removed as they are met.
 */
export async function listRemixes(
  deps: { generations: Pick<GenerationStore, 'get'>; remixes: RemixIndex },
  viewer: Viewer,
  sourceId: string,
): Promise<{ remixes: Generation[]; privateCount?: number }> {
  const source = await deps.generations.get(sourceId);
  if (!source || !visibleTo(source, viewer)) throw trackNotFound();
  const entries = await deps.remixes.list(sourceId, REMIXES_LIST_MAX);
  const found = await Promise.all(entries.map(({ id }) => deps.generations.get(id)));
  const remixes: Generation[] = [];
  let hidden = 0;
  await Promise.all(
    entries.map(({ entry }, i) =>
      found[i]?.remixOf?.trackId === sourceId ? null : deps.remixes.remove(sourceId, entry),
    ),
  );
  for (const remix of found) {
    if (remix?.remixOf?.trackId !== sourceId) continue;
    if (isGalleryVisible(remix)) remixes.push(remix);
    // Unfinished and failed remixes are neither listed nor private.
    else if (remix.visibility === 'private' || remix.hidden) hidden += 1;
  }
  return viewer?.id === source.userId ? { remixes, privateCount: hidden } : { remixes };
}
