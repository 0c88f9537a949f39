import { fileURLToPath } from 'node:url';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { s3Of } from '../../src/adapters/s3/client';
import { fileShareTemplate, s3SharePages } from '../../src/adapters/share/share-pages';
import type { SharePageDeps } from '../../src/domain/tracks/share-page';
import { clientConfig, cloudEnv } from './run';

/**
 * A real, playable WAV: 16-bit mono PCM at 8 kHz, a short tone, optionally
 * padded with silence to `totalBytes`.
 */
export function wavBytes(options: { seconds?: number; totalBytes?: number } = {}): Uint8Array<ArrayBuffer> {
  const rate = 8000;
  const samples = Math.round(rate * (options.seconds ?? 0.1));
  const dataBytes = Math.max(samples * 2, (options.totalBytes ?? 0) - 44);
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write('RIFF', 0, 'latin1');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'latin1');
  buffer.write('fmt ', 12, 'latin1');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'latin1');
  buffer.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples; i++) {
    buffer.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  }
  return new Uint8Array(buffer);
}

/** Bucket and key of a stored `s3://bucket/key` URL. */
function storedLocation(stored: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(stored);
  if (!match) throw new Error(`Not a stored URL: ${stored}`);
  return { bucket: match[1] as string, key: match[2] as string };
}

/** The buckets behind the API (s3rver locally, the stage's by their output names), for arranging stored audio and checking what was removed. */
export function storage() {
  const env = cloudEnv;
  const client = new S3Client({ ...clientConfig('s3'), requestChecksumCalculation: 'WHEN_REQUIRED' });
  const tracksBucket = env.TRACKS_BUCKET ?? '';
  const uploadsBucket = env.UPLOADS_BUCKET ?? '';
  const siteBucket = env.SITE_BUCKET ?? '';
  return {
    client,
    tracksBucket,
    uploadsBucket,
    siteBucket,
    /** Share documents in the site bucket (decision 024), as the functions write them locally, for deps built by hand. */
    sharePages(generations: SharePageDeps['generations']): SharePageDeps {
      return {
        generations,
        pages: s3SharePages(s3Of(client), siteBucket),
        template: fileShareTemplate(
          fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url)),
          fileURLToPath(new URL('../../../web/index.html', import.meta.url)),
        ),
        site: { origin: 'https://tunesmith.test', name: async () => 'Tunesmith' },
      };
    },
    /** Stores a finished track's audio where the workflow puts it; returns the stored `s3://` URL. */
    async putTrackAudio(_userId: string, id: string, body: Uint8Array = wavBytes()): Promise<string> {
      const key = `tracks/${id}.wav`;
      await client.send(
        new PutObjectCommand({ Bucket: tracksBucket, Key: key, Body: body, ContentType: 'audio/wav' }),
      );
      return `s3://${tracksBucket}/${key}`;
    },
    async putUpload(key: string, body: Uint8Array = wavBytes()): Promise<void> {
      await client.send(new PutObjectCommand({ Bucket: uploadsBucket, Key: key, Body: body }));
    },
    /** Whether the object exists (HeadObject). */
    async exists(bucket: string, key: string): Promise<boolean> {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
          return false;
        }
        throw error;
      }
    },
    /**
     * The version ids S3 keeps of the object, delete markers included
     * (ListObjectVersions). On a stage the tracks bucket keeps versions, so
     * what a plain delete leaves behind is seen here; locally s3rver keeps
     * none, and the S3 proxy lists each object once as version `null`.
     */
    async versions(bucket: string, key: string): Promise<string[]> {
      const listed = await client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
      return [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])]
        .filter((v) => v.Key === key)
        .map((v) => String(v.VersionId));
    },
    /** `versions` of a stored `s3://bucket/key` URL. */
    async storedVersions(stored: string): Promise<string[]> {
      const { bucket, key } = storedLocation(stored);
      return this.versions(bucket, key);
    },
    /** `exists` for a stored `s3://bucket/key` URL. */
    async storedExists(stored: string): Promise<boolean> {
      const { bucket, key } = storedLocation(stored);
      return this.exists(bucket, key);
    },
    /** The bytes of a stored `s3://bucket/key` URL. */
    async storedBytes(stored: string): Promise<Uint8Array> {
      const { bucket, key } = storedLocation(stored);
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return (await object.Body?.transformToByteArray()) ?? new Uint8Array();
    },
    async remove(bucket: string, key: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    close() {
      client.destroy();
    },
  };
}
