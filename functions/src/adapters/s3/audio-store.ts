/**
 * The workflow's AudioStore on S3: downloads the provider's (expiring) result and
 * puts it into the tracks bucket, beside the compressed copy made from it.
 */
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { AudioStore } from '../../workflow/steps';
import { s3Url } from './links';

export interface S3AudioStoreOptions {
  /** The URL stored on the track for a key (default `s3://bucket/key`; the API presigns reads). */
  urlFor?: (key: string) => string;
  fetch?: typeof fetch;
}

export function s3AudioStore(
  client: S3Client,
  bucket: string,
  options: S3AudioStoreOptions = {},
): AudioStore {
  const doFetch = options.fetch ?? fetch;
  const urlFor = options.urlFor ?? ((key: string) => s3Url({ bucket, key }));
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
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: response.headers.get('content-type') ?? 'audio/wav',
        }),
      );
      return { url: urlFor(key), bytes };
    },
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          // A key holds one track's copy for good: nothing needs to ask again.
          CacheControl: 'max-age=31536000, immutable',
        }),
      );
      return urlFor(key);
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
