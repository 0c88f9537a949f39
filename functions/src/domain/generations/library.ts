import { generationMessages } from '@tunesmith/shared/generation-values';
import type { User } from '../accounts/user';
import { notFound } from '../errors';
import type { Generation } from '../tracks/track';
import type { GenerationDeps } from './ports';

type Owner = Pick<User, 'id'>;

/** Every track of a user, newest first, read a page at a time. */
export async function* tracksOf(
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

/** One of the owner's own tracks (status polling); anyone else's, private or public, is not found. */
export async function getOwn(
  deps: Pick<GenerationDeps, 'generations'>,
  owner: Owner,
  id: string,
): Promise<Generation> {
  const generation = await deps.generations.get(id);
  if (!generation || generation.userId !== owner.id) throw notFound(generationMessages.trackNotFound);
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
