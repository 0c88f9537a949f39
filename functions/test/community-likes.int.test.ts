import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { generationMessages } from '@tunesmith/shared/generation-values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoLikeStore, dynamoPlayStore } from '../src/adapters/dynamo/like-store';
import { likeKeys } from '../src/data/community-keys';
import { keys } from '../src/data/keys';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { type ApiResponse, Browser } from './support/http';
import { storage } from './support/storage';
import { storedTrack } from './support/tracks';

// Likes, counted plays and the gallery's sorts through the HTTP API (decision 057), with the
// counters checked under parallel requests against the local cloud.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const files = storage();
const made: Generation[] = [];

type Signed = Awaited<ReturnType<typeof signedInUser>>;
let owner: Signed;
let listeners: Signed[];

beforeAll(async () => {
  const users = await Promise.all(Array.from({ length: 7 }, () => signedInUser()));
  owner = users[0] as Signed;
  listeners = users.slice(1);
}, 120_000);

afterAll(async () => {
  for (const g of made) await generations.delete(g.id, g.userId);
  store.close();
  files.close();
});

async function track(over: Partial<Generation> = {}): Promise<Generation> {
  const g = await storedTrack({ generations, files }, owner.id, over);
  made.push(g);
  return g;
}

const readTrack = async (id: string) =>
  (await store.documents.send(new GetCommand({ TableName: store.tableName, Key: keys.generation(id) }))).Item;

const like = (browser: Browser, id: string) => browser.put(`/api/track/${id}/like`, undefined);
const unlike = (browser: Browser, id: string) => browser.call('DELETE', `/api/track/${id}/like`);
/** A person's browser: Node's own HTTP client names itself, and a play from it is a bot's. */
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const play = (browser: Browser, id: string, body: unknown, headers?: Record<string, string>) =>
  browser.post(`/api/track/${id}/play`, body, { 'user-agent': FIREFOX, ...headers });
const listenerId = () => randomBytes(16).toString('base64url');
const ids = (res: ApiResponse) => (res.body.tracks as { id: string }[]).map((t) => t.id);

describe('PUT and DELETE /api/track/{id}/like', () => {
  it('likes and unlikes idempotently, and the track and the gallery say so', async () => {
    const g = await track();
    const alice = (listeners[0] as Signed).browser;

    expect([(await like(alice, g.id)).status, (await like(alice, g.id)).body]).toEqual([
      200,
      { liked: true, likes: 1 },
    ]);
    const page = await alice.get(`/api/track/${g.id}`);
    expect(page.body).toMatchObject({ likes: 1, plays: 0, likedByMe: true, creator: null });
    // Another signed-in viewer does not like it; a visitor is not told.
    expect((await (listeners[1] as Signed).browser.get(`/api/track/${g.id}`)).body.likedByMe).toBe(false);
    expect((await new Browser().get(`/api/track/${g.id}`)).body).not.toHaveProperty('likedByMe');

    expect((await unlike(alice, g.id)).body).toEqual({ liked: false, likes: 0 });
    expect((await unlike(alice, g.id)).body).toEqual({ liked: false, likes: 0 });
    expect((await readTrack(g.id))?.likes).toBe(0);
  });

  it("answers not found for another user's private track and a missing one, and writes nothing", async () => {
    const secret = await track({ visibility: 'private' });
    const alice = (listeners[0] as Signed).browser;
    for (const id of [secret.id, 'no-such-track']) {
      const res = await like(alice, id);
      expect([res.status, res.body.message]).toEqual([404, generationMessages.trackNotFound]);
    }
    const stored = await store.documents.send(
      new GetCommand({ TableName: store.tableName, Key: likeKeys.like(listeners[0]?.id ?? '', secret.id) }),
    );
    expect(stored.Item).toBeUndefined();
    expect((await readTrack(secret.id))?.likes).toBeUndefined();
    // A visitor cannot like at all.
    expect((await like(new Browser(), secret.id)).status).toBe(401);
  });

  it('keeps the count exact under parallel likes and unlikes from several users', async () => {
    const g = await track();
    const browsers = listeners.map((l) => l.browser);
    // Everyone likes at once, twice; then the first three unlike at once, twice, while the others like again.
    await Promise.all(browsers.flatMap((b) => [like(b, g.id), like(b, g.id)]));
    expect((await readTrack(g.id))?.likes).toBe(browsers.length);
    await Promise.all([
      ...browsers.slice(0, 3).flatMap((b) => [unlike(b, g.id), unlike(b, g.id)]),
      ...browsers.slice(3).map((b) => like(b, g.id)),
    ]);
    expect((await readTrack(g.id))?.likes).toBe(browsers.length - 3);
    expect((await (listeners[5] as Signed).browser.get(`/api/track/${g.id}`)).body.likes).toBe(
      browsers.length - 3,
    );
  });
});

describe('POST /api/track/{id}/play', () => {
  it('counts once per listener per day, past the threshold, never the owner nor a bot', async () => {
    const g = await track({ duration: 40 });
    const alice = (listeners[0] as Signed).browser;
    expect((await play(alice, g.id, { listenedSeconds: 19 })).body).toEqual({ counted: false, plays: 0 });
    expect((await play(alice, g.id, { listenedSeconds: 20 })).body).toEqual({ counted: true, plays: 1 });
    expect((await play(alice, g.id, { listenedSeconds: 40 })).body).toEqual({ counted: false, plays: 1 });
    expect((await play(owner.browser, g.id, { listenedSeconds: 40 })).body).toEqual({
      counted: false,
      plays: 1,
    });

    const visitor = new Browser();
    const id = listenerId();
    expect((await play(visitor, g.id, { listenedSeconds: 30, listenerId: id })).body).toEqual({
      counted: true,
      plays: 2,
    });
    expect((await play(visitor, g.id, { listenedSeconds: 30, listenerId: id })).body.counted).toBe(false);
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    expect((await play(visitor, g.id, { listenedSeconds: 30, listenerId: listenerId() }, bot)).body).toEqual({
      counted: false,
      plays: 2,
    });
    expect((await play(visitor, g.id, { listenedSeconds: 30, listenerId: 'short' })).status).toBe(400);
  });

  it('counts parallel plays of many visitors exactly, and refuses tracks the listener may not see', async () => {
    const g = await track();
    const visitors = Array.from({ length: 12 }, () => listenerId());
    const answers = await Promise.all(
      visitors.flatMap((id) =>
        [0, 1].map(() => play(new Browser(), g.id, { listenedSeconds: 30, listenerId: id })),
      ),
    );
    expect(answers.filter((a) => a.body.counted === true)).toHaveLength(visitors.length);
    expect((await readTrack(g.id))?.plays).toBe(visitors.length);

    const secret = await track({ visibility: 'private' });
    const res = await play(new Browser(), secret.id, { listenedSeconds: 30, listenerId: listenerId() });
    expect([res.status, res.body.message]).toEqual([404, generationMessages.trackNotFound]);
  });
});

describe('the gallery and the Liked list', () => {
  it('keeps its spec answer without sort or cursor, with likes and plays on each track', async () => {
    const g = await track();
    await like((listeners[0] as Signed).browser, g.id);
    const res = await (listeners[0] as Signed).browser.get('/api/public-tracks');
    expect(Array.isArray(res.body)).toBe(true);
    const listed = (res.body as unknown as { id: string }[]).find((t) => t.id === g.id);
    expect(listed).toMatchObject({ likes: 1, plays: 0, likedByMe: true, creator: null });
  });

  it('sorts by most played and by likes this week, leaves unlisted tracks out, and pages', async () => {
    const [a, b, c] = [await track(), await track(), await track()];
    const hidden = await track();
    const counts: [Generation, number][] = [
      [a, 1],
      [b, 3],
      [c, 2],
      [hidden, 5],
    ];
    await Promise.all(
      counts.flatMap(([g, n]) =>
        Array.from({ length: n }, () =>
          play(new Browser(), g.id, { listenedSeconds: 30, listenerId: listenerId() }),
        ),
      ),
    );
    for (const [g, n] of counts) {
      await Promise.all(listeners.slice(0, n).map((l) => like(l.browser, g.id)));
    }
    await generations.update(hidden.id, (g) => ({ ...g, visibility: 'private' }));

    for (const sort of ['most-played', 'top-week']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `sort=${sort}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await new Browser().get(`/api/public-tracks?${query}`);
        expect(res.status).toBe(200);
        expect((res.body.tracks as unknown[]).length).toBeLessThanOrEqual(2);
        seen.push(...ids(res));
        cursor = res.body.nextCursor as string | null;
        pages++;
      } while (cursor && pages < 200);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain(hidden.id);
      expect(seen.filter((id) => [a.id, b.id, c.id].includes(id))).toEqual([b.id, c.id, a.id]);
    }
  });

  it('pages the newest with a cursor and refuses a forged one', async () => {
    const older = await track({ createdAt: '2099-01-01T00:00:00.000Z' });
    const newer = await track({ createdAt: '2099-01-02T00:00:00.000Z' });
    const first = await new Browser().get('/api/public-tracks?sort=new&limit=1');
    expect(ids(first)).toEqual([newer.id]);
    const second = await new Browser().get(
      `/api/public-tracks?limit=1&cursor=${encodeURIComponent(String(first.body.nextCursor))}`,
    );
    expect(ids(second)).toEqual([older.id]);

    for (const forged of [
      'nonsense',
      Buffer.from('{"s":"most-played","k":{"pk":"USER#x"}}').toString('base64url'),
    ]) {
      const res = await new Browser().get(`/api/public-tracks?sort=most-played&cursor=${forged}`);
      expect([res.status, res.body.message]).toEqual([400, 'The cursor is not valid.']);
    }
    const wrongSort = await new Browser().get(
      `/api/public-tracks?sort=top-week&cursor=${encodeURIComponent(String(first.body.nextCursor))}`,
    );
    expect(wrongSort.status).toBe(400);
  });

  it('lists the tracks a user liked that they may still see, newest like first', async () => {
    const liker = await signedInUser();
    const [x, y, z] = [await track(), await track(), await track()];
    for (const g of [x, y, z]) expect((await like(liker.browser, g.id)).status).toBe(200);
    await generations.update(y.id, (g) => ({ ...g, visibility: 'private' }));

    const first = await liker.browser.get('/api/my-likes?limit=1');
    expect(ids(first)).toEqual([z.id]);
    expect((first.body.tracks as { likedByMe: boolean }[])[0]?.likedByMe).toBe(true);
    const rest = await liker.browser.get(
      `/api/my-likes?cursor=${encodeURIComponent(String(first.body.nextCursor))}`,
    );
    expect(ids(rest)).toEqual([x.id]);
    expect(rest.body.nextCursor).toBeNull();
    expect((await liker.browser.get('/api/my-likes?cursor=forged')).status).toBe(400);
    expect((await new Browser().get('/api/my-likes')).status).toBe(401);
  });
});

describe("an account's likes and plays on deletion", () => {
  it('are removed and taken back out of the counts, exactly', async () => {
    const leaving = await signedInUser();
    const stays = (listeners[0] as Signed).browser;
    const g = await track();
    const gone = await track();
    await like(leaving.browser, g.id);
    await like(stays, g.id);
    await play(leaving.browser, g.id, { listenedSeconds: 30 });
    await play(stays, g.id, { listenedSeconds: 30 });
    await like(leaving.browser, gone.id);
    await play(leaving.browser, gone.id, { listenedSeconds: 30 });
    // A track deleted since: only its records are left to remove.
    await generations.delete(gone.id, gone.userId);

    await dynamoLikeStore(store.documents, store.tableName).removeAllOf(leaving.id);
    await dynamoPlayStore(store.documents, store.tableName).removeAllOf(leaving.id);

    expect(await readTrack(g.id)).toMatchObject({ likes: 1, plays: 1 });
    expect(await readTrack(gone.id)).toBeUndefined();
    const left = await store.documents.send(
      new GetCommand({ TableName: store.tableName, Key: likeKeys.like(leaving.id, gone.id) }),
    );
    expect(left.Item).toBeUndefined();
    expect((await leaving.browser.get('/api/my-likes')).body.tracks).toEqual([]);
  });
});
