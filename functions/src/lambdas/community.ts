import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { creatorHandlers } from './creators-wiring';
import { likeHandlers } from './likes-wiring';
import { playlistHandlers } from './playlists-wiring';
import { remixHandlers } from './remixes-wiring';
import { reportHandlers } from './reports-wiring';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/**
 * Route group `community` (decision 056): likes and plays, playlists, public profiles, following and
 * the feed, remixes with credit, and reports.
 */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    built = createGroupHandler(
      'community',
      {
        ...likeHandlers(),
        ...playlistHandlers(),
        ...creatorHandlers(),
        ...remixHandlers(),
        ...reportHandlers(),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
