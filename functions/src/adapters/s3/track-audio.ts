/**
 * A finished track's stored audio (`s3://bucket/key` in the tracks bucket):
 * the link that saves it under a file name, and its removal with the track.
 */
import type { S3 } from './client';
import { parseS3Url, type ReadLinks } from './links';

export interface S3TrackAudio {
  /** A GET link that makes the browser save the audio as `filename`; audio not stored by us passes through. */
  downloadLink(stored: string, filename: string): Promise<string>;
  /** Deletes the stored audio; anything outside the tracks bucket is left alone. */
  remove(stored: string): Promise<void>;
}

export function s3TrackAudio(s3: S3, links: ReadLinks, tracksBucket: string): S3TrackAudio {
  const ours = (stored: string) => {
    const location = parseS3Url(stored);
    return location?.bucket === tracksBucket ? location : undefined;
  };
  return {
    async downloadLink(stored, filename) {
      const location = ours(stored);
      return location ? links.read(location, { downloadAs: filename }) : stored;
    },
    async remove(stored) {
      const location = ours(stored);
      if (!location) return;
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: location.bucket, Key: location.key }));
    },
  };
}
