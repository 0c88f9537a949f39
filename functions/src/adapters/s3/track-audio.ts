/**
 * A finished track's stored audio (`s3://bucket/key` in the tracks bucket):
 * the link that saves it under a file name, and its removal with the track
 * (every version: the tracks bucket keeps them, see versions.ts).
 */
import type { S3 } from './client';
import { s3DownloadLinks } from './download-links';
import { parseS3Url, type ReadLinks } from './links';
import { deleteEveryVersion } from './versions';

export interface S3TrackAudio {
  /** A GET link that makes the browser save the audio as `filename`; audio not stored by us passes through. */
  downloadLink(stored: string, filename: string): Promise<string>;
  /** Deletes the stored audio, every version of it; anything outside the tracks bucket is left alone. */
  remove(stored: string): Promise<void>;
}

export function s3TrackAudio(s3: S3, links: ReadLinks, tracksBucket: string): S3TrackAudio {
  return {
    downloadLink: s3DownloadLinks(links, tracksBucket),
    async remove(stored) {
      const location = parseS3Url(stored);
      if (location?.bucket === tracksBucket) await deleteEveryVersion(s3, location.bucket, location.key);
    },
  };
}
