/**
 * What `/api/v1` adds to the app's own services (decision 055): paging
 * through the owner's tracks, and taking in an upload the program sent
 * itself (the app's browser asks for that in a call of its own).
 */
import { V1_PAGE_MAX, v1ListMessages } from '@tunesmith/shared/api-v1-schemas';
import type { AudioFormat } from '@tunesmith/shared/audio-format';
import { uploadMessages } from '@tunesmith/shared/uploads';
import type { User } from '../accounts/user';
import { notFound, validationError } from '../errors';
import type { GenerationDeps } from '../generations/ports';
import type { Generation } from '../tracks/track';
import {
  acceptUpload,
  checkUploadedAudio,
  INCOMING_AREA,
  ownUploadKey,
  UPLOADS_AREA,
  type UploadStore,
} from '../uploads/uploads';

export const V1_PAGE_DEFAULT = 20;
export { V1_PAGE_MAX };
/** The refusals of a page's query, the schema's own. */
export const v1PageMessages = v1ListMessages;

/** One page of the owner's tracks, newest first; `next` is the cursor of the page after it, null on the last. */
export async function listOwnTracks(
  deps: Pick<GenerationDeps, 'generations'>,
  owner: Pick<User, 'id'>,
  query: { cursor?: string; limit?: string },
): Promise<{ tracks: Generation[]; next: string | null }> {
  const limit = query.limit === undefined ? V1_PAGE_DEFAULT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > V1_PAGE_MAX) {
    throw validationError(v1PageMessages.limitInvalid, { field: 'limit' });
  }
  const page = await deps.generations.listByUser(owner.id, {
    limit,
    ...(query.cursor ? { cursor: query.cursor } : {}),
  });
  return { tracks: page.items, next: page.cursor ?? null };
}

/**
 * The upload at `objectPath` (the `inputAudio` of `POST /api/v1/uploads`),
 * taken in and checked as the app's upload dialog has them (the bytes are
 * audio within the limits; a file that fails is deleted): its key, format and hash.
 * Only the owner's own upload; anything else is not found.
 */
export async function takeInUpload(
  store: UploadStore,
  userId: string,
  objectPath: string,
): Promise<{ key: string; size: number; format: AudioFormat; sha256: string }> {
  const kept = ownUploadKey(objectPath, userId);
  if (!kept) throw notFound(uploadMessages.notFound);
  // Moved from where the program PUT it on the first use; a later use finds it kept.
  await acceptUpload(store, userId, INCOMING_AREA + kept.slice(UPLOADS_AREA.length));
  return checkUploadedAudio(store, userId, objectPath);
}
