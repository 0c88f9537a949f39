import { remixMessages } from '@tunesmith/shared/community';
import { generationMessages } from '@tunesmith/shared/generation-values';
import type { RemixCredit } from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { notFound, validationError } from '../errors';
import type { GenerationStore } from '../generations/ports';
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
export const trackNotFound = () => notFound(generationMessages.trackNotFound);

/**
 * Whether a viewer may see a track at all: its owner always, anyone else while it is not private and
 * not hidden after a report (the track page's rule, `mayView`, with hiding).
 */
export const visibleTo = (g: Generation, viewer: Viewer): boolean =>
  viewer?.id === g.userId || (g.visibility !== 'private' && !g.hidden);

/**
 * Lets others remix the owner's track, or stops them. Anyone else's track is not found. Only a
 * public track may be made remixable; a track made private later keeps the choice but nobody
 * may remix it until it is public and listed again (the check is at each remix's start).
 */
export async function setRemixable(
  deps: { generations: GenerationStore; clock: { now(): Date } },
  user: Pick<User, 'id'>,
  id: string,
  /** The choice, or how to read it: read only once the track is known to be the user's. */
  choice: boolean | (() => boolean),
): Promise<Generation> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (current) => {
    if (current.userId !== user.id) return undefined;
    const remixable = typeof choice === 'function' ? choice() : choice;
    if (remixable && current.visibility !== 'public')
      throw validationError(remixMessages.privateNotRemixable);
    return { ...current, remixable, updatedAt };
  });
  if (!result || result.before.userId !== user.id || !result.after) throw trackNotFound();
  return result.after;
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
