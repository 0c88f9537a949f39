import type { GroupHandlers } from '../http/group-handler';

/** The `community` group's handlers for playlists (decision 056). */
export function playlistHandlers(): GroupHandlers {
  return {};
}
