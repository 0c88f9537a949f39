import type { GroupHandlers } from '../http/group-handler';

/** The `community` group's handlers for remixes with credit (decision 056). */
export function remixHandlers(): GroupHandlers {
  return {};
}
