import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import { SNIFF_BYTES, sniffAudioFormat } from '@tunesmith/shared/audio-format';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import {
  type CompletedMultipart,
  MULTIPART_THRESHOLD_BYTES,
  type MultipartUpload,
  type ReserveUploadRequest,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_MAX_LABEL,
  type UploadReservation,
  uploadMessages,
} from '@tunesmith/shared/uploads';
import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';
import type { Meta } from '@uppy/core/utils';
import Dashboard from '@uppy/dashboard';
import { ApiError, serverMessage } from '@/lib/api-client';
import { type MultipartApi, type PartSender, uploadInParts } from './upload-in-parts';

/** The audio button's rules (spec 1 sections 5 and 9): one file, five types, 50485760 bytes. */
export const audioUploadRestrictions = {
  maxNumberOfFiles: 1,
  allowedFileTypes: [...UPLOAD_EXTENSIONS],
  maxFileSize: UPLOAD_MAX_BYTES,
};

export interface UploadFile {
  name: string;
  /** The browser's MIME type; empty when it does not know one. */
  type: string;
  size: number | null;
}

export type ReserveUpload = (input: ReserveUploadRequest) => Promise<UploadReservation>;

/** A single presigned PUT: where to send the file and the headers its signature expects. */
export interface UploadParameters {
  method: 'PUT';
  url: string;
  headers: Record<string, string>;
}

/**
 * Reserves an upload for one file and says how to send it. The content type
 * becomes part of the signature only when it is one the server knows for the
 * allowed extensions (browsers name some formats differently); the PUT then
 * carries that same header. The server checks the bytes after upload either way.
 */
export async function uploadParameters(
  file: UploadFile,
  reserve: ReserveUpload,
): Promise<UploadParameters & { reservation: UploadReservation }> {
  const known = (UPLOAD_CONTENT_TYPES as readonly string[]).includes(file.type.toLowerCase());
  const contentType = known ? file.type : undefined;
  const reservation = await reserve({
    filename: file.name,
    ...(contentType ? { contentType } : {}),
    ...(file.size ? { size: file.size } : {}),
  });
  return {
    method: 'PUT',
    url: reservation.uploadURL,
    headers: contentType ? { 'content-type': contentType } : {},
    reservation,
  };
}

/** Whether the audio button sends a file in parts (over 5 MiB) rather than in one PUT. */
export const sendsInParts = (file: { size: number | null }) => (file.size ?? 0) > MULTIPART_THRESHOLD_BYTES;

/**
 * A finished upload: a single PUT gives the `uploadURL` the server issued (to
 * normalize), an upload in parts the `objectPath` its completion already checked.
 */
export type FinishedUpload = { fileName: string } & ({ uploadURL: string } | { objectPath: string });

/** An upload under way: the file and how much of it is sent. */
export interface UploadInProgress {
  fileName: string;
  /** 0 to 100. */
  percentage: number;
}

/**
 * The server's refusals of a file itself (its type, its size, its bytes): no
 * retry can succeed, whatever the connection does.
 */
const refusalsForGood: readonly string[] = [
  uploadMessages.typeNotAllowed,
  uploadMessages.tooLarge,
  uploadMessages.empty,
  uploadMessages.notAudio,
];

/** Whether an upload failed because the server refused the file for good (a 4xx naming the file). */
export function refusedForGood(error: unknown): boolean {
  const cause = error instanceof ApiError ? error : error instanceof Error ? error.cause : undefined;
  return (
    cause instanceof ApiError &&
    cause.status >= 400 &&
    cause.status < 500 &&
    refusalsForGood.includes(serverMessage(cause, ''))
  );
}

/** Whether a chosen file starts as one of the allowed audio formats does (empty files do not). */
async function looksLikeAudio(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return sniffAudioFormat(head) !== undefined;
}

export interface AudioUploaderOptions {
  reserve: ReserveUpload;
  /** The upload dialog's multipart calls, for files over 5 MiB. */
  multipart: MultipartApi;
  /** How part bytes are sent (the browser's XHR unless a test says otherwise). */
  sendPart?: PartSender;
  onUploadSuccess: (upload: FinishedUpload) => void;
  /**
   * An upload failed; `inDialog` when the dialog is open over the page (where
   * a notice on the page would sit behind its backdrop: tell it with `inform`).
   */
  onUploadError: (error: unknown, where: { inDialog: boolean }) => void;
  /**
   * The upload under way, or null when none is: told whether or not the dialog
   * is open, so the page can show an upload the dialog no longer shows.
   */
  onUploadingChange?: (upload: UploadInProgress | null) => void;
  /** The dialog closed (Escape, its close button, or the upload finished). */
  onClosed: () => void;
}

export interface AudioUploader {
  open: () => void;
  close: () => void;
  /** Shows a message in the dialog's own notice line (read out by screen readers). */
  inform: (message: string) => void;
  destroy: () => void;
}

/**
 * The upload dialog: Uppy's Dashboard as a modal over the page. A file over
 * 5 MiB goes in 5 MiB parts through the API's multipart calls, so a dropped
 * connection costs a part (tried again after 0, 1, 3 and 5 s, then resumable
 * with the Dashboard's retry); a smaller file goes with the AWS S3 uploader in
 * one presigned PUT. Nothing uploads until the user presses the Dashboard's
 * upload button; the modal closes when the upload finishes.
 *
 * `@uppy/aws-s3` 6 sends parts only to S3 calls it signs itself or to a
 * Companion server (which would also turn small files into POST uploads), so
 * the parts go through our own uploader step, run before the AWS S3 one: that
 * step skips the files it finished or failed.
 */
export function createAudioUploader(options: AudioUploaderOptions): AudioUploader {
  const reservations = new Map<string, UploadReservation>();
  /** Uploads in parts that exist in storage, by file: resumed on retry, aborted on cancel. */
  const sessions = new Map<string, MultipartUpload>();
  const running = new Map<string, AbortController>();
  const completed = new Map<string, CompletedMultipart>();
  const uppy = new Uppy({
    id: 'audio-upload',
    autoProceed: false,
    allowMultipleUploadBatches: false,
    // Uppy writes every size (the limit in its refusal, each file's size, the progress) with
    // `@transloadit/prettier-bytes`, which the build replaces with our formatter (lib/prettier-bytes.ts).
    restrictions: audioUploadRestrictions,
  });

  uppy.use(Dashboard, {
    inline: false,
    target: 'body',
    trigger: null,
    closeAfterFinish: true,
    closeModalOnClickOutside: true,
    proudlyDisplayPoweredByUppy: false,
    theme: 'dark',
    note: `One audio file: MP3, WAV, M4A, AAC or OGG, up to ${UPLOAD_MAX_LABEL}.`,
    locale: {
      strings: {
        dashboardWindowTitle: 'Upload Audio (Press escape to close)',
        dashboardTitle: 'Upload Audio',
        closeModal: 'Close',
      },
    },
  });

  // A chosen file that is not audio (by its first bytes, as the server checks them) can never be
  // used: it is refused as it is chosen, with the reason in the dialog, before anything is sent.
  const checks = new Map<string, Promise<void>>();
  const inform = (message: string) => uppy.info(message, 'error', uppy.opts.infoTimeout);
  uppy.on('file-added', (file) => {
    if (!(file.data instanceof Blob)) return;
    const data = file.data;
    checks.set(
      file.id,
      looksLikeAudio(data)
        .catch(() => true)
        .then((audio) => {
          checks.delete(file.id);
          if (audio || !uppy.getFile(file.id)) return;
          uppy.removeFile(file.id);
          inform(uploadMessages.notAudioFile(file.name ?? 'This file'));
        }),
    );
  });
  // The upload button may be pressed before a check has answered: the upload waits for it.
  uppy.addPreProcessor(async (fileIDs) => {
    await Promise.all(fileIDs.map((id) => checks.get(id)));
  });

  const cancel = (fileId: string) => {
    running.get(fileId)?.abort();
    running.delete(fileId);
    const session = sessions.get(fileId);
    sessions.delete(fileId);
    if (session) void options.multipart.abort(session).catch(() => undefined);
  };
  uppy.on('file-removed', (file) => cancel(file.id));
  uppy.on('cancel-all', () => {
    for (const fileId of new Set([...running.keys(), ...sessions.keys()])) cancel(fileId);
  });

  // Registered before the AWS S3 plugin's, so it runs first on each upload.
  uppy.addUploader(async (fileIDs) => {
    const files = fileIDs
      .map((id) => uppy.getFile(id))
      .filter((file) => file && !file.error && !file.progress.uploadComplete && sendsInParts(file));
    if (files.length === 0) return;
    uppy.emit('upload-start', files);
    await Promise.allSettled(
      files.map(async (file) => {
        const controller = new AbortController();
        running.set(file.id, controller);
        const resume = sessions.get(file.id);
        try {
          const done = await uploadInParts(file.data as File, {
            api: options.multipart,
            ...(options.sendPart ? { send: options.sendPart } : {}),
            ...(resume ? { resume } : {}),
            signal: controller.signal,
            onStarted: (upload) => sessions.set(file.id, upload),
            onProgress: (bytesUploaded, bytesTotal) => {
              const current = uppy.getFile(file.id);
              if (!current) return;
              uppy.emit('upload-progress', current, {
                uploadStarted: current.progress.uploadStarted || Date.now(),
                bytesUploaded,
                bytesTotal,
              });
            },
          });
          sessions.delete(file.id);
          completed.set(file.id, done);
          const current = uppy.getFile(file.id);
          if (current) {
            uppy.emit('upload-success', current, {
              status: 200,
              body: {},
              uploadURL: done.location,
            });
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          // A refused completion (too large, not audio) ended the upload; a retry starts afresh.
          if (error instanceof Error && /^4\d\d: /.test(error.message)) sessions.delete(file.id);
          const current = uppy.getFile(file.id);
          if (current)
            uppy.emit('upload-error', current, error instanceof Error ? error : new Error(String(error)));
        } finally {
          if (running.get(file.id) === controller) running.delete(file.id);
        }
      }),
    );
  });

  uppy.use(AwsS3, {
    shouldUseMultipart: false,
    // The object key is the server's choice; ours only finds the file again when signing.
    generateObjectKey: (file) => file.id,
    signRequest: async (request) => {
      const file = uppy.getFile(request.key);
      if (request.method !== 'PUT' || 'uploadId' in request || !file) {
        throw new Error('Only single-file uploads are supported.');
      }
      const { url, headers, reservation } = await uploadParameters(
        { name: file.name ?? 'audio', type: file.type ?? '', size: file.size },
        options.reserve,
      );
      reservations.set(file.id, reservation);
      return { url, headers };
    },
  });

  uppy.on('upload-success', (file, response) => {
    if (!file) return;
    const inParts = completed.get(file.id);
    if (inParts) {
      options.onUploadSuccess({ fileName: file.name ?? 'audio', objectPath: inParts.objectPath });
      return;
    }
    const uploadURL = reservations.get(file.id)?.uploadURL ?? response.uploadURL;
    if (uploadURL) options.onUploadSuccess({ fileName: file.name ?? 'audio', uploadURL });
  });
  // A refusal (wrong type, too big) stays up for a few seconds; once an allowed file is
  // chosen it no longer applies, unless a file of the same choice was the one refused.
  let refusedInThisChoice = false;
  uppy.on('restriction-failed', () => {
    refusedInThisChoice = true;
    queueMicrotask(() => {
      refusedInThisChoice = false;
    });
  });
  uppy.on('files-added', () => {
    if (refusedInThisChoice) return;
    const { info } = uppy.getState();
    if (info.some((item) => item.type === 'error')) {
      uppy.setState({ info: info.filter((item) => item.type !== 'error') });
    }
  });
  const dashboard = () => uppy.getPlugin<Dashboard<Meta, Record<string, never>>>('Dashboard');

  uppy.on('upload-error', (file, error) => {
    // A file the server refused for good leaves the dialog: a Retry beside it could never succeed.
    if (file && refusedForGood(error)) setTimeout(() => uppy.getFile(file.id) && uppy.removeFile(file.id), 0);
    options.onUploadError(error, { inDialog: dashboard()?.isModalOpen() ?? false });
  });
  uppy.on('dashboard:modal-closed', () => options.onClosed());

  // The upload under way, followed while the dialog is closed too.
  let uploading: UploadInProgress | null = null;
  uppy.on('state-update', () => {
    const file = uppy
      .getFiles()
      .find((f) => f.progress.uploadStarted && !f.progress.uploadComplete && !f.error);
    const next = file
      ? { fileName: file.name ?? 'audio', percentage: Math.round(file.progress.percentage ?? 0) }
      : null;
    if (next?.fileName === uploading?.fileName && next?.percentage === uploading?.percentage) return;
    uploading = next;
    options.onUploadingChange?.(next);
  });

  return {
    open: () => {
      const plugin = dashboard();
      if (!plugin || plugin.isModalOpen()) return;
      // A finished upload leaves its file behind; a new opening starts empty.
      const files = uppy.getFiles();
      if (files.length > 0 && files.every((file) => file.progress.uploadComplete)) uppy.clear();
      void plugin.openModal();
      // Uppy puts the dialog role on an inner element without a name; name it for screen readers.
      const dialog = plugin.el?.querySelector('.uppy-Dashboard-inner');
      dialog?.setAttribute('aria-label', 'Upload Audio');
      dialog?.setAttribute('aria-modal', 'true');
    },
    close: () => {
      const plugin = dashboard();
      if (plugin?.isModalOpen()) void plugin.closeModal();
    },
    inform,
    destroy: () => uppy.destroy(),
  };
}
