import type { GroupHandlers } from '../http/group-handler';

/** The `community` group's handlers for public profiles, creators, following and the feed (decision 056). */
export function creatorHandlers(): GroupHandlers {
  return {};
}
