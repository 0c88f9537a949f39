import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorStore } from '../adapters/dynamo/creator-store';
import { s3 } from '../adapters/s3/client';
import { documentsIn } from '../adapters/share/share-document-list';
import { CREATOR_SHARE_AREA, rewriteAllCreatorPages } from '../domain/community/creator-share';
import { PLAYLIST_SHARE_AREA, rewriteAllPlaylistSharePages } from '../domain/community/playlist-share-page';
import { creatorShareFromEnv } from './creator-share-wiring';
import { playlistSharing } from './playlist-share-wiring';

/**
 * The `share-pages` job's community part: the site bucket's playlist and creator documents, each
 * written again from the deployed shell or removed when no longer public.
 */
export async function rewriteCommunityDocuments(): Promise<{
  playlists: { written: number; removed: number };
  creators: { written: number; removed: number };
}> {
  const { client, tableName } = dynamo();
  const bucket = process.env.SITE_BUCKET;
  if (!bucket) throw new Error('Missing environment variable SITE_BUCKET');
  const playlists = await rewriteAllPlaylistSharePages(playlistSharing(), () =>
    documentsIn(s3(), bucket, PLAYLIST_SHARE_AREA),
  );
  const share = creatorShareFromEnv();
  const creators = share
    ? await rewriteAllCreatorPages(share, dynamoCreatorStore(client, tableName), () =>
        documentsIn(s3(), bucket, CREATOR_SHARE_AREA),
      )
    : { written: 0, removed: 0 };
  return { playlists, creators };
}
