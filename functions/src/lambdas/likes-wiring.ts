import type { GroupHandlers } from '../http/group-handler';

/** The `community` group's handlers for likes, plays and the Liked tracks (decision 056). */
export function likeHandlers(): GroupHandlers {
  return {};
}
