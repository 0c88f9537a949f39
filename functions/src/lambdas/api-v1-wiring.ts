import type { GroupHandlers } from '../http/group-handler';

/** The handlers of the `api-v1` routes, bound by the API's calls (decision 052); a route not here answers 501. */
export function v1Handlers(): GroupHandlers {
  return {};
}
