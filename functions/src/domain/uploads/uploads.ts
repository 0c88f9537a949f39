/**
 * Audio uploads: where a user's files live, how the browser-facing object path
 * maps to a storage key, and the check an upload must pass after it lands
 * (size, and bytes that really are one of the allowed audio formats) before a
 * generation may use it. Storage is a port; the S3 adapter implements it.
 *
 * A browser puts a file under `incoming/{userId}/`; only a file that passed the
 * check moves to `uploads/{userId}/`, where generations may use it. Whatever
 * is left under `incoming/` (never checked) expires with the bucket's lifecycle.
 * Once moved, a file is hashed (SHA-256, read as a stream) and the hash kept
 * with it: the provenance of a track made from it names the file as it arrived.
 */

import { type AudioFormat, SNIFF_BYTES, sniffAudioFormat } from '@tunesmith/shared/audio-format';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import { uploadExtension, uploadMessages } from '@tunesmith/shared/uploads';
import type { RateLimiter } from '../accounts/ports';
import { DomainError, notFound, validationError } from '../errors';

/** Storage of uploaded objects, by key. */
export interface UploadStore {
  /**
   * Size and type of an object, and the SHA-256 recorded with it (when one
   * was), or undefined when it does not exist.
   */
  head(key: string): Promise<{ size: number; contentType?: string; sha256?: string } | undefined>;
  /** The first `bytes` bytes of an object. */
  readStart(key: string, bytes: number): Promise<Uint8Array>;
  delete(key: string): Promise<void>;
  /** Moves an object to another key of the same store. */
  move(from: string, to: string): Promise<void>;
  /** SHA-256 (hex) of an object's bytes, read as a stream: memory stays small whatever the size. */
  sha256(key: string): Promise<string>;
  /** Keeps `sha256` with the object (what `head` answers from then on); its bytes stay as they are. */
  recordSha256(key: string, sha256: string): Promise<void>;
}

/** Where browsers put files before they are checked (these expire). */
export const INCOMING_AREA = 'incoming/';
/** Where checked uploads are kept for generations. */
export const UPLOADS_AREA = 'uploads/';

/** Every key of a user's checked uploads starts with this. */
export const uploadPrefix = (userId: string) => `${UPLOADS_AREA}${userId}/`;
const incomingPrefix = (userId: string) => `${INCOMING_AREA}${userId}/`;

/**
 * Upload links one user may ask for in an hour. A link the browser described
 * carries the file's exact length and type in its signature; the spec's call
 * without a body cannot, so how many links anyone can hold is what bounds it
 * (with the short link life, the check after upload and the incoming area's expiry).
 */
export const UPLOAD_RESERVATIONS = { perUser: 30, windowSeconds: 60 * 60 } as const;

/** Counts one upload link for the user; a 429 once the hour's allowance is used. */
export async function allowUploadReservation(limiter: RateLimiter, userId: string): Promise<void> {
  const ok = await limiter.hit(
    `upload-reservation:user:${userId}`,
    UPLOAD_RESERVATIONS.perUser,
    UPLOAD_RESERVATIONS.windowSeconds,
  );
  if (!ok) throw new DomainError('rate-limited', uploadMessages.tooManyReservations);
}

/** Where a browser puts a new file: the user's incoming prefix, keeping an allowed extension. */
export function newUploadKey(userId: string, id: string, filename?: string): string {
  const ext = (filename && uploadExtension(filename)) || '';
  return `${incomingPrefix(userId)}${id}${ext}`;
}

/** Where an incoming file is kept once it passed the check. */
export const keptUploadKey = (incomingKey: string) => UPLOADS_AREA + incomingKey.slice(INCOMING_AREA.length);

/** The path the browser keeps for an upload (spec: objectPath) and sends as inputAudioUrl. */
export const objectPathOf = (key: string) => `/objects/${key}`;

/**
 * The storage key of an object path, if it names one of this user's uploads;
 * undefined otherwise (another user's file, a path outside uploads, `..`).
 */
export function ownUploadKey(objectPath: string, userId: string): string | undefined {
  if (!objectPath.startsWith('/objects/')) return undefined;
  return ownKeyIn(objectPath.slice('/objects/'.length), uploadPrefix(userId));
}

/** The key itself if it is one this user's browser may have put under its incoming prefix. */
export const ownIncomingKey = (key: string, userId: string): string | undefined =>
  ownKeyIn(key, incomingPrefix(userId));

function ownKeyIn(key: string, prefix: string): string | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const name = key.slice(prefix.length);
  // One plain segment (no `/`, no `..`) with at most one of the allowed extensions, as newUploadKey makes.
  const dot = name.indexOf('.');
  const id = dot < 0 ? name : name.slice(0, dot);
  const ext = dot < 0 ? '' : name.slice(dot);
  if (!/^[A-Za-z0-9-]+$/.test(id)) return undefined;
  if (ext !== '' && !(UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) return undefined;
  return key;
}

/**
 * Checks an upload after it landed: it exists, is not empty, is at most
 * 50485760 bytes, and its bytes are audio of an allowed format. A file that
 * fails is deleted, so nothing half-valid stays behind. Returns its key and
 * its SHA-256: the one recorded when it was taken in, or (for a file taken in
 * before hashes were kept) hashed now.
 */
export async function checkUploadedAudio(
  store: UploadStore,
  userId: string,
  objectPath: string,
): Promise<{ key: string; size: number; format: AudioFormat; sha256: string }> {
  const key = ownUploadKey(objectPath, userId);
  if (!key) throw notFound(uploadMessages.notFound);
  const head = await store.head(key);
  if (!head) throw notFound(uploadMessages.notFound);
  const checked = await checkAudioObject(store, key, head.size);
  return { key, ...checked, sha256: head.sha256 ?? (await store.sha256(key)) };
}

/**
 * Hashes a taken-in file and keeps the hash with it, unless it has one.
 * Hashing the kept copy (which only the server writes) rather than the
 * incoming one means the hash is of the very bytes generations get.
 */
async function recordHash(store: UploadStore, key: string, known?: string): Promise<string> {
  if (known) return known;
  const sha256 = await store.sha256(key);
  await store.recordSha256(key, sha256);
  return sha256;
}

/**
 * Takes in a file the user's browser put under its incoming prefix (`key`):
 * checks it as {@link checkUploadedAudio} does (a failing file is deleted),
 * moves it to where generations may use it, and hashes it there (SHA-256,
 * kept with the file). Asked again for a file already taken in, it answers
 * the same (and finishes the hash if an earlier call stopped before it).
 * Returns the kept key and the file's hash.
 */
export async function acceptUpload(
  store: UploadStore,
  userId: string,
  key: string,
): Promise<{ key: string; sha256: string }> {
  const incoming = ownIncomingKey(key, userId);
  if (!incoming) throw notFound(uploadMessages.notFound);
  const kept = keptUploadKey(incoming);
  const head = await store.head(incoming);
  if (!head) {
    const taken = await store.head(kept);
    if (taken) return { key: kept, sha256: await recordHash(store, kept, taken.sha256) };
    throw notFound(uploadMessages.notFound);
  }
  await checkAudioObject(store, incoming, head.size);
  await store.move(incoming, kept);
  return { key: kept, sha256: await recordHash(store, kept) };
}

/** Size and first bytes of a stored object; one that fails is deleted and answered with a 4xx. */
async function checkAudioObject(
  store: UploadStore,
  key: string,
  size: number,
): Promise<{ size: number; format: AudioFormat }> {
  const reject = async (message: string, details?: Record<string, unknown>): Promise<never> => {
    await store.delete(key);
    throw validationError(message, details);
  };
  if (size === 0) return reject(uploadMessages.empty);
  if (size > UPLOAD_MAX_BYTES) return reject(uploadMessages.tooLarge, { maxBytes: UPLOAD_MAX_BYTES });
  const format = sniffAudioFormat(await store.readStart(key, SNIFF_BYTES));
  if (!format) return reject(uploadMessages.notAudio);
  return { size, format };
}
