import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The front door of the local cloud's one-origin server: what it does for
 * every request before the app sees it, from the moment it listens.
 *
 * - Every answer carries `X-Content-Type-Options: nosniff`, as CloudFront's
 *   response headers policy adds it to every answer on AWS (infra/lib/web.ts).
 * - The Host must be the server's own (`127.0.0.1`, `localhost` or `[::1]`
 *   with its port): a page whose name was rebound to 127.0.0.1 (DNS
 *   rebinding) reaches nothing.
 * - `/_dev/*` (the mailbox, the Stripe test clock) refuses cross-site
 *   requests: a page open in the developer's browser cannot read mail or move
 *   the billing clock. Tools (no Origin) and the address bar still work.
 * - Until the cloud is ready, requests are answered 503 with Retry-After,
 *   never left waiting.
 */

/** The app's own routes, once the cloud is ready. */
export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface FrontDoor {
  /** The server's request listener: give it to `http.createServer`, before the server listens. */
  listener: Route;
  /** Sends requests that pass the checks to `route` from now on; until then they are answered 503. */
  open(route: Route): void;
}

/** The local paths that are tools for the developer, never part of the product. */
export function isDevPath(url: string): boolean {
  // Every request asks; most are not near it.
  if (!url.startsWith('/_dev')) return false;
  const path = url.split('?', 1)[0] ?? '';
  return path === '/_dev' || path.startsWith('/_dev/');
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a Host header (or an origin's host) names this server: a loopback name with its port. */
export function isOwnHost(host: string | undefined, port: number): boolean {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host?.trim() ?? '');
  if (!match) return false;
  const name = (match[1] as string).toLowerCase();
  // A browser leaves out the scheme's default port.
  const named = match[2] === undefined ? 80 : Number(match[2]);
  return LOOPBACK_NAMES.has(name) && named === port;
}

/** Whether an Origin header is the app's own origin (under any of its loopback names). */
export function isOwnOrigin(origin: string, port: number): boolean {
  const match = /^http:\/\/([^/]+)$/i.exec(origin.trim());
  return match !== null && isOwnHost(match[1], port);
}

/**
 * Whether a request comes from another site: an Origin that is not the app's
 * own (`null` included), or a browser's `Sec-Fetch-Site` saying `cross-site`
 * or `same-site` (another port of the same host: another origin). Requests
 * without either (curl, the test suites) and the address bar's
 * `Sec-Fetch-Site: none` are not.
 */
export function isCrossSite(headers: IncomingHttpHeaders, port: number): boolean {
  const origin = headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, port)) return true;
  const site = headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

export const frontDoorMessages = {
  foreignHost: (port: number) =>
    `This local server answers only at its own address: http://127.0.0.1:${port} or http://localhost:${port}.`,
  crossSite: "The local cloud's /_dev pages answer only to the app itself, not to requests from other sites.",
  starting: 'Tunesmith is starting; try again in a moment.',
};

/** Seconds a client is asked to wait before trying again while the cloud starts. */
const RETRY_AFTER_SECONDS = 1;

function answerJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

const STARTING_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<title>Tunesmith is starting</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 640px; padding: 48px 24px; color: #1f2328; }</style>
</head>
<body>
<main>
<h1>Tunesmith is starting…</h1>
<p role="status">The local cloud is still starting. This page reloads by itself until the app is ready.</p>
</main>
</body>
</html>
`;

/** The answer while the cloud starts: a page that reloads itself for a browser's navigation, JSON otherwise. */
function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const target = req.url ?? '/';
  const wait = { 'retry-after': String(RETRY_AFTER_SECONDS) };
  const page =
    !target.startsWith('/api') && !isDevPath(target) && (req.headers.accept ?? '').includes('text/html');
  if (!page) {
    answerJson(req, res, 503, frontDoorMessages.starting, wait);
    return;
  }
  res.writeHead(503, {
    ...wait,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(STARTING_PAGE)),
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  });
  res.end(req.method === 'HEAD' ? undefined : STARTING_PAGE);
}

/**
 * The front door for a server listening on `port()` (asked per request: a
 * server on port 0 learns its port when it listens).
 */
export function createFrontDoor(options: { port: () => number }): FrontDoor {
  let route: Route | undefined;
  return {
    listener(req, res) {
      // Set first, so that every answer below, and every one the app writes, carries it.
      res.setHeader('x-content-type-options', 'nosniff');
      const port = options.port();
      if (!isOwnHost(req.headers.host, port)) {
        answerJson(req, res, 403, frontDoorMessages.foreignHost(port));
      } else if (isDevPath(req.url ?? '/') && isCrossSite(req.headers, port)) {
        answerJson(req, res, 403, frontDoorMessages.crossSite);
      } else if (!route) {
        answerStarting(req, res);
      } else {
        route(req, res);
      }
    },
    open(next) {
      route = next;
    },
  };
}

const clientErrors: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * Writes a whole answer straight to a connection the HTTP server has handed
 * over (a request it could not parse, an upgrade nobody takes), with the
 * headers every answer carries, and closes it.
 */
export function answerOnSocket(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    [
      `HTTP/1.1 ${status} ${reason}`,
      'content-type: application/json; charset=utf-8',
      'cache-control: no-store',
      'x-content-type-options: nosniff',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
    () => socket.destroy(),
  );
}

/**
 * The server's `clientError` listener: the answer Node gives a request it
 * cannot parse (400, or 431, 413, 408), with the same header every other
 * answer carries and a JSON message. As Node does, it answers only when no
 * answer on that connection has started, and closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own check: the response in flight on this connection, if any (http's `_httpMessage`).
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason] = clientErrors[error.code ?? ''] ?? [400, 'Bad Request'];
  answerOnSocket(socket, status, reason, reason);
}
