import {
  type CreatorSharePages,
  creatorShareId,
  creatorShareKey,
} from '../../domain/community/creator-share';
import type { S3 } from '../s3/client';
import type { ShareKeys } from './share-keys';
import { SHARE_PAGE_CACHE_CONTROL } from './share-pages';

/**
 * Creator documents in the site bucket (`share/creator/{handle}.html`), marked for the edge by the key
 * `@{handle}` in the share pages' key value store, in the order track documents use (decision 024):
 * the document before its key, the key's removal before the document's.
 */
export function s3CreatorSharePages(s3: S3, bucket: string, keys?: ShareKeys): CreatorSharePages {
  return {
    async publish(handle, html) {
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: creatorShareKey(handle),
          Body: html,
          ContentType: 'text/html; charset=utf-8',
          CacheControl: SHARE_PAGE_CACHE_CONTROL,
        }),
      );
      await keys?.put(creatorShareId(handle));
    },
    async remove(handle) {
      await keys?.delete(creatorShareId(handle));
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: creatorShareKey(handle) }));
    },
  };
}
