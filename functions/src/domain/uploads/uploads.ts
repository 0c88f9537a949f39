/**
 * Audio uploads: where a user's files live, how the browser-facing object path
 * maps to a storage key, and the check an upload must pass after it lands
 * (size, and bytes that really are one of the allowed audio formats) before a
 * generation may use it. Storage is a port; the S3 adapter implements it.
 */
import { UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import { type UploadExtension, uploadExtension, uploadMessages } from '@tunesmith/shared/uploads';
import { DomainError, notFound, validationError } from '../errors';

/** Storage of uploaded objects, by key. */
export interface UploadStore {
  /** Size and type of an object, or undefined when it does not exist. */
  head(key: string): Promise<{ size: number; contentType?: string } | undefined>;
  /** The first `bytes` bytes of an object. */
  readStart(key: string, bytes: number): Promise<Uint8Array>;
  delete(key: string): Promise<void>;
}

/** Every key of a user's uploads starts with this. */
export const uploadPrefix = (userId: string) => `uploads/${userId}/`;

/** A new key under the user's prefix, keeping the allowed extension of the file name. */
export function newUploadKey(userId: string, id: string, filename?: string): string {
  const ext = (filename && uploadExtension(filename)) || '';
  return `${uploadPrefix(userId)}${id}${ext}`;
}

/** The path the browser keeps for an upload (spec: objectPath) and sends as inputAudioUrl. */
export const objectPathOf = (key: string) => `/objects/${key}`;

/**
 * The storage key of an object path, if it names one of this user's uploads;
 * undefined otherwise (another user's file, a path outside uploads, `..`).
 */
export function ownUploadKey(objectPath: string, userId: string): string | undefined {
  if (!objectPath.startsWith('/objects/')) return undefined;
  const key = objectPath.slice('/objects/'.length);
  const prefix = uploadPrefix(userId);
  if (!key.startsWith(prefix)) return undefined;
  const name = key.slice(prefix.length);
  return /^[A-Za-z0-9-]+(\.[a-z0-9]+)?$/.test(name) ? key : undefined;
}

export type AudioFormat = 'wav' | 'mp3' | 'ogg' | 'm4a' | 'aac';

/** How many leading bytes {@link sniffAudioFormat} looks at. */
export const SNIFF_BYTES = 16;

/** Recognises the allowed audio formats by their first bytes (magic numbers). */
export function sniffAudioFormat(head: Uint8Array): AudioFormat | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'ogg';
  if (head.length >= 8 && ascii(4, 8) === 'ftyp') return 'm4a';
  if (head.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  if (head.length >= 4 && ascii(0, 4) === 'ADIF') return 'aac';
  if (head.length >= 2 && head[0] === 0xff) {
    const b1 = head[1] as number;
    // ADTS (AAC): 12 sync bits, then layer 00.
    if ((b1 & 0xf6) === 0xf0) return 'aac';
    // MPEG audio frame: 11 sync bits, a valid version and a layer other than 00.
    if ((b1 & 0xe0) === 0xe0 && ((b1 >> 3) & 0x03) !== 0x01 && ((b1 >> 1) & 0x03) !== 0x00) return 'mp3';
  }
  return undefined;
}

export type { UploadExtension };

/**
 * Checks an upload after it landed: it exists, is not empty, is at most
 * 50485760 bytes, and its bytes are audio of an allowed format. A file that
 * fails is deleted, so nothing half-valid stays behind. Returns its key.
 */
export async function checkUploadedAudio(
  store: UploadStore,
  userId: string,
  objectPath: string,
): Promise<{ key: string; size: number; format: AudioFormat }> {
  const key = ownUploadKey(objectPath, userId);
  if (!key) throw notFound(uploadMessages.notFound);
  const head = await store.head(key);
  if (!head) throw notFound(uploadMessages.notFound);
  const reject = async (message: string): Promise<never> => {
    await store.delete(key);
    throw validationError(message);
  };
  if (head.size === 0) return reject(uploadMessages.empty);
  if (head.size > UPLOAD_MAX_BYTES) {
    await store.delete(key);
    throw new DomainError('validation', uploadMessages.tooLarge, { maxBytes: UPLOAD_MAX_BYTES });
  }
  const format = sniffAudioFormat(await store.readStart(key, SNIFF_BYTES));
  if (!format) return reject(uploadMessages.notAudio);
  return { key, size: head.size, format };
}
