/**
 * Uploads in parts (the upload dialog's multipart calls): a file goes to
 * storage as numbered parts, so a dropped connection costs one part, not the
 * file. The rules are those of a single upload: the object lives under the
 * user's own incoming prefix, only the allowed types, the hourly allowance of
 * upload links, and the 50485760-byte limit, checked on complete from the
 * parts storage holds (never the sizes a browser reports) and again once the
 * object is joined, by the same check after upload as a single upload
 * ({@link acceptUpload}), so a generation uses the result in the same way.
 */
import { UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import {
  MULTIPART_MAX_PARTS,
  MULTIPART_MIN_PART_BYTES,
  UPLOAD_CONTENT_TYPES,
  type UploadedPart,
  uploadExtension,
  uploadMessages,
} from '@tunesmith/shared/uploads';
import type { RateLimiter } from '../accounts/ports';
import { notFound, validationError } from '../errors';
import {
  acceptUpload,
  allowUploadReservation,
  newUploadKey,
  objectPathOf,
  ownIncomingKey,
  type UploadStore,
} from './uploads';

/** Multipart uploads of the uploads bucket. */
export interface MultipartStore {
  /** Starts a multipart upload of `key`; the joined object gets `contentType`. */
  create(key: string, contentType: string): Promise<{ uploadId: string }>;
  /** A short-lived link to PUT one part of exactly `size` bytes to, and how many seconds it works. */
  partLink(
    key: string,
    uploadId: string,
    partNumber: number,
    size: number,
  ): Promise<{ url: string; expiresIn: number }>;
  /** The parts storage holds, in part-number order; undefined when there is no such upload of `key`. */
  listParts(key: string, uploadId: string): Promise<UploadedPart[] | undefined>;
  /** Joins the parts into the object `key`. */
  complete(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void>;
  /** Drops the upload and its parts; false when there was no such upload of `key`. */
  abort(key: string, uploadId: string): Promise<boolean>;
}

export interface MultipartDeps {
  multipart: MultipartStore;
  /** The uploads bucket's objects, for the check after the parts are joined. */
  store: UploadStore;
  limiter: RateLimiter;
  newId: () => string;
}

/** The type the joined object is stored with: the browser's, when it is one of ours; else by extension. */
const EXTENSION_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
};

function storedContentType(filename: string, type: string | undefined): string {
  if (type && (UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.toLowerCase())) return type;
  const ext = uploadExtension(filename);
  return (ext && EXTENSION_TYPES[ext]) || 'application/octet-stream';
}

/**
 * Starts an upload in parts for one file: the type must be allowed, and it
 * counts against the hour's allowance of upload links like a single upload.
 * The key is the server's, under the user's incoming prefix.
 */
export async function startMultipartUpload(
  deps: MultipartDeps,
  userId: string,
  file: { filename: string; type?: string },
): Promise<{ key: string; uploadId: string }> {
  if (!uploadExtension(file.filename)) throw validationError(uploadMessages.typeNotAllowed);
  if (file.type && storedContentType(file.filename, file.type) !== file.type) {
    throw validationError(uploadMessages.typeNotAllowed);
  }
  await allowUploadReservation(deps.limiter, userId);
  const key = newUploadKey(userId, deps.newId(), file.filename);
  const { uploadId } = await deps.multipart.create(key, storedContentType(file.filename, file.type));
  return { key, uploadId };
}

/** The key itself when it is one of this user's incoming keys; a 404 otherwise (whose ever it is). */
function ownKey(key: string, userId: string): string {
  const own = ownIncomingKey(key, userId);
  if (!own) throw notFound(uploadMessages.notFound);
  return own;
}

/** A part number as the path carries it: a whole number from 1 to 10000, written plainly. */
export function parsePartNumber(value: string | undefined): number {
  if (value === undefined || value === '') throw validationError(uploadMessages.signNeedsKeyUploadIdPart);
  if (!/^[0-9]{1,5}$/.test(value)) throw validationError(uploadMessages.partNumberRange);
  const number = Number(value);
  if (number < 1 || number > MULTIPART_MAX_PARTS) throw validationError(uploadMessages.partNumberRange);
  return number;
}

/** A part's size as the query carries it: whole bytes, at most what a whole upload may hold. */
export function parsePartSize(value: string | undefined): number {
  if (!value || !/^[0-9]{1,9}$/.test(value)) throw validationError(uploadMessages.partSizeRange);
  const size = Number(value);
  if (size < 1 || size > UPLOAD_MAX_BYTES) throw validationError(uploadMessages.partSizeRange);
  return size;
}

/**
 * A link for one part of one of the user's uploads. Without a key, an upload
 * id and a part number there is nothing to sign (spec 1 section 5). The link
 * is signed for the part's size, as a single upload's is for the file's, so
 * no part can bring more than a whole upload may hold. Storage refuses a part
 * whose key and upload id do not belong together.
 */
export async function signUploadPart(
  deps: Pick<MultipartDeps, 'multipart'>,
  userId: string,
  request: { key?: string; uploadId?: string; partNumber?: string; size?: string },
): Promise<{ url: string; headers: Record<string, string>; expires: number }> {
  if (!request.key || !request.uploadId || !request.partNumber) {
    throw validationError(uploadMessages.signNeedsKeyUploadIdPart);
  }
  const key = ownKey(request.key, userId);
  const partNumber = parsePartNumber(request.partNumber);
  const size = parsePartSize(request.size);
  const { url, expiresIn } = await deps.multipart.partLink(key, request.uploadId, partNumber, size);
  return { url, headers: {}, expires: expiresIn };
}

/** The parts storage holds for one of the user's uploads (to resume after a dropped connection). */
export async function listUploadParts(
  deps: Pick<MultipartDeps, 'multipart'>,
  userId: string,
  key: string,
  uploadId: string,
): Promise<UploadedPart[]> {
  const parts = await deps.multipart.listParts(ownKey(key, userId), uploadId);
  if (!parts) throw notFound(uploadMessages.notFound);
  return parts;
}

/**
 * Joins the named parts of one of the user's uploads and takes the result in
 * as a single upload is taken in. The sizes are storage's own (ListParts):
 * every part named must be there with that ETag, every part but the last at
 * least 5 MiB, and the total at most 50485760 bytes. An upload over the limit
 * is dropped, so nothing of it is kept. Returns the kept object's key and path.
 */
export async function completeUpload(
  deps: Pick<MultipartDeps, 'multipart' | 'store'>,
  userId: string,
  key: string,
  uploadId: string,
  parts: { PartNumber: number; ETag: string }[],
): Promise<{ key: string; objectPath: string }> {
  const own = ownKey(key, userId);
  if (parts.length === 0) throw validationError(uploadMessages.partsRequired);
  for (let i = 1; i < parts.length; i++) {
    if (
      (parts[i] as { PartNumber: number }).PartNumber <= (parts[i - 1] as { PartNumber: number }).PartNumber
    ) {
      throw validationError(uploadMessages.partsOrder);
    }
  }
  const stored = await deps.multipart.listParts(own, uploadId);
  if (!stored) throw notFound(uploadMessages.notFound);
  const byNumber = new Map(stored.map((part) => [part.PartNumber, part]));
  const unquote = (etag: string) => etag.replace(/"/g, '');
  const held = parts.map((part) => {
    const found = byNumber.get(part.PartNumber);
    if (!found || unquote(found.ETag) !== unquote(part.ETag))
      throw validationError(uploadMessages.partMissing);
    return found;
  });
  if (held.slice(0, -1).some((part) => part.Size < MULTIPART_MIN_PART_BYTES)) {
    throw validationError(uploadMessages.partTooSmall);
  }
  const total = held.reduce((sum, part) => sum + part.Size, 0);
  if (total === 0) throw validationError(uploadMessages.empty);
  if (total > UPLOAD_MAX_BYTES) {
    await deps.multipart.abort(own, uploadId);
    throw validationError(uploadMessages.tooLarge, { maxBytes: UPLOAD_MAX_BYTES });
  }
  await deps.multipart.complete(
    own,
    uploadId,
    parts.map((part) => ({
      PartNumber: part.PartNumber,
      ETag: (byNumber.get(part.PartNumber) as UploadedPart).ETag,
    })),
  );
  const { key: kept } = await acceptUpload(deps.store, userId, own);
  return { key: kept, objectPath: objectPathOf(kept) };
}

/** Drops one of the user's uploads and its parts (the dialog's cancel); a 404 when there is none. */
export async function abortUpload(
  deps: Pick<MultipartDeps, 'multipart'>,
  userId: string,
  key: string,
  uploadId: string,
): Promise<void> {
  if (!(await deps.multipart.abort(ownKey(key, userId), uploadId))) throw notFound(uploadMessages.notFound);
}
