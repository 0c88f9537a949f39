/**
 * Share documents in the site bucket (decision 024): `share/track/{id}.html`
 * beside the SPA, revalidated on every request as index.html is. On AWS the
 * edge learns which tracks have one from a key per track ({@link ShareKeys});
 * the local cloud looks for the document itself.
 */
import { readFile } from 'node:fs/promises';
import { SHARE_TEMPLATE_KEY, type SharePages, sharePageKey } from '../../domain/tracks/share-page';
import type { S3 } from '../s3/client';
import type { ShareKeys } from './share-keys';

/** The shell's caching, as the deployment gives index.html. */
export const SHARE_PAGE_CACHE_CONTROL = 'public, no-cache';

/**
 * {@link SharePages} on `bucket`. Publishing writes the document before its
 * key, so the edge never sends a visitor to a document that is not there;
 * removal deletes the key first, so the edge stops serving the document
 * before it goes. A failed step throws, and the caller's change fails.
 */
export function s3SharePages(s3: S3, bucket: string, keys?: ShareKeys): SharePages {
  return {
    async publish(id, html) {
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: sharePageKey(id),
          Body: html,
          ContentType: 'text/html; charset=utf-8',
          CacheControl: SHARE_PAGE_CACHE_CONTROL,
        }),
      );
      await keys?.put(id);
    },
    async remove(id) {
      await keys?.delete(id);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: sharePageKey(id) }));
    },
  };
}

/** Whether S3 answered that an object is not there (a 403 too: without `s3:ListBucket` a missing key is refused). */
export function missing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404 || e.$metadata?.httpStatusCode === 403;
}

/**
 * The deployed template in the site bucket, read when documents are written:
 * the track frame template (`pages/track.html`, decision 026), else the shell
 * (`index.html`) for a site deployed before it. A shell that cannot be read
 * either throws.
 */
export function s3ShareTemplate(
  s3: S3,
  bucket: string,
  keys: readonly string[] = [SHARE_TEMPLATE_KEY, 'index.html'],
): () => Promise<string> {
  return async () => {
    const { sdk, client } = await s3();
    for (const [index, key] of keys.entries()) {
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!object.Body) throw new Error(`s3://${bucket}/${key} has no body`);
        return await object.Body.transformToString('utf8');
      } catch (error) {
        if (index === keys.length - 1 || !missing(error)) throw error;
      }
    }
    throw new Error(`No share page template in s3://${bucket}`);
  };
}

/**
 * The template from the first file of `candidates` that exists (the local
 * cloud: the built `web/dist/pages/track.html`, else `web/dist/index.html`,
 * else the source `web/index.html`).
 */
export function fileShareTemplate(...candidates: string[]): () => Promise<string> {
  return async () => {
    for (const file of candidates) {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text !== undefined) return text;
    }
    throw new Error(`No share page template at ${candidates.join(' or ')}`);
  };
}
