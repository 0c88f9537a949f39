import * as z from 'zod';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from './constants';

/** Messages of the upload calls (the browser checks the same rules first). */
export const uploadMessages = {
  typeNotAllowed: 'Only MP3, WAV, M4A, AAC and OGG audio files can be uploaded.',
  tooLarge: 'Audio files must be 50MB or smaller.',
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
