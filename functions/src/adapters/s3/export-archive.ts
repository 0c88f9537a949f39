/**
 * An export's zip written straight into S3: archiver's zip stream piped into
 * a lib-storage multipart upload. Nothing waits for the whole file: the
 * upload takes parts of {@link EXPORT_PART_BYTES} as archiver produces them,
 * at most {@link EXPORT_QUEUE_SIZE} in flight, and back-pressure reaches the
 * entry being read (a track's WAV, itself a stream from S3). So memory stays
 * at a few parts whatever the library's size. Loaded on first use, by the
 * jobs function only (export-files.ts).
 */
import { PassThrough, type Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ZipArchive } from 'archiver';
import type { ArchiveWriter } from '../../domain/exports/ports';

/** Size of each uploaded part: above S3's 5 MiB minimum, and 10,000 of them hold a 78 GiB zip. */
export const EXPORT_PART_BYTES = 8 * 1024 * 1024;
/** Parts uploaded at once. */
export const EXPORT_QUEUE_SIZE = 2;

export interface ZipUploadOptions {
  partBytes?: number;
  queueSize?: number;
}

/** A zip at `bucket`/`key`, written entry by entry (see {@link ArchiveWriter}). */
export function zipUpload(
  client: S3Client,
  bucket: string,
  key: string,
  options: ZipUploadOptions = {},
): ArchiveWriter {
  // Text entries are deflated; audio is stored as it is (`store` per entry): WAV hardly compresses.
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const body = new PassThrough();
  zip.pipe(body);
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: body, ContentType: 'application/zip' },
    partSize: options.partBytes ?? EXPORT_PART_BYTES,
    queueSize: options.queueSize ?? EXPORT_QUEUE_SIZE,
    // A failed upload aborts its multipart upload, so no parts are left to pay for.
    leavePartsOnError: false,
  });
  const uploaded = upload.done();
  // Either side failing fails the writer: a broken entry (archiver) or a refused part (S3).
  const failed = new Promise<never>((_resolve, reject) => {
    zip.on('error', reject);
    uploaded.catch(reject);
  });
  failed.catch(() => {});
  uploaded.catch(() => {});

  return {
    add(name, content, addOptions = {}) {
      return new Promise<void>((resolve, reject) => {
        // Entries are processed in the order appended, and the next is appended only once this one is in.
        zip.once('entry', () => resolve());
        failed.catch(reject);
        // archiver does not listen for its sources' errors: a failing source would leave its entry waiting forever.
        if (typeof content !== 'string') content.once('error', reject);
        zip.append(content as Readable | string, { name, store: addOptions.store ?? false });
      });
    },
    async finish() {
      await Promise.race([zip.finalize(), failed]);
      await uploaded;
      return { size: zip.pointer() };
    },
    async abort() {
      // The upload must see an error, not an end: an ended body would complete a truncated zip.
      zip.unpipe(body);
      body.destroy(new Error('The export was abandoned'));
      zip.abort();
      // done() settles once the multipart upload is aborted (leavePartsOnError: false).
      await uploaded.catch(() => {});
    },
  };
}
