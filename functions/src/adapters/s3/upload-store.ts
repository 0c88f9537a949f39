/**
 * The uploads port on S3: what the server checks after a browser PUT a file
 * straight into the uploads bucket with a presigned link. A taken-in file's
 * SHA-256 is kept in its user metadata (`x-amz-meta-sha256`), which only the
 * server writes: browsers put files under `incoming/` only.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UploadStore } from '../../domain/uploads/uploads';
import type { S3 } from './client';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** True when S3 says the object (or bucket) is not there. */
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || status === 404;
}

export function s3UploadStore(s3: S3, bucket: string): UploadStore {
  return {
    async head(key) {
      const { sdk, client } = await s3();
      try {
        const answer = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
        const sha256 = answer.Metadata?.sha256;
        return {
          size: answer.ContentLength ?? 0,
          ...(answer.ContentType ? { contentType: answer.ContentType } : {}),
          ...(sha256 && SHA256_HEX.test(sha256) ? { sha256 } : {}),
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async readStart(key, bytes) {
      if (bytes <= 0) return new Uint8Array();
      const { sdk, client } = await s3();
      const answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${bytes - 1}` }),
      );
      if (!answer.Body) return new Uint8Array();
      const body = await answer.Body.transformToByteArray();
      // A store that ignores Range sends the whole object: keep only what was asked.
      return body.length > bytes ? body.subarray(0, bytes) : body;
    },
    async delete(key) {
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async move(from, to) {
      const { sdk, client } = await s3();
      // Keys are plain (id and extension) but the copy source is a URL path, so encode it anyway.
      const source = `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
      await client.send(new sdk.CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: source }));
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: from }));
    },
    async sha256(key) {
      const { sdk, client } = await s3();
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
      const hash = createHash('sha256');
      // Chunk by chunk as the body arrives: a 50 MB upload is never held whole.
      if (answer.Body) for await (const chunk of answer.Body as Readable) hash.update(chunk as Uint8Array);
      return hash.digest('hex');
    },
    async recordSha256(key, sha256) {
      const { sdk, client } = await s3();
      // S3 changes metadata only by copying an object onto itself; the copy keeps its type and other metadata.
      const current = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
      const source = `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
      await client.send(
        new sdk.CopyObjectCommand({
          Bucket: bucket,
          Key: key,
          CopySource: source,
          MetadataDirective: 'REPLACE',
          Metadata: { ...current.Metadata, sha256 },
          ...(current.ContentType ? { ContentType: current.ContentType } : {}),
        }),
      );
    },
  };
}

/**
 * The key an upload link (or the same URL without its query, as upload widgets
 * report it) points at in `bucket`, or undefined when it names another bucket
 * or no object. Both addressing styles: path-style (`host/bucket/key`, s3rver
 * and S3 path-style endpoints) and virtual-hosted (`bucket.s3.region.amazonaws.com/key`).
 */
export function uploadKeyFromUrl(url: string, bucket: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  let segments: string[];
  try {
    segments = parsed.pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase();
  const virtualHosted = host.startsWith(`${bucket}.s3.`) || host.startsWith(`${bucket}.s3-`);
  if (!virtualHosted) {
    if (segments[0] !== bucket) return undefined;
    segments = segments.slice(1);
  }
  const key = segments.join('/');
  return key === '' ? undefined : key;
}
