import * as z from 'zod';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from './constants';

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/**
 * A file size as the user reads it, everywhere: the upload limit, the sizes
 * the upload dialog shows and the messages that refuse a file. Decimal units
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
  notFound: 'Upload not found. Please upload the file again.',
  tooManyReservations: 'Too many uploads in the last hour. Please wait a while and try again.',
  uploadUrlRequired: 'Upload URL is required',
  processFailedTitle: 'Upload Error',
  processFailed: 'Failed to process uploaded file.',
  uploadedTitle: 'Audio Uploaded!',
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
export const reserveUploadSchema = z
  .object({
    filename: z
      .string()
      .max(255)
      .refine((name) => uploadExtension(name) !== undefined, uploadMessages.typeNotAllowed)
      .optional(),
    contentType: z
      .string()
      .max(100)
      .refine(
        (type) => type === '' || (UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.toLowerCase()),
        uploadMessages.typeNotAllowed,
      )
      .optional(),
    size: z
      .number()
      .int()
      .min(1, uploadMessages.empty)
      .max(UPLOAD_MAX_BYTES, uploadMessages.tooLarge)
      .optional(),
  })
  .default({});
export type ReserveUploadRequest = z.infer<typeof reserveUploadSchema>;

/** `{ uploadURL, objectPath }`: PUT the file to uploadURL, then normalize it. */
export const uploadReservationSchema = z.object({ uploadURL: z.string(), objectPath: z.string() });
export type UploadReservation = z.infer<typeof uploadReservationSchema>;

/** `POST /api/objects/normalize-path` */
export const normalizePathSchema = z.object({
  uploadURL: z
    .string({ error: uploadMessages.uploadUrlRequired })
    .min(1, uploadMessages.uploadUrlRequired)
    .max(4096),
});
export const normalizedPathSchema = z.object({ objectPath: z.string() });
