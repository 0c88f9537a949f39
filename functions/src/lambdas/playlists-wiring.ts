import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlaylistStore, dynamoPlaylistTracks } from '../adapters/dynamo/playlist-store';
import { s3AudioLinker } from '../adapters/s3/links';
import { publicPlaylists } from '../domain/community/playlists';
import type { CreatorNames, PublicPlaylists } from '../domain/community/ports';
import type { GroupHandlers } from '../http/group-handler';
import { playlistRoutes } from '../http/routes/playlists';
import { audioLinks } from './audio-wiring';
import { viewerLookup } from './viewer-wiring';

/** Until public profiles are wired in, every owner and creator is anonymous. */
const anonymousCreators: CreatorNames = { names: async () => new Map() };

function playlistDeps() {
  const { client, tableName } = dynamo();
  return {
    playlists: dynamoPlaylistStore(client, tableName),
    tracks: dynamoPlaylistTracks(client, tableName),
    creators: anonymousCreators,
  };
}

/** A user's public playlists for their creator page (decision 058). */
export function playlistsOfCreators(): PublicPlaylists {
  return publicPlaylists(playlistDeps());
}

/** The `community` group's handlers for playlists (decision 058). */
export function playlistHandlers(): GroupHandlers {
  return playlistRoutes({
    ...playlistDeps(),
    clock: { now: () => new Date() },
    newId: randomUUID,
    audioLinks: s3AudioLinker(audioLinks()),
    viewer: viewerLookup(),
  });
}
