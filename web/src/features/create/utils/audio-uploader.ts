import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import {
  type ReserveUploadRequest,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_MAX_LABEL,
  type UploadReservation,
} from '@tunesmith/shared/uploads';
import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';
import type { Meta } from '@uppy/core/utils';
import Dashboard from '@uppy/dashboard';

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

export interface AudioUploaderOptions {
  reserve: ReserveUpload;
  /** The file is in storage; `uploadURL` is the address the server issued for it. */
  onUploadSuccess: (upload: { fileName: string; uploadURL: string }) => void;
  onUploadError: (error: unknown) => void;
  /** The dialog closed (Escape, its close button, or the upload finished). */
  onClosed: () => void;
}

export interface AudioUploader {
  open: () => void;
  close: () => void;
  destroy: () => void;
}

/**
 * The upload dialog: Uppy's Dashboard as a modal over the page and the AWS S3
 * uploader with one presigned PUT per file (no multipart). Nothing uploads
 * until the user presses the Dashboard's upload button; the modal closes when
 * the upload finishes.
 */
export function createAudioUploader(options: AudioUploaderOptions): AudioUploader {
  const reservations = new Map<string, UploadReservation>();
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
  uppy.on('upload-error', (_file, error) => options.onUploadError(error));
  uppy.on('dashboard:modal-closed', () => options.onClosed());

  const dashboard = () => uppy.getPlugin<Dashboard<Meta, Record<string, never>>>('Dashboard');

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
    destroy: () => uppy.destroy(),
  };
}
