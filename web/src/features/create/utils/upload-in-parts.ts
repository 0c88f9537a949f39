import {
  type CompletedMultipart,
  MULTIPART_MIN_PART_BYTES,
  type MultipartUpload,
  type SignedPart,
  UPLOAD_CONTENT_TYPES,
  type UploadedPart,
} from '@tunesmith/shared/uploads';

/** Spec 1 section 9: a failed part is tried again after 0, 1000, 3000 and 5000 ms. */
export const PART_RETRY_DELAYS_MS = [0, 1000, 3000, 5000] as const;

/** The upload dialog's multipart calls (spec 1, "Upload dialog calls"). */
export interface MultipartApi {
  create(file: { filename: string; type?: string }, signal?: AbortSignal): Promise<MultipartUpload>;
  /** A link for one part of exactly `size` bytes. */
  signPart(
    upload: MultipartUpload,
    partNumber: number,
    size: number,
    signal?: AbortSignal,
  ): Promise<SignedPart>;
  listParts(upload: MultipartUpload, signal?: AbortSignal): Promise<UploadedPart[]>;
  complete(
    upload: MultipartUpload,
    parts: { PartNumber: number; ETag: string }[],
    signal?: AbortSignal,
  ): Promise<CompletedMultipart>;
  abort(upload: MultipartUpload): Promise<void>;
}

/** Sends one part's bytes to a signed link; resolves with the ETag storage answered. */
export type PartSender = (
  part: SignedPart & { body: Blob },
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
) => Promise<string>;

/** A part that storage refused or never answered; `retryable` when trying again may help. */
export class PartUploadError extends Error {
  constructor(
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(status === 0 ? 'The connection was lost while sending the file.' : `Storage answered ${status}.`);
    this.name = 'PartUploadError';
  }
}

/** The byte ranges of a file's parts: 5 MiB each, the last one what is left. */
export function partRanges(size: number): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (let start = 0; start < size; start += MULTIPART_MIN_PART_BYTES) {
    ranges.push({ start, end: Math.min(size, start + MULTIPART_MIN_PART_BYTES) });
  }
  return ranges;
}

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return signal?.aborted ? Promise.reject(abortError()) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The browser's XHR PUT of a part, with upload progress and the ETag (the bucket's CORS exposes it). */
export const xhrPartSender: PartSender = ({ url, headers, body }, onProgress, signal) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    const stop = () => xhr.abort();
    signal?.addEventListener('abort', stop, { once: true });
    const done = () => signal?.removeEventListener('abort', stop);
    xhr.onload = () => {
      done();
      const etag = xhr.getResponseHeader('etag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) resolve(etag);
      else {
        // Expired links (403) are signed again on the next try; a missing upload (404) is final.
        const retryable = xhr.status >= 500 || xhr.status === 429 || xhr.status === 403 || xhr.status < 200;
        reject(new PartUploadError(xhr.status, retryable));
      }
    };
    xhr.onerror = () => {
      done();
      reject(new PartUploadError(0, true));
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    xhr.send(body);
  });

export interface UploadInPartsOptions {
  api: MultipartApi;
  send?: PartSender;
  /** An upload started before (to resume): what storage holds of it is not sent again. */
  resume?: MultipartUpload;
  /** The upload exists: keep it to resume or to abort. */
  onStarted?: (upload: MultipartUpload) => void;
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** Waits between tries of a part (tests pass a clock of their own). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Sends a file in 5 MiB parts through the API's signed part links and has
 * the server join and check it. A part whose connection drops is tried again
 * after the spec's delays (a fresh link each time); after the last delay the
 * upload fails but stays resumable: called again with `resume`, it lists what
 * storage holds and sends only the rest.
 */
export async function uploadInParts(
  file: Blob & { name: string },
  options: UploadInPartsOptions,
): Promise<CompletedMultipart> {
  const { api, signal } = options;
  const send = options.send ?? xhrPartSender;
  const sleep = options.sleep ?? wait;
  const type = (UPLOAD_CONTENT_TYPES as readonly string[]).includes(file.type.toLowerCase())
    ? file.type
    : undefined;
  const upload =
    options.resume ?? (await api.create({ filename: file.name, ...(type ? { type } : {}) }, signal));
  options.onStarted?.(upload);

  const ranges = partRanges(file.size);
  const etags = new Map<number, string>();
  const sentOf = new Map<number, number>();
  const report = () =>
    options.onProgress?.(
      [...sentOf.values()].reduce((sum, sent) => sum + sent, 0),
      file.size,
    );
  if (options.resume) {
    for (const part of await api.listParts(upload, signal)) {
      const range = ranges[part.PartNumber - 1];
      if (range && part.Size === range.end - range.start) {
        etags.set(part.PartNumber, part.ETag);
        sentOf.set(part.PartNumber, part.Size);
      }
    }
    report();
  }

  for (const [index, range] of ranges.entries()) {
    const partNumber = index + 1;
    if (etags.has(partNumber)) continue;
    const body = file.slice(range.start, range.end);
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const signed = await api.signPart(upload, partNumber, body.size, signal);
        const etag = await send(
          { ...signed, body },
          (sent) => {
            sentOf.set(partNumber, sent);
            report();
          },
          signal,
        );
        etags.set(partNumber, etag);
        sentOf.set(partNumber, range.end - range.start);
        report();
        break;
      } catch (error) {
        sentOf.set(partNumber, 0);
        report();
        const delay = PART_RETRY_DELAYS_MS[attempt];
        if (!(error instanceof PartUploadError) || !error.retryable || delay === undefined) throw error;
        await sleep(delay, signal);
      }
    }
  }

  return api.complete(
    upload,
    ranges.map((_, index) => ({ PartNumber: index + 1, ETag: etags.get(index + 1) as string })),
    signal,
  );
}
