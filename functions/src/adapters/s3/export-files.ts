/**
 * Export zips in the tracks bucket under `exports/` (an S3 lifecycle rule
 * removes them after 7 days) and the stored audio they are made of. Links to
 * a zip are CloudFront signed URLs on the site's origin like track downloads
 * (decision 008, the `/exports/*` behaviour), so they live their 24 hours
 * whatever the signing function's role session does.
 */
import type { Readable } from 'node:stream';
import type { ArchiveWriter, ExportFiles, TrackFiles } from '../../domain/exports/ports';
import type { S3 } from './client';
import { parseS3Url, type ReadLinks } from './links';
import { s3VersionSweeper } from './versions';

export function s3ExportFiles(
  s3: S3,
  bucket: string,
  links: ReadLinks,
  options: { partBytes?: number; queueSize?: number } = {},
): ExportFiles {
  return {
    create(key) {
      // The zip and upload code loads with the first export: only the jobs function writes zips.
      const writer: Promise<ArchiveWriter> = Promise.all([s3(), import('./export-archive')]).then(
        ([{ client }, { zipUpload }]) => zipUpload(client, bucket, key, options),
      );
      writer.catch(() => {});
      return {
        add: async (name, content, addOptions) => (await writer).add(name, content, addOptions),
        finish: async () => (await writer).finish(),
        abort: async () => (await writer.catch(() => undefined))?.abort(),
      };
    },
    link: (key, { downloadAs, expiresIn }) => links.read({ bucket, key }, { downloadAs, expiresIn }),
    async removeAll(prefix) {
      // The tracks bucket keeps versions: a deleted user's zips go with every version of them.
      await s3VersionSweeper(s3, bucket).deletePrefix(prefix);
    },
  };
}

/** Track audio stored in `tracksBucket`, read as a stream; anything else, or a missing object, is undefined. */
export function s3TrackFiles(s3: S3, tracksBucket: string): TrackFiles {
  return {
    async open(stored) {
      const location = parseS3Url(stored);
      if (location?.bucket !== tracksBucket) return undefined;
      const { sdk, client } = await s3();
      try {
        const object = await client.send(
          new sdk.GetObjectCommand({ Bucket: location.bucket, Key: location.key }),
        );
        return object.Body as Readable | undefined;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
  };
}
