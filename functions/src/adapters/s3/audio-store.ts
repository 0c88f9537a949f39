/**
 * The workflow's AudioStore on S3: downloads the provider's (expiring) result and
 * puts it into the tracks bucket. Endpoint and path style come from the caller
 * (`S3_ENDPOINT`, `S3_FORCE_PATH_STYLE`) so s3rver works locally.
 */
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AudioStore } from '../../workflow/steps';

export interface S3AudioStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  /** The URL stored on the track for a key (default `s3://bucket/key`; the API presigns reads). */
  urlFor?: (key: string) => string;
  client?: S3Client;
  fetch?: typeof fetch;
}

export function s3AudioStore(options: S3AudioStoreOptions): AudioStore {
  const client =
    options.client ??
    new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.forcePathStyle ? { forcePathStyle: true } : {}),
    });
  const doFetch = options.fetch ?? fetch;
  const urlFor = options.urlFor ?? ((key: string) => `s3://${options.bucket}/${key}`);
  return {
    async copyFromUrl(url, key) {
      const response = await doFetch(url);
      if (!response.ok) {
        const error = new Error(`Fetching the result audio answered ${response.status}`);
        // 5xx and 429 are worth a retry (the ASL retries Storage.Unavailable).
        if (response.status >= 500 || response.status === 429) error.name = 'Storage.Unavailable';
        throw error;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          Body: bytes,
          ContentType: response.headers.get('content-type') ?? 'audio/wav',
        }),
      );
      return { url: urlFor(key), bytes };
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
  };
}
