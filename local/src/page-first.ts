import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDevPath, type Route } from './front-door';

/**
 * Paths the page's handler never serves: the API, the developer pages, the
 * audio CDN's areas and the track pages. A route added to the cloud's full
 * routing for a path the page's handler would otherwise take belongs here too.
 */
export function needsTheCloud(target: string): boolean {
  return (
    target === '/api' ||
    target.startsWith('/api/') ||
    target.startsWith('/api?') ||
    isDevPath(target) ||
    target.startsWith('/tracks/') ||
    target.startsWith('/exports/') ||
    target.startsWith('/track/')
  );
}

/**
 * The routing while the rest of the local cloud starts: the page (the SPA's
 * files) from its handler at once, and every request that needs the
 * emulators held until they are provisioned, then handed to the full routing
 * (`open`). If the start fails, the server closes, and held requests with it.
 */
export function pageFirst(
  page: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  open: Promise<Route>,
  onError: (res: ServerResponse, error: unknown) => void,
): Route {
  let full: Route | undefined;
  open.then(
    (route) => {
      full = route;
    },
    () => {},
  );
  return (req, res) => {
    if (full) full(req, res);
    else if (needsTheCloud(req.url ?? '/'))
      open.then(
        (route) => route(req, res),
        () => {},
      );
    else page(req, res).catch((error: unknown) => onError(res, error));
  };
}
