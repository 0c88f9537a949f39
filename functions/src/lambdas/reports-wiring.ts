import type { GroupHandlers } from '../http/group-handler';

/** The `community` group's handlers for reports of tracks and profiles (decision 056). */
export function reportHandlers(): GroupHandlers {
  return {};
}
