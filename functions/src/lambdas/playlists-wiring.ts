import { randomUUID } from 'node:crypto';
import { publicPlaylists } from '../domain/community/playlists';
import type { PublicPlaylists } from '../domain/community/ports';
import type { GroupHandlers } from '../http/group-handler';
import { playlistRoutes } from '../http/routes/playlists';
import { lazyAudioLinks } from './lazy-audio-links';
import { playlistReads, playlistSharing } from './playlist-share-wiring';
import { viewerLookup } from './viewer-wiring';

/** A user's public playlists for their creator page (decision 058). */
export function playlistsOfCreators(): PublicPlaylists {
  return publicPlaylists(playlistReads());
}

/** The `community` group's handlers for playlists (decision 058). */
export function playlistHandlers(): GroupHandlers {
  return playlistRoutes({
    ...playlistReads(),
    clock: { now: () => new Date() },
    newId: randomUUID,
    audioLinks: lazyAudioLinks,
    viewer: viewerLookup(),
    sharing: playlistSharing,
  });
}
