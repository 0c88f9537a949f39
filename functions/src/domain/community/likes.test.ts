import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryLimiter } from '../../testing/in-memory-accounts';
import { inMemoryCommunity } from '../../testing/in-memory-likes';
import { DomainError } from '../errors';
import {
  galleryPage,
  likedTracks,
  likeTrack,
  playThreshold,
  recordPlay,
  unlikeTrack,
  VISITOR_PLAYS_PER_ADDRESS_HOUR,
  weeksCounting,
  withCreators,
  withLikedByMe,
} from './likes';

const at = (iso: string) => ({ now: () => new Date(iso) });
const NOW = '2026-11-29T12:00:00.000Z';

function setUp(...generations: ReturnType<typeof aGeneration>[]) {
  const community = inMemoryCommunity(generations);
  return {
    community,
    deps: { tracks: community.tracks, likes: community.likes, plays: community.plays, clock: at(NOW) },
  };
}

const alice = { id: 'alice' };
const bob = { id: 'bob' };

describe('likes', () => {
  it('counts a like once, however often it is sent, and takes it back once', async () => {
    const { deps } = setUp(aGeneration({ id: 't1', userId: 'owner' }));
    expect(await likeTrack(deps, alice, 't1')).toEqual({ liked: true, likes: 1 });
    expect(await likeTrack(deps, alice, 't1')).toEqual({ liked: true, likes: 1 });
    expect(await likeTrack(deps, bob, 't1')).toEqual({ liked: true, likes: 2 });
    expect(await unlikeTrack(deps, alice, 't1')).toEqual({ liked: false, likes: 1 });
    expect(await unlikeTrack(deps, alice, 't1')).toEqual({ liked: false, likes: 1 });
  });

  it("refuses tracks the user may not see as not found: others' private or hidden ones, missing ones", async () => {
    const { deps, community } = setUp(
      aGeneration({ id: 'private', userId: 'owner', visibility: 'private' }),
      aGeneration({ id: 'hidden', userId: 'owner', hidden: true }),
    );
    for (const id of ['private', 'hidden', 'missing']) {
      await expect(likeTrack(deps, alice, id)).rejects.toMatchObject({ kind: 'not-found' });
    }
    expect(community.rawLikes.size).toBe(0);
    // Its owner sees it, and may like it.
    expect(await likeTrack(deps, { id: 'owner' }, 'private')).toEqual({ liked: true, likes: 1 });
  });

  it('lists the tracks a user liked that they may still see, newest like first, page by page', async () => {
    const tracks = ['a', 'b', 'c', 'd'].map((id) => aGeneration({ id, userId: 'owner' }));
    const { deps, community } = setUp(...tracks);
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) {
      await likeTrack({ ...deps, clock: at(`2026-11-2${i}T00:00:00.000Z`) }, alice, id);
    }
    // Made private after the like: no longer listed for Alice.
    community.generations.set('c', aGeneration({ id: 'c', userId: 'owner', visibility: 'private' }));

    const first = await likedTracks(deps, alice, { limit: 2 });
    expect(first.generations.map((g) => g.id)).toEqual(['d', 'b']);
    expect(first.nextCursor).not.toBeNull();
    const second = await likedTracks(deps, alice, { limit: 2, cursor: first.nextCursor as string });
    expect(second.generations.map((g) => g.id)).toEqual(['a']);
    expect(second.nextCursor).toBeNull();
  });

  it('fills likedByMe for a signed-in viewer, and leaves visitors without it', async () => {
    const { deps } = setUp(aGeneration({ id: 'a' }), aGeneration({ id: 'b' }));
    await likeTrack(deps, alice, 'b');
    expect(await withLikedByMe(deps.likes, alice, [{ id: 'a' }, { id: 'b' }])).toEqual([
      { id: 'a', likedByMe: false },
      { id: 'b', likedByMe: true },
    ]);
    expect(await withLikedByMe(deps.likes, undefined, [{ id: 'a' }])).toEqual([{ id: 'a' }]);
  });

  it('names creators with a public profile in one read, and leaves the others anonymous', async () => {
    const asked: string[][] = [];
    const names = {
      names: async (ids: readonly string[]) => {
        asked.push([...ids]);
        return new Map([['u1', { handle: 'ada', displayName: 'Ada' }]]);
      },
    };
    const owners = new Map([
      ['a', 'u1'],
      ['b', 'u2'],
      ['c', 'u1'],
    ]);
    expect(await withCreators(names, owners, [{ id: 'a' }, { id: 'b' }, { id: 'c' }])).toEqual([
      { id: 'a', creator: { handle: 'ada', displayName: 'Ada' } },
      { id: 'b', creator: null },
      { id: 'c', creator: { handle: 'ada', displayName: 'Ada' } },
    ]);
    expect(asked).toEqual([['u1', 'u2']]);
  });
});

describe('plays', () => {
  const play = (viewer: { id: string } | undefined, listenedSeconds: number, extra = {}) => ({
    viewer,
    listenerId: undefined as string | undefined,
    listenedSeconds,
    isBot: false,
    ...extra,
  });

  it('counts 30 seconds, or half a shorter track', () => {
    expect(playThreshold(240)).toBe(30);
    expect(playThreshold(40)).toBe(20);
    expect(playThreshold(null)).toBe(30);
  });

  it('counts a listener once per track per UTC day', async () => {
    const { deps } = setUp(aGeneration({ id: 't1', userId: 'owner', duration: 120 }));
    expect(await recordPlay(deps, play(alice, 31), 't1')).toEqual({ counted: true, plays: 1 });
    expect(await recordPlay(deps, play(alice, 90), 't1')).toEqual({ counted: false, plays: 1 });
    const tomorrow = { ...deps, clock: at('2026-11-30T00:00:01.000Z') };
    expect(await recordPlay(tomorrow, play(alice, 31), 't1')).toEqual({ counted: true, plays: 2 });
    // A visitor counts by the id their browser keeps.
    const visitor = play(undefined, 31, { listenerId: 'visitor-0123456789abcdef' });
    expect(await recordPlay(deps, visitor, 't1')).toEqual({ counted: true, plays: 3 });
    expect(await recordPlay(deps, visitor, 't1')).toEqual({ counted: false, plays: 3 });
  });

  it("counts a visitor's plays from one address up to an hour's limit, whatever listener ids are sent", async () => {
    const tracks = Array.from({ length: VISITOR_PLAYS_PER_ADDRESS_HOUR + 1 }, (_, i) =>
      aGeneration({ id: `t${i}`, userId: 'owner', duration: 120 }),
    );
    const { deps } = setUp(...tracks);
    const limited = { ...deps, visitorPlays: inMemoryLimiter() };
    const fromOne = (i: number) =>
      play(undefined, 31, { listenerId: `visitor-${String(i).padStart(16, '0')}`, address: '203.0.113.5' });
    for (let i = 0; i < VISITOR_PLAYS_PER_ADDRESS_HOUR; i++)
      expect(await recordPlay(limited, fromOne(i), `t${i}`)).toMatchObject({ counted: true });
    const last = `t${VISITOR_PLAYS_PER_ADDRESS_HOUR}`;
    expect(await recordPlay(limited, fromOne(999), last)).toEqual({ counted: false, plays: 0 });
    // Another address, and a signed-in listener from the same one, still count.
    const elsewhere = play(undefined, 31, { listenerId: 'visitor-elsewhere-0001', address: '198.51.100.7' });
    expect(await recordPlay(limited, elsewhere, last)).toEqual({ counted: true, plays: 1 });
    expect(await recordPlay(limited, play(alice, 31, { address: '203.0.113.5' }), last)).toEqual({
      counted: true,
      plays: 2,
    });
  });

  it('does not count a short listen, the owner, a bot, or a visitor without a listener id', async () => {
    const { deps } = setUp(aGeneration({ id: 't1', userId: 'owner', duration: 40 }));
    expect(await recordPlay(deps, play(alice, 19.9), 't1')).toEqual({ counted: false, plays: 0 });
    expect(await recordPlay(deps, play({ id: 'owner' }, 40), 't1')).toEqual({ counted: false, plays: 0 });
    expect(await recordPlay(deps, play(bob, 40, { isBot: true }), 't1')).toEqual({
      counted: false,
      plays: 0,
    });
    expect(await recordPlay(deps, play(undefined, 40), 't1')).toEqual({ counted: false, plays: 0 });
    expect(await recordPlay(deps, play(alice, 20), 't1')).toEqual({ counted: true, plays: 1 });
  });

  it('refuses a play of a track the listener may not see', async () => {
    const { deps } = setUp(aGeneration({ id: 't1', userId: 'owner', visibility: 'private' }));
    await expect(recordPlay(deps, play(alice, 60), 't1')).rejects.toBeInstanceOf(DomainError);
  });
});

describe('the gallery', () => {
  const listed = (id: string, createdAt: string) => aGeneration({ id, userId: 'owner', createdAt });

  it('a like counts in the week windows ending on its day and the six after', () => {
    expect(weeksCounting('2026-11-29')).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
    ]);
  });

  it('sorts by plays and by likes of the last 7 days, skipping tracks no longer listed, page by page', async () => {
    const { deps, community } = setUp(
      listed('a', '2026-11-01T00:00:00.000Z'),
      listed('b', '2026-11-02T00:00:00.000Z'),
      listed('c', '2026-11-03T00:00:00.000Z'),
      listed('d', '2026-11-04T00:00:00.000Z'),
    );
    const listeners = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `l${i}` }));
    for (const [id, n] of [
      ['a', 1],
      ['b', 4],
      ['c', 3],
      ['d', 2],
    ] as const) {
      for (const viewer of listeners(n)) {
        await recordPlay(deps, { viewer, listenerId: undefined, listenedSeconds: 60, isBot: false }, id);
      }
    }
    // Likes of 10 days ago no longer count this week; today's do.
    const old = { ...deps, clock: at('2026-11-19T12:00:00.000Z') };
    for (const viewer of listeners(5)) await likeTrack(old, viewer, 'a');
    for (const viewer of listeners(2)) await likeTrack(deps, viewer, 'c');
    await likeTrack(deps, alice, 'd');
    // Hidden after its plays: it leaves every sort.
    community.generations.set('b', {
      ...(community.generations.get('b') as ReturnType<typeof aGeneration>),
      hidden: true,
    });

    const gallery = { index: community.index, clock: at(NOW) };
    const ids = (page: { generations: { id: string }[] }) => page.generations.map((g) => g.id);

    const first = await galleryPage(gallery, { sort: 'most-played', limit: 2 });
    expect(ids(first)).toEqual(['c', 'd']);
    const second = await galleryPage(gallery, {
      sort: 'most-played',
      limit: 2,
      cursor: first.nextCursor as string,
    });
    expect(ids(second)).toEqual(['a']);
    expect(second.nextCursor).toBeNull();

    expect(ids(await galleryPage(gallery, { sort: 'top-week', limit: 10 }))).toEqual(['c', 'd']);
    expect(ids(await galleryPage(gallery, { sort: 'new', limit: 10 }))).toEqual(['d', 'c', 'a']);
  });

  it('reads about one page of the index when nothing is skipped, and fills a page past tracks no longer listed', async () => {
    const day = (i: number) =>
      `2026-11-${String(1 + Math.floor(i / 4)).padStart(2, '0')}T0${i % 4}:00:00.000Z`;
    const tracks = Array.from({ length: 40 }, (_, i) => listed(`t${String(i).padStart(2, '0')}`, day(i)));
    const { community } = setUp(...tracks);
    const asked: number[] = [];
    const index = {
      read: (...args: Parameters<typeof community.index.read>) => {
        asked.push(args[1].limit);
        return community.index.read(...args);
      },
    };
    const gallery = { index, clock: at(NOW) };
    const newest = [...tracks].reverse().map((g) => g.id);

    const page = await galleryPage(gallery, { sort: 'new', limit: 24 });
    expect(page.generations.map((g) => g.id)).toEqual(newest.slice(0, 24));
    expect(asked).toEqual([28]);

    // Ten of the newest hidden since: the page is still full, from further down.
    for (const id of newest.slice(0, 10)) {
      community.generations.set(id, {
        ...(community.generations.get(id) as (typeof tracks)[number]),
        hidden: true,
      });
    }
    asked.length = 0;
    const after = await galleryPage(gallery, { sort: 'new', limit: 24 });
    expect(after.generations.map((g) => g.id)).toEqual(newest.slice(10, 34));
    expect(after.nextCursor).not.toBeNull();
  });

  it("refuses a cursor of another sort's list", async () => {
    const { community } = setUp(
      listed('a', '2026-11-01T00:00:00.000Z'),
      listed('b', '2026-11-02T00:00:00.000Z'),
    );
    const gallery = { index: community.index, clock: at(NOW) };
    const first = await galleryPage(gallery, { sort: 'new', limit: 1 });
    await expect(
      galleryPage(gallery, { sort: 'most-played', limit: 1, cursor: first.nextCursor as string }),
    ).rejects.toMatchObject({ kind: 'validation', message: 'The cursor is not valid.' });
  });
});
