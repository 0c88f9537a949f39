import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { creatorMessages } from '@tunesmith/shared/community';
import { afterAll, describe, expect, it } from 'vitest';
import { seedCreators } from '../../scripts/seed-creators';
import { dynamoCreatorStore } from '../src/adapters/dynamo/creator-store';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { creatorKeys } from '../src/data/community-keys';
import type { Generation } from '../src/domain/tracks/track';
import { creatorRemoval } from '../src/lambdas/creator-removal';
import { signedInUser, testPassword } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser } from './support/http';
import { storage } from './support/storage';
import { storedTrack } from './support/tracks';

// Public profiles, creator pages, following and the feed through the HTTP API (decision 059).

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const creators = dynamoCreatorStore(store.documents, store.tableName);
const buckets = storage();
afterAll(() => {
  store.close();
  buckets.close();
});

/** A handle no other run holds. */
const uniqueHandle = (base: string) => `${base}-${randomUUID().slice(0, 8)}`;

const del = (browser: Browser, path: string) => browser.call('DELETE', path);

/** A signed-in user with a public profile. */
async function creator(base = 'maker') {
  const user = await signedInUser();
  const handle = uniqueHandle(base);
  const res = await user.browser.put('/api/user/public-profile', { handle, displayName: `The ${base}` });
  expect(res.status).toBe(200);
  return { ...user, handle };
}

/** A listed track of `userId`, made `secondsAgo` before now. */
const track = (userId: string, secondsAgo: number, over: Partial<Generation> = {}) => {
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
  return storedTrack({ generations, files: buckets }, userId, { createdAt: at, updatedAt: at, ...over });
};

describe('public profiles', () => {
  it('is private by default: no profile, and the user tracks name no creator', async () => {
    const { browser, id } = await signedInUser();
    const mine = await browser.get('/api/user/public-profile');
    expect(mine.status).toBe(404);
    expect(mine.body.message).toBe(creatorMessages.noPublicProfile);
    const t = await track(id, 1);
    const page = await new Browser().get(`/api/track/${t.id}`);
    expect(page.status).toBe(200);
    expect(page.body.creator).toBeNull();
    expect(JSON.stringify(page.body)).not.toContain(id);
  });

  it('creates, answers, changes and removes a profile; its handle is free again after', async () => {
    const { browser } = await signedInUser();
    const handle = uniqueHandle('Ada');
    const saved = await browser.put('/api/user/public-profile', {
      handle,
      displayName: ' Ada ',
      bio: 'Songs',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ handle, displayName: 'Ada', bio: 'Songs' });
    expect((await browser.get('/api/user/public-profile')).body).toEqual(saved.body);

    const renamed = uniqueHandle('Lovelace');
    expect(
      (await browser.put('/api/user/public-profile', { handle: renamed, displayName: 'Ada' })).status,
    ).toBe(200);
    // The old handle is released at once, and the new one answers whatever its case.
    expect((await new Browser().get(`/api/creators/${handle}`)).status).toBe(404);
    const page = await new Browser().get(`/api/creators/${renamed.toUpperCase()}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      handle: renamed,
      displayName: 'Ada',
      bio: null,
      followers: 0,
      following: 0,
    });
    expect(page.body).not.toHaveProperty('followedByMe');
    // The creator themselves is not told whether they follow themselves.
    expect((await browser.get(`/api/creators/${renamed}`)).body).not.toHaveProperty('followedByMe');

    expect((await del(browser, '/api/user/public-profile')).status).toBe(204);
    expect((await browser.get('/api/user/public-profile')).status).toBe(404);
    expect((await new Browser().get(`/api/creators/${renamed}`)).status).toBe(404);
    const other = await signedInUser();
    expect(
      (await other.browser.put('/api/user/public-profile', { handle: renamed, displayName: 'B' })).status,
    ).toBe(200);
  });

  it('refuses reserved words and bad handles with a message', async () => {
    const { browser } = await signedInUser();
    for (const handle of ['Admin', 'library', 'pricing', 'NULL']) {
      const res = await browser.put('/api/user/public-profile', { handle, displayName: 'A' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(creatorMessages.handleReserved);
    }
    for (const handle of ['ab', 'has space', 'a'.repeat(31), 'dot.ted']) {
      const res = await browser.put('/api/user/public-profile', { handle, displayName: 'A' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('A handle is 3 to 30 letters, digits, _ or -.');
    }
    expect((await browser.get('/api/user/public-profile')).status).toBe(404);
  });

  it('gives a handle to one of two users claiming it at once, whatever its case; the other gets 409', async () => {
    const [a, b] = await Promise.all([signedInUser(), signedInUser()]);
    const handle = uniqueHandle('race');
    const [ra, rb] = await Promise.all([
      a.browser.put('/api/user/public-profile', { handle, displayName: 'A' }),
      b.browser.put('/api/user/public-profile', { handle: handle.toUpperCase(), displayName: 'B' }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    expect(loser.body.message).toBe(creatorMessages.handleTaken);
    const winner = ra.status === 200 ? a : b;
    expect(await creators.holderOf(handle)).toBe(winner.id);
  });
});

describe('creator pages and following', () => {
  it('lists only listed tracks newest first, named, with a cursor; private and hidden ones are absent', async () => {
    const ada = await creator('ada');
    const older = await track(ada.id, 30);
    const newer = await track(ada.id, 20);
    const newest = await track(ada.id, 10);
    await track(ada.id, 5, { visibility: 'private' });
    await track(ada.id, 4, { hidden: true });
    const first = await new Browser().get(`/api/creators/${ada.handle}?limit=2`);
    expect(first.status).toBe(200);
    const tracks = first.body.tracks as { id: string; creator: unknown; audioUrl: string }[];
    expect(tracks.map((t) => t.id)).toEqual([newest.id, newer.id]);
    expect(tracks[0]?.creator).toEqual({ handle: ada.handle, displayName: 'The ada' });
    expect(tracks[0]?.audioUrl).not.toMatch(/^s3:/);
    const second = await new Browser().get(
      `/api/creators/${ada.handle}?limit=2&cursor=${encodeURIComponent(String(first.body.nextCursor))}`,
    );
    expect((second.body.tracks as { id: string }[]).map((t) => t.id)).toEqual([older.id]);
    expect(second.body.nextCursor).toBeNull();
    expect(JSON.stringify(first.body)).not.toContain(ada.id);

    expect((await new Browser().get(`/api/creators/${ada.handle}?cursor=nonsense`)).status).toBe(400);
  });

  it('follows and unfollows idempotently, and counts exactly under parallel requests', async () => {
    const ada = await creator('ada');
    const fans = await Promise.all(Array.from({ length: 6 }, () => signedInUser()));
    // Each fan follows twice at once; then half of them unfollow twice at once.
    const follows = await Promise.all(
      fans.flatMap((fan) => [fan, fan].map((f) => f.browser.put(`/api/creators/${ada.handle}/follow`, {}))),
    );
    expect(follows.every((r) => r.status === 200 && r.body.following === true)).toBe(true);
    const page = await fans[0]?.browser.get(`/api/creators/${ada.handle}`);
    expect(page?.body).toMatchObject({ followers: 6, followedByMe: true });
    const leaving = fans.slice(0, 3);
    const unfollows = await Promise.all(
      leaving.flatMap((fan) => [fan, fan].map((f) => del(f.browser, `/api/creators/${ada.handle}/follow`))),
    );
    expect(unfollows.every((r) => r.status === 200 && r.body.following === false)).toBe(true);
    expect(await creators.counts(ada.id)).toEqual({ followers: 3, following: 0 });
    for (const fan of fans)
      expect((await creators.counts(fan.id)).following).toBe(leaving.includes(fan) ? 0 : 1);
    const state = await del(fans[0]?.browser as Browser, `/api/creators/${ada.handle}/follow`);
    expect(state.body).toEqual({ following: false, followers: 3 });
  });

  it('refuses following oneself, an unknown handle, and visitors', async () => {
    const ada = await creator('ada');
    const self = await ada.browser.put(`/api/creators/${ada.handle}/follow`, {});
    expect(self.status).toBe(400);
    expect(self.body.message).toBe(creatorMessages.cannotFollowSelf);
    expect((await ada.browser.put(`/api/creators/${uniqueHandle('nobody')}/follow`, {})).status).toBe(404);
    expect((await new Browser().put(`/api/creators/${ada.handle}/follow`, {})).status).toBe(401);
    // Paths that cannot be handles are not found, never a server error.
    for (const odd of ['%E0%A4%A', 'x'.repeat(3000), '{handle}'])
      expect((await new Browser().get(`/api/creators/${odd}`)).status).toBe(404);
  });

  it('a hidden profile answers 404 and cannot be followed', async () => {
    const ada = await creator('ada');
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: creatorKeys.profile(ada.id),
        UpdateExpression: 'SET #hidden = :yes',
        ExpressionAttributeNames: { '#hidden': 'hidden' },
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    const fan = await signedInUser();
    expect((await new Browser().get(`/api/creators/${ada.handle}`)).status).toBe(404);
    expect((await fan.browser.put(`/api/creators/${ada.handle}/follow`, {})).status).toBe(404);
  });
});

describe('the feed', () => {
  it('merges followed creators listed tracks newest first, in exact pages', async () => {
    const [a, b] = await Promise.all([creator('alpha'), creator('bravo')]);
    const fan = await signedInUser();
    const a1 = await track(a.id, 50);
    const b1 = await track(b.id, 40);
    const a2 = await track(a.id, 30);
    await track(a.id, 25, { visibility: 'private' });
    const b2 = await track(b.id, 20);
    const stranger = await signedInUser();
    await track(stranger.id, 15);

    const empty = await fan.browser.get('/api/feed');
    expect(empty.body).toEqual({ tracks: [], nextCursor: null });
    for (const c of [a, b])
      expect((await fan.browser.put(`/api/creators/${c.handle}/follow`, {})).status).toBe(200);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await fan.browser.get(
        `/api/feed?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...(res.body.tracks as { id: string }[]).map((t) => t.id));
      cursor = res.body.nextCursor as string | null;
    } while (cursor);
    expect(seen).toEqual([b2.id, a2.id, b1.id, a1.id]);

    // A creator who goes private leaves the feed, and their followers' counts with them.
    expect((await del(a.browser, '/api/user/public-profile')).status).toBe(204);
    const after = await fan.browser.get('/api/feed');
    expect((after.body.tracks as { id: string }[]).map((t) => t.id)).toEqual([b2.id, b1.id]);
    expect(await creators.counts(fan.id)).toEqual({ followers: 0, following: 1 });
    expect((await new Browser().get('/api/feed')).status).toBe(401);
  });
});

describe('going private with many followers', () => {
  it('removes every follow of them in parallel, each follower counted exactly, and comes back with none', async () => {
    const star = await creator('star');
    // Followers written as a follow writes them (the table's transaction), more than one page of them.
    const fans = Array.from({ length: 130 }, () => randomUUID());
    const at = new Date().toISOString();
    for (let i = 0; i < fans.length; i += 10)
      await Promise.all(
        fans.slice(i, i + 10).map(async (fan) => {
          expect(await creators.follow(fan, star.id, at, 200)).toBe('followed');
        }),
      );
    expect(await creators.counts(star.id)).toEqual({ followers: 130, following: 0 });

    expect((await del(star.browser, '/api/user/public-profile')).status).toBe(204);
    expect(await creators.followers(star.id, 500)).toEqual({ ids: [] });
    const counts = await Promise.all(fans.map((fan) => creators.counts(fan)));
    expect(counts.every((c) => c.following === 0)).toBe(true);
    expect(await creators.counts(star.id)).toEqual({ followers: 0, following: 0 });
  });

  it('going public again first finishes a going private that was cut short, so the count starts exact', async () => {
    const star = await creator('comeback');
    const fan = await signedInUser();
    expect((await fan.browser.put(`/api/creators/${star.handle}/follow`, {})).status).toBe(200);
    // The profile goes, but the run stops before its follows do (as a timeout would leave it).
    const profile = await creators.profile(star.id);
    if (!profile) throw new Error('the profile is missing');
    expect(await creators.remove(profile)).toBe('removed');
    const cutShortAt = new Date().toISOString();
    expect(await creators.followers(star.id, 10)).toEqual({ ids: [fan.id] });

    const again = await star.browser.put('/api/user/public-profile', {
      handle: uniqueHandle('again'),
      displayName: 'Back',
    });
    expect(again.status).toBe(200);
    expect(await creators.followers(star.id, 10)).toEqual({ ids: [] });
    expect(await creators.counts(fan.id)).toEqual({ followers: 0, following: 0 });
    const page = await new Browser().get(`/api/creators/${again.body.handle}`);
    expect(page.body.followers).toBe(0);

    // A removal still running from before finds them public again and leaves the new follow alone.
    expect((await fan.browser.put(`/api/creators/${again.body.handle}/follow`, {})).status).toBe(200);
    expect(await creators.dropFollow(fan.id, star.id, cutShortAt)).toBe(false);
    expect(await creators.resetFollowers(star.id)).toBe(false);
    expect(await creators.counts(star.id)).toEqual({ followers: 1, following: 0 });
    expect(await creators.counts(fan.id)).toEqual({ followers: 0, following: 1 });
  });
});

describe('account deletion', () => {
  it('the user deleting their own account takes their profile and follows with it (the job)', async () => {
    const [gone, other] = await Promise.all([creator('leaving'), creator('staying')]);
    expect((await other.browser.put(`/api/creators/${gone.handle}/follow`, {})).status).toBe(200);
    expect((await gone.browser.put(`/api/creators/${other.handle}/follow`, {})).status).toBe(200);
    expect((await gone.browser.call('DELETE', '/api/user', { currentPassword: testPassword })).status).toBe(
      202,
    );
    // The job removes the user's profile record last; by then the creator step has run.
    const until = Date.now() + 30_000;
    while (await store.users.get(gone.id)) {
      if (Date.now() > until) throw new Error('the account was not deleted in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await new Browser().get(`/api/creators/${gone.handle}`)).status).toBe(404);
    expect(await creators.holderOf(gone.handle)).toBeUndefined();
    expect(await creators.counts(other.id)).toEqual({ followers: 0, following: 0 });
  });

  it('removes the profile, its handle and follows both ways, with the other side counts exact', async () => {
    const [gone, other] = await Promise.all([creator('gone'), creator('other')]);
    expect((await other.browser.put(`/api/creators/${gone.handle}/follow`, {})).status).toBe(200);
    expect((await gone.browser.put(`/api/creators/${other.handle}/follow`, {})).status).toBe(200);
    await creatorRemoval({ client: store.documents, tableName: store.tableName }).removeAll(gone.id);
    expect(await creators.profile(gone.id)).toBeUndefined();
    expect(await creators.holderOf(gone.handle)).toBeUndefined();
    expect(await creators.counts(other.id)).toEqual({ followers: 0, following: 0 });
    expect(await creators.followed(gone.id)).toEqual([]);
    expect((await new Browser().get(`/api/creators/${gone.handle}`)).status).toBe(404);
  });
});

describe('the seed step at size (small here)', () => {
  it('writes creators as the store does: their pages, counts and a follower feed answer from it', async () => {
    const fan = await signedInUser();
    const handles = await seedCreators(store.documents, store.tableName, {
      creators: 4,
      tracksEach: 2,
      followsEach: 2,
      follower: fan.id,
      follows: 3,
    });
    const page = await new Browser().get(`/api/creators/${handles[1]}`);
    expect(page.status).toBe(200);
    // Followed by the two creators before it (each follows the next two) and by the fan.
    expect(page.body).toMatchObject({ followers: 3, following: 2 });
    expect((page.body.tracks as unknown[]).length).toBe(2);
    const feed = await fan.browser.get('/api/feed?limit=50');
    const tracks = feed.body.tracks as { createdAt: string; creator: { handle: string } }[];
    expect(tracks).toHaveLength(6);
    expect(new Set(tracks.map((t) => t.creator.handle))).toEqual(new Set(handles.slice(0, 3)));
    expect(tracks.map((t) => t.createdAt)).toEqual(
      tracks
        .map((t) => t.createdAt)
        .sort()
        .reverse(),
    );
    expect(await creators.counts(fan.id)).toEqual({ followers: 0, following: 3 });
  });
});

/** `/@handle` as a chat app's link preview fetches it: a plain GET, no session. */
const preview = async (handle: string) => (await fetch(`${apiUrl}/@${handle}`)).text();
const metaOf = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];

describe('link previews of /@handle', () => {
  it('previews a public profile (title, bio) in any case, follows a handle change, and ends when private', async () => {
    const { browser } = await signedInUser();
    const handle = uniqueHandle('Preview');
    const bio = 'Songs about "engines" & <machines>';
    expect(
      (await browser.put('/api/user/public-profile', { handle, displayName: 'Ada L', bio })).status,
    ).toBe(200);
    const html = await preview(handle.toLowerCase());
    expect(metaOf(html, 'og:title')).toBe(`Ada L (@${handle})`);
    expect(metaOf(html, 'og:description')).toBe('Songs about &quot;engines&quot; &amp; &lt;machines&gt;');
    expect(metaOf(html, 'og:url')).toMatch(new RegExp(`/@${handle}$`));
    expect(html).not.toContain('<machines>');

    const renamed = uniqueHandle('Renamed');
    expect(
      (await browser.put('/api/user/public-profile', { handle: renamed, displayName: 'Ada L' })).status,
    ).toBe(200);
    expect(await preview(handle)).not.toContain('og:title');
    expect(metaOf(await preview(renamed), 'og:description')).toMatch(/^Listen to Ada L on /);

    expect((await del(browser, '/api/user/public-profile')).status).toBe(204);
    const after = await preview(renamed);
    expect(after).not.toContain('og:title');
    expect(after).not.toContain('Ada L');
  });

  it('gives no preview to a handle no one holds', async () => {
    expect(await preview(uniqueHandle('nobody'))).not.toContain('og:title');
  });
});
