import { createGroupHandler, type LambdaHandler, lazyRoutes } from '../http/group-handler';
import { likeHandlers } from './likes-wiring';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/**
 * Route group `community` (decision 056): likes and plays, playlists, public profiles, following and
 * the feed, remixes with credit, and reports. Likes and plays, the calls every player and track card
 * makes, come with the cold start; each other part brings its code with its first call (decision 042).
 */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    built = createGroupHandler(
      'community',
      {
        ...likeHandlers(),
        ...lazyRoutes(
          [
            'createPlaylist',
            'listMyPlaylists',
            'getPlaylist',
            'updatePlaylist',
            'deletePlaylist',
            'setPlaylistTracks',
          ],
          async () => (await import('./playlists-wiring')).playlistHandlers(),
        ),
        ...lazyRoutes(
          [
            'getMyPublicProfile',
            'setPublicProfile',
            'deletePublicProfile',
            'getCreator',
            'followCreator',
            'unfollowCreator',
            'getFeed',
          ],
          async () => (await import('./creators-wiring')).creatorHandlers(),
        ),
        ...lazyRoutes(['setRemixable', 'remixTrack', 'listRemixes'], async () =>
          (await import('./remixes-wiring')).remixHandlers(),
        ),
        ...lazyRoutes(['reportTrack', 'reportCreator'], async () =>
          (await import('./reports-wiring')).reportHandlers(),
        ),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
