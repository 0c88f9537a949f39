import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorNames } from '../adapters/dynamo/creator-names';
import { dynamoLikeStore, dynamoPlayStore, dynamoTrackReader } from '../adapters/dynamo/like-store';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import type { GroupHandlers } from '../http/group-handler';
import { likeRoutes } from '../http/routes/likes';
import { lazyAudioLinks } from './lazy-audio-links';
import { viewerLookup } from './viewer-wiring';

/** The `community` group's handlers for likes, plays and the Liked tracks (decision 057). */
export function likeHandlers(): GroupHandlers {
  const { client, tableName } = dynamo();
  return likeRoutes({
    tracks: dynamoTrackReader(client, tableName),
    likes: dynamoLikeStore(client, tableName),
    plays: dynamoPlayStore(client, tableName),
    creators: dynamoCreatorNames(client, tableName),
    audioLinks: lazyAudioLinks,
    viewer: viewerLookup(),
    clock: { now: () => new Date() },
    visitorPlays: dynamoRateLimiter(client, tableName),
  });
}
