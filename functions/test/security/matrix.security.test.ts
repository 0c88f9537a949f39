import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { apiScopes } from '@tunesmith/shared/developer-api';
import { type RouteDef, routes } from '@tunesmith/shared/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../../src/adapters/dynamo/generation-store';
import { dynamoLyricsStore } from '../../src/adapters/dynamo/lyrics-store';
import { createAdmin } from '../../src/domain/accounts/admin';
import type { Generation } from '../../src/domain/tracks/track';
import { adminSignIn, signedInUser } from '../support/accounts';
import { direct } from '../support/direct';
import { type ApiResponse, apiUrl, Browser } from '../support/http';

// Who may call what, for every route of the manifest (a route added tomorrow
// is in these tables the day it is added): visitors, a user on another user's
// things, a user on admin calls, an admin on user calls; and inputs no route
// may answer with a 5xx.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const adminName = `sec-${Date.now().toString(36)}`;
const adminPassword = 'admin-pass-sec-1';

let alice: Browser;
let bob: { browser: Browser; id: string };
let admin: Browser;
let bobsTrack: Generation;

/** One entry per method and path (the manifest may name a path twice). */
const calls = [...new Map(routes.map((route) => [`${route.method} ${route.path}`, route])).values()];
/** A body each call would accept, so refusals come from who is asking, not from the input. */
const validBodies: Partial<Record<string, unknown>> = {
  updateGeneration: { title: 'Taken', visibility: 'public' },
  recordPlay: { listenedSeconds: 0 },
};
/** Alice's API key for each key route, one per route so that no route's calls use up another's rate (decision 052). */
const routeKeys = new Map<string, string>();
async function aliceKeyFor(route: RouteDef): Promise<string> {
  let key = routeKeys.get(route.id);
  if (!key) {
    const made = await alice.post('/api/user/api-keys', { name: route.id, scopes: [...apiScopes] });
    expect(made.status, `a key for ${route.id}`).toBe(201);
    key = String(made.body.key);
    routeKeys.set(route.id, key);
  }
  return key;
}
/** Headers of a call: on key routes, Alice calls with her key (her session is not read there). */
const headersOf = async (browser: Browser, route: RouteDef): Promise<Record<string, string>> =>
  route.auth === 'key' && browser === alice ? { authorization: `Bearer ${await aliceKeyFor(route)}` } : {};
const call = async (browser: Browser, route: RouteDef, path = route.path) =>
  browser.call(
    route.method,
    path,
    route.method === 'GET' || route.method === 'HEAD' ? undefined : (validBodies[route.id] ?? {}),
    await headersOf(browser, route),
  );
/** Who calls a route in the input checks: the admin, Alice (with her key on key routes), or a visitor. */
const actorOf = (route: RouteDef) =>
  route.auth === 'admin' ? admin : route.auth === 'user' || route.auth === 'key' ? alice : new Browser();

/** The route's path with real ids: Bob's track, Bob himself, a seeded plan. */
function realPath(route: RouteDef): string {
  return route.path
    .replace('{trackId}', bobsTrack.id)
    .replace('{token}', randomUUID())
    .replace('{id}', () => {
      if (route.path.includes('/regular-users/')) return bob.id;
      if (route.path.includes('/plans/')) return 'basic';
      return bobsTrack.id;
    });
}

const noServerError = (res: ApiResponse, what: string) =>
  expect(res.status, `${what} answered ${res.status}: ${JSON.stringify(res.body)}`).toBeLessThan(500);

beforeAll(async () => {
  alice = (await signedInUser()).browser;
  bob = await signedInUser();
  const now = new Date().toISOString();
  bobsTrack = {
    id: `sec-${randomUUID()}`,
    userId: bob.id,
    type: 'text-to-music',
    title: "Bob's song",
    tags: 'folk',
    lyrics: '[verse]\nBob sings',
    duration: 30,
    status: 'completed',
    visibility: 'private',
    showInGallery: true,
    inputAudioUrl: null,
    // Finished with audio, so only who asks decides whether its audio is answered.
    audioUrl: 's3://tunesmith-tracks/tracks/sec-track.wav',
    seed: 1,
    falRequestId: null,
    createdAt: now,
    updatedAt: now,
  };
  await generations.create(bobsTrack);
  // Timed lyrics too, so only who asks decides whether they are answered.
  await dynamoLyricsStore(store.documents, store.tableName).put(bobsTrack.id, {
    source: 'aligned',
    lines: [{ start: 1, end: 2, text: 'Bob sings', words: [{ start: 1, end: 2, text: 'Bob' }] }],
  });
  await createAdmin(
    { admins: store.admins, identity: store.adminIdentity, clock: { now: () => new Date() } },
    { username: adminName, password: adminPassword },
  );
  admin = new Browser();
  expect((await adminSignIn(admin, adminName, adminPassword)).status).toBe(200);
});
afterAll(() => store.close());

describe('the route × actor matrix', () => {
  it('refuses visitors on every user, admin and API key call with 401', async () => {
    for (const route of calls.filter((r) => r.auth === 'user' || r.auth === 'admin' || r.auth === 'key')) {
      const res = await call(new Browser(), route, realPath(route));
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it('refuses a user on every admin call, and an admin on every user call', async () => {
    for (const route of calls.filter((r) => r.auth === 'admin')) {
      expect((await call(alice, route, realPath(route))).status, `${route.method} ${route.path}`).toBe(401);
    }
    for (const route of calls.filter((r) => r.auth === 'user')) {
      expect((await call(admin, route, realPath(route))).status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it("keeps a user off another user's tracks: nothing read, nothing changed", async () => {
    for (const route of calls.filter((r) => r.auth === 'user' && r.path.includes('{id}'))) {
      const res = await call(alice, route, realPath(route));
      expect([403, 404], `${route.method} ${route.path} answered ${res.status}`).toContain(res.status);
    }
    const after = await generations.get(bobsTrack.id);
    expect(after).toMatchObject({ visibility: 'private', title: "Bob's song", status: 'completed' });
    expect((await bob.browser.get(`/api/generation/${bobsTrack.id}/status`)).status).toBe(200);
  });

  it("tells visitors and other users nothing of a private track on the track's public calls, its audio among them", async () => {
    const trackCalls = calls.filter((r) => r.auth === 'public' && r.path.startsWith('/api/track/{id}'));
    expect(trackCalls.map((r) => r.id)).toContain('getTrackAudio');
    for (const route of trackCalls) {
      for (const actor of [new Browser(), alice, admin]) {
        const res = await call(actor, route, realPath(route));
        expect(res.status, `${route.method} ${route.path}`).toBe(404);
        expect(res.headers.get('location'), `${route.method} ${route.path}`).toBeNull();
      }
      // Its owner is answered: the refusals above come from who asks.
      expect((await call(bob.browser, route, realPath(route))).status, route.path).toBeLessThan(400);
    }
  });

  it('answers visitors on public calls and refuses unsigned webhooks, never with a 5xx', async () => {
    for (const route of calls.filter((r) => r.auth === 'public' || r.auth === 'webhook')) {
      const res = await call(new Browser(), route, realPath(route));
      noServerError(res, `${route.method} ${route.path}`);
      if (route.auth === 'webhook') expect([400, 401], route.path).toContain(res.status);
    }
  });
});

describe('inputs no call answers with a 5xx', () => {
  const odd = ['a'.repeat(2100), '%00', '..%2F..%2Fetc', '%E2%82%AC', "'%20OR%201=1", '%7B%7D'];

  it('bounds and checks every path parameter before any store sees it', async () => {
    for (const route of calls.filter((r) => r.path.includes('{'))) {
      const actor = actorOf(route);
      for (const value of odd) {
        const path = route.path.replace(/\{[^}]+\}/g, value);
        const res = await call(actor, route, path);
        noServerError(res, `${route.method} ${route.path} with ${value.slice(0, 12)}`);
        expect(res.status, `${route.method} ${route.path} with ${value.slice(0, 12)}`).toBe(404);
      }
    }
  });

  it('treats unreadable session cookies as no session, and clears them', async () => {
    for (const cookie of ['ts_session', 'ts_admin_session', 'ts_refresh', 'ts_admin_refresh']) {
      for (const route of calls) {
        const browser = new Browser();
        browser.cookies.set(cookie, '%E0%A4%A');
        const res = await call(browser, route, realPath(route));
        noServerError(res, `${route.method} ${route.path} with ${cookie}`);
      }
      const browser = new Browser();
      browser.cookies.set(cookie, '%E0%A4%A');
      const path = cookie.includes('admin') ? '/api/admin/user' : '/api/auth/user';
      const res = await browser.get(path);
      expect(res.status).toBe(401);
      expect(browser.cookies.has(cookie), `${cookie} cleared`).toBe(false);
    }
  });

  it('refuses oversized bodies with 413 and huge fields with a 4xx', async () => {
    // An 11 MB body is refused from its declared length, before it is read.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${apiUrl}/api/auth/login`, {
        method: 'POST',
        headers: { origin: apiUrl, 'content-type': 'application/json', 'content-length': 11 * 1024 * 1024 },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
    // Creating and changing calls only, on ids that name nothing (no delete, no real user touched).
    for (const route of calls.filter(
      (r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.auth !== 'webhook',
    )) {
      const actor = actorOf(route);
      const path = route.path.replace(/\{[^}]+\}/g, randomUUID());
      const body = Object.fromEntries(
        ['email', 'password', 'title', 'tags', 'lyrics', 'prompt', 'planId', 'name', 'key', 'value'].map(
          (k) => [k, 'y'.repeat(200_000)],
        ),
      );
      const answer = await actor.call(route.method, path, body, await headersOf(actor, route));
      noServerError(answer, `${route.method} ${route.path} with huge fields`);
    }
    // Bob's track came through all of it.
    expect(await generations.get(bobsTrack.id)).toMatchObject({ title: "Bob's song", visibility: 'private' });
  });
});
