import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorNames } from '../adapters/dynamo/creator-names';
import { dynamoCreatorStore, dynamoCreatorTracks } from '../adapters/dynamo/creator-store';
import { withPlayableAudio } from '../http/audio-links';
import type { GroupHandlers } from '../http/group-handler';
import { log } from '../http/logger';
import { creatorRoutes } from '../http/routes/creators';
import { creatorShareFromEnv } from './creator-share-wiring';
import { lazyAudioLinks } from './lazy-audio-links';
import { ownerPlaylistPreviews } from './playlist-share-wiring';
import { playlistsOfCreators } from './playlists-wiring';
import { viewerLookup } from './viewer-wiring';

/** The `community` group's handlers for public profiles, creators, following and the feed (decision 056). */
export function creatorHandlers(): GroupHandlers {
  const { client, tableName } = dynamo();
  const share = creatorShareFromEnv();
  return creatorRoutes({
    creators: dynamoCreatorStore(client, tableName),
    tracks: dynamoCreatorTracks(client, tableName),
    names: dynamoCreatorNames(client, tableName),
    playlists: playlistsOfCreators(),
    clock: { now: () => new Date() },
    playable: (track) => withPlayableAudio(track, lazyAudioLinks),
    ...(share ? { share, ownerPreviews: ownerPlaylistPreviews } : {}),
    onShareFailure: (error) => log.warn('creator page preview not written', { error }),
    viewer: viewerLookup(),
  });
}
