import { vi } from 'vitest';

export type MockResponse = Response | ((request: Request) => Response | Promise<Response>);

/** A JSON answer with a status. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Replaces `fetch` with answers keyed by `"METHOD /path"`. Unknown calls get a
 * 404 JSON answer. Returns the mock so tests can inspect the requests made.
 */
export function mockFetch(routes: Record<string, MockResponse>) {
  // A browser that answers who is signed in holds the signed-in hint (decision 023), so the app asks.
  // biome-ignore lint/suspicious/noDocumentCookie: happy-dom's cookie jar is what the app reads
  if ('GET /api/auth/user' in routes) document.cookie = 'ts_signed_in=1; Path=/';
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(
      new URL(String(input instanceof Request ? input.url : input), 'http://localhost'),
      init,
    );
    const { pathname } = new URL(request.url);
    const answer = routes[`${request.method} ${pathname}`];
    if (!answer) return jsonResponse({ message: 'Not found' }, 404);
    return typeof answer === 'function' ? answer(request) : answer.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * The calls a screen made, as `"METHOD /path"`, leaving out the session
 * lookup (`GET /api/auth/user`) that any screen knowing the user makes.
 */
export function callsMade(fetchMock: ReturnType<typeof mockFetch>): string[] {
  return fetchMock.mock.calls
    .map(([input, init]) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      return `${method.toUpperCase()} ${url.pathname}`;
    })
    .filter((call) => call !== 'GET /api/auth/user');
}

/** The auth answers for a visitor (401) and for a signed-in user. */
export const anonymous = () => jsonResponse({ message: 'Unauthorized' }, 401);

/**
 * An answer that waits until the test releases it, to observe pending states.
 * `respond` resolves every request that is waiting, and any that arrives
 * later, so a request the app makes after the test has released the answer
 * (a slow render under load) is not left hanging.
 */
export function deferredResponse(answer: () => Response) {
  const waiting: Array<(response: Response) => void> = [];
  let released = false;
  return {
    handler: () =>
      released ? Promise.resolve(answer()) : new Promise<Response>((resolve) => waiting.push(resolve)),
    respond: () => {
      released = true;
      for (const resolve of waiting.splice(0)) resolve(answer());
    },
  };
}
