import { playlistShareKey, playlistSharePageKey } from '../../domain/community/playlist-share-page';
import type { SharePages } from '../../domain/tracks/share-page';
import type { S3 } from '../s3/client';
import type { ShareKeys } from './share-keys';
import { SHARE_PAGE_CACHE_CONTROL } from './share-pages';

/**
 * Playlists' share documents in the site bucket (decision 058), `share/playlist/{id}.html`, as the
 * tracks' are (decision 024): the document is written before the edge's key (`playlist/{id}`), and
 * the key deleted before the document.
 */
export function s3PlaylistSharePages(s3: S3, bucket: string, keys?: ShareKeys): SharePages {
  return {
    async publish(id, html) {
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: playlistSharePageKey(id),
          Body: html,
          ContentType: 'text/html; charset=utf-8',
          CacheControl: SHARE_PAGE_CACHE_CONTROL,
        }),
      );
      await keys?.put(playlistShareKey(id));
    },
    async remove(id) {
      await keys?.delete(playlistShareKey(id));
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: playlistSharePageKey(id) }));
    },
  };
}
