import * as z from 'zod/mini';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from './constants';
import './schema-messages';

/** S3's smallest part of a multipart upload (all but the last): 5 MiB. */
export const MULTIPART_MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3's part numbers run from 1 to this. */
export const MULTIPART_MAX_PARTS = 10_000;
/** The audio button sends files over this size in parts, each of this size but the last. */
export const MULTIPART_THRESHOLD_BYTES = MULTIPART_MIN_PART_BYTES;

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/**
 * A file size as the user reads it, everywhere: the upload limit, the sizes
 * the upload dialog shows, the messages that refuse a file, and an export's
 * size on the profile and in the mail that links it. Decimal units
 * (1 MB is 1,000,000 bytes, as the spec's "50MB" for 50485760 bytes reads),
 * whole numbers from 10 up and one decimal below. The rounding keeps the order
 * of sizes, so a file over the limit never reads as less than the limit, nor
 * one under it as more.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`Not a size in bytes: ${bytes}`);
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  let shown = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  // 999.6 kB rounds to 1000 kB: that is 1 MB.
  if (shown >= 1000 && unit < SIZE_UNITS.length - 1) {
    shown = 1;
    unit += 1;
  }
  return `${shown} ${SIZE_UNITS[unit]}`;
}

/** The upload limit as the screens and messages write it: "50 MB". */
export const UPLOAD_MAX_LABEL = formatBytes(UPLOAD_MAX_BYTES);

/** Messages of the upload calls (the browser checks the same rules first). */
export const uploadMessages = {
  typeNotAllowed: 'Only MP3, WAV, M4A, AAC and OGG audio files can be uploaded.',
  tooLarge: `Audio files must be ${UPLOAD_MAX_LABEL} or smaller.`,
  empty: 'The uploaded file is empty.',
  notAudio: 'The uploaded file is not a supported audio file (MP3, WAV, M4A, AAC or OGG).',
  /** A chosen file whose first bytes are not audio, refused before it is sent. */
  notAudioFile: (name: string) =>
    `${name} is not a supported audio file (MP3, WAV, M4A, AAC or OGG), so it cannot be used.`,
  notFound: 'Upload not found. Please upload the file again.',
  tooManyReservations: 'Too many uploads in the last hour. Please wait a while and try again.',
  uploadUrlRequired: 'Upload URL is required',
  processFailedTitle: 'Upload Error',
  processFailed: 'Failed to process uploaded file.',
  uploadedTitle: 'Audio Uploaded!',
  /** Spec 1 section 5, the upload dialog's rule for signing a part. */
  signNeedsKeyUploadIdPart: 'Cannot sign without a key, an uploadId, and a partNumber',
  partNumberRange: `Part numbers run from 1 to ${MULTIPART_MAX_PARTS}.`,
  /** A part link is signed for one length, as a single upload's link is. */
  partSizeRange: `Give the part's size in bytes (size), from 1 to ${UPLOAD_MAX_BYTES}.`,
  keyRequired: 'Cannot continue an upload without its key.',
  partsRequired: 'Name the uploaded parts (PartNumber and ETag) to complete the upload.',
  partsOrder: 'List each part once, in ascending PartNumber order.',
  partMissing:
    'A part to complete with was not uploaded, or not with that ETag. Please upload the file again.',
  partTooSmall: `Every part but the last must be at least ${formatBytes(MULTIPART_MIN_PART_BYTES)}.`,
} as const;

/** MIME types browsers report for the allowed extensions. */
export const UPLOAD_CONTENT_TYPES = [
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/mp4',
  'audio/x-m4a',
  'audio/m4a',
  'audio/aac',
  'audio/x-aac',
  'audio/aacp',
  'audio/ogg',
  'application/ogg',
] as const;

export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

/** The file's allowed extension (lower case, with the dot), or undefined. */
export function uploadExtension(filename: string): UploadExtension | undefined {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = filename.slice(dot).toLowerCase();
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? (ext as UploadExtension) : undefined;
}

/**
 * `POST /api/objects/upload`: the spec sends no body; the browser may describe
 * the file so that a wrong type or size is refused before any byte is sent.
 */
export const reserveUploadSchema = z._default(
  z.object({
    filename: z.optional(
      z.string().check(
        z.maxLength(255),
        z.refine((name) => uploadExtension(name) !== undefined, uploadMessages.typeNotAllowed),
      ),
    ),
    contentType: z.optional(
      z.string().check(
        z.maxLength(100),
        z.refine(
          (type) => type === '' || (UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.toLowerCase()),
          uploadMessages.typeNotAllowed,
        ),
      ),
    ),
    size: z.optional(
      z
        .number()
        .check(z.int(), z.gte(1, uploadMessages.empty), z.lte(UPLOAD_MAX_BYTES, uploadMessages.tooLarge)),
    ),
  }),
  {},
);
export type ReserveUploadRequest = z.infer<typeof reserveUploadSchema>;

/** `{ uploadURL, objectPath }`: PUT the file to uploadURL, then normalize it. */
export const uploadReservationSchema = z.object({ uploadURL: z.string(), objectPath: z.string() });
export type UploadReservation = z.infer<typeof uploadReservationSchema>;

/** `POST /api/objects/normalize-path` */
export const normalizePathSchema = z.object({
  uploadURL: z
    .string({ error: uploadMessages.uploadUrlRequired })
    .check(z.minLength(1, uploadMessages.uploadUrlRequired), z.maxLength(4096)),
});
export const normalizedPathSchema = z.object({ objectPath: z.string() });

/** The file the upload dialog is about to send in parts (`POST /api/s3/multipart`). */
export const createMultipartSchema = z.object({
  filename: z.string({ error: uploadMessages.typeNotAllowed }).check(
    z.maxLength(255),
    z.refine((name) => uploadExtension(name) !== undefined, uploadMessages.typeNotAllowed),
  ),
  type: z.optional(
    z.string().check(
      z.maxLength(100),
      z.refine(
        (type) => type === '' || (UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.toLowerCase()),
        uploadMessages.typeNotAllowed,
      ),
    ),
  ),
  /** Uppy's file metadata; the server keeps none of it. */
  metadata: z.optional(z.record(z.string().check(z.maxLength(100)), z.unknown())),
});
export type CreateMultipartRequest = z.infer<typeof createMultipartSchema>;
export const multipartUploadSchema = z.object({ key: z.string(), uploadId: z.string() });
export type MultipartUpload = z.infer<typeof multipartUploadSchema>;

/** `?key=` of the calls on one multipart upload. */
export const multipartKeyQuerySchema = z.object({
  key: z
    .string({ error: uploadMessages.keyRequired })
    .check(z.minLength(1, uploadMessages.keyRequired), z.maxLength(1024)),
});

/** A signed part: PUT the bytes to `url` with `headers`, within `expires` seconds. */
export const signedPartSchema = z.object({
  url: z.string(),
  headers: z.optional(z.record(z.string(), z.string())),
  expires: z.number(),
});
export type SignedPart = z.infer<typeof signedPartSchema>;

/** One uploaded part as storage lists it (`GET /api/s3/multipart/{uploadId}`). */
export const uploadedPartSchema = z.object({ PartNumber: z.number(), ETag: z.string(), Size: z.number() });
export type UploadedPart = z.infer<typeof uploadedPartSchema>;

/** `POST /api/s3/multipart/{uploadId}/complete`: the parts to join, in order. */
export const completeMultipartSchema = z.object({
  parts: z
    .array(
      z.object({
        PartNumber: z
          .number({ error: uploadMessages.partNumberRange })
          .check(
            z.int(uploadMessages.partNumberRange),
            z.gte(1, uploadMessages.partNumberRange),
            z.lte(MULTIPART_MAX_PARTS, uploadMessages.partNumberRange),
          ),
        ETag: z
          .string({ error: uploadMessages.partsRequired })
          .check(z.minLength(1, uploadMessages.partsRequired), z.maxLength(200)),
      }),
      { error: uploadMessages.partsRequired },
    )
    .check(
      z.minLength(1, uploadMessages.partsRequired),
      z.maxLength(MULTIPART_MAX_PARTS, uploadMessages.partNumberRange),
    ),
});
export type CompleteMultipartRequest = z.infer<typeof completeMultipartSchema>;

/**
 * The joined, checked upload: `objectPath` is what a generation takes as
 * `inputAudioUrl` (as normalize-path answers for a single upload); `location`
 * names the same for Uppy, `key` its storage key.
 */
export const completedMultipartSchema = z.object({
  location: z.string(),
  key: z.string(),
  objectPath: z.string(),
});
export type CompletedMultipart = z.infer<typeof completedMultipartSchema>;
