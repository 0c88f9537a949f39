import { delimiter } from 'node:path';
import { TRACK_FRAME_TEMPLATE } from '@tunesmith/shared/pages';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorNames } from '../adapters/dynamo/creator-names';
import { dynamoPlaylistStore, dynamoPlaylistTracks } from '../adapters/dynamo/playlist-store';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { s3 } from '../adapters/s3/client';
import { s3PlaylistSharePages } from '../adapters/share/playlist-share-pages';
import { keyValueStoreShareKeys, sdkKeyValueStore } from '../adapters/share/share-keys';
import { fileShareTemplate, s3ShareTemplate } from '../adapters/share/share-pages';
import {
  type PlaylistShareDeps,
  refreshPlaylistSharePagesOf,
  removeUserPlaylists,
} from '../domain/community/playlist-share-page';
import type { PlaylistReadDeps, PlaylistStore } from '../domain/community/playlists';
import { siteNameSource } from '../domain/settings/site';
import { log } from '../http/logger';
import { publicOrigin } from './site-origin';

/** Reading playlists from the table. */
export function playlistReads(): PlaylistReadDeps {
  const { client, tableName } = dynamo();
  return {
    playlists: dynamoPlaylistStore(client, tableName),
    tracks: dynamoPlaylistTracks(client, tableName),
    creators: dynamoCreatorNames(client, tableName),
  };
}

/**
 * Playlists' share documents (decision 058) from `env`: written to `SITE_BUCKET`, marked for the
 * edge in `SHARE_KVS_ARN` (AWS only), from the shell `index.html` in the site bucket or, locally,
 * the first shell among the files `SHARE_TEMPLATE_FILE` names (the track frame is the tracks' alone).
 */
export function playlistSharingFromEnv(env: NodeJS.ProcessEnv, origin: string): PlaylistShareDeps {
  const { client, tableName } = dynamo();
  const bucket = env.SITE_BUCKET;
  if (!bucket) throw new Error('Missing environment variable SITE_BUCKET');
  const kvsArn = env.SHARE_KVS_ARN;
  const shells = (env.SHARE_TEMPLATE_FILE?.split(delimiter) ?? []).filter(
    (file) => file && !file.endsWith(TRACK_FRAME_TEMPLATE),
  );
  return {
    playlist: playlistReads(),
    pages: s3PlaylistSharePages(
      s3(),
      bucket,
      kvsArn ? keyValueStoreShareKeys(sdkKeyValueStore(kvsArn)) : undefined,
    ),
    template: shells.length ? fileShareTemplate(...shells) : s3ShareTemplate(s3(), bucket, ['index.html']),
    site: {
      origin: origin.replace(/\/+$/, ''),
      name: siteNameSource(dynamoSettingsRepository(client, tableName), env.SITE_NAME || 'Tunesmith', {
        onError: (error) => log.warn('site name unreadable; share pages use SITE_NAME', { error }),
      }),
    },
  };
}

let sharing: PlaylistShareDeps | undefined;
/** Built on the first change, so reads never need the site bucket. */
export function playlistSharing(): PlaylistShareDeps {
  sharing ??= playlistSharingFromEnv(process.env, publicOrigin());
  return sharing;
}

/** Account deletion's playlists step: each one's share document, then the playlists and their count. */
export function playlistRemoval(): Pick<PlaylistStore, 'removeAll'> {
  return {
    removeAll: (userId) =>
      removeUserPlaylists({ playlists: playlistReads().playlists, pages: playlistSharing().pages }, userId),
  };
}

/** A user's playlists' documents, rewritten once the name they show changes (decision 059). */
export const ownerPlaylistPreviews = (userId: string): Promise<void> =>
  refreshPlaylistSharePagesOf(playlistSharing(), userId);
