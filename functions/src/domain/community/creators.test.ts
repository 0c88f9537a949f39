import { creatorMessages, FOLLOWING_MAX } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryCreators, inMemoryCreatorTracks } from '../../testing/in-memory-creators';
import type { Generation } from '../tracks/track';
import {
  type CreatorDeps,
  creatorPage,
  decodePosition,
  feed,
  follow,
  goPrivate,
  ownProfile,
  removeCreatorData,
  setPublicProfile,
  unfollow,
} from './creators';

function world() {
  const clock = fakeClock('2026-11-29T10:00:00.000Z');
  const creators = inMemoryCreators();
  const generations: Generation[] = [];
  const deps: CreatorDeps = {
    creators: creators.store,
    tracks: inMemoryCreatorTracks(() => generations),
    names: creators.names,
    playlists: { ofOwner: async () => [] },
    clock,
    playable: async (track) => ({ ...track, audioUrl: `signed:${track.audioUrl}` }),
  };
  /** A listed track of `userId`, `minutes` after ten. */
  const track = (id: string, userId: string, minutes: number, over: Partial<Generation> = {}) => {
    const at = new Date(Date.parse('2026-11-29T10:00:00.000Z') + minutes * 60_000).toISOString();
    generations.push(
      aGeneration({
        id,
        userId,
        status: 'completed',
        visibility: 'public',
        showInGallery: true,
        audioUrl: `s3://tracks/${id}.wav`,
        createdAt: at,
        updatedAt: at,
        ...over,
      }),
    );
  };
  return { deps, creators, track, clock };
}

describe('public profiles', () => {
  it('is private until the user chooses a profile, then answers it', async () => {
    const { deps } = world();
    await expect(ownProfile(deps, 'u1')).rejects.toThrow(creatorMessages.noPublicProfile);
    const saved = await setPublicProfile(deps, 'u1', { handle: 'Ada', displayName: 'Ada L', bio: 'Tunes' });
    expect(saved).toEqual({
      handle: 'Ada',
      displayName: 'Ada L',
      bio: 'Tunes',
      createdAt: '2026-11-29T10:00:00.000Z',
    });
    expect(await ownProfile(deps, 'u1')).toEqual(saved);
  });

  it('refuses reserved words whatever their case, and a handle someone else holds in any case', async () => {
    const { deps } = world();
    await expect(setPublicProfile(deps, 'u1', { handle: 'Admin', displayName: 'A' })).rejects.toThrow(
      creatorMessages.handleReserved,
    );
    await expect(setPublicProfile(deps, 'u1', { handle: 'library', displayName: 'A' })).rejects.toThrow(
      creatorMessages.handleReserved,
    );
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    await expect(setPublicProfile(deps, 'u2', { handle: 'ADA', displayName: 'Other' })).rejects.toMatchObject(
      {
        kind: 'conflict',
        message: creatorMessages.handleTaken,
      },
    );
  });

  it('changing the handle releases the old one; its creation time stays', async () => {
    const { deps, clock } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    clock.advance(60_000);
    const changed = await setPublicProfile(deps, 'u1', { handle: 'lovelace', displayName: 'Ada' });
    expect(changed.createdAt).toBe('2026-11-29T10:00:00.000Z');
    await expect(setPublicProfile(deps, 'u2', { handle: 'Ada', displayName: 'B' })).resolves.toMatchObject({
      handle: 'Ada',
    });
  });

  it("brings the user's playlists' previews in line when their public name changes; a failure stands the change", async () => {
    const { deps, creators } = world();
    const refreshed: string[] = [];
    const told: unknown[] = [];
    let failing = false;
    const withPreviews: CreatorDeps = {
      ...deps,
      ownerPreviews: async (userId) => {
        if (failing) throw new Error('bucket unreachable');
        refreshed.push(userId);
      },
      onShareFailure: (error) => told.push(error),
    };
    await setPublicProfile(withPreviews, 'u1', { handle: 'ada', displayName: 'Ada' });
    await setPublicProfile(withPreviews, 'u1', { handle: 'ada', displayName: 'Countess' });
    await goPrivate(withPreviews, 'u1');
    expect(refreshed).toEqual(['u1', 'u1', 'u1']);

    failing = true;
    await expect(
      setPublicProfile(withPreviews, 'u1', { handle: 'ada', displayName: 'Ada' }),
    ).resolves.toMatchObject({ displayName: 'Ada' });
    await goPrivate(withPreviews, 'u1');
    expect(await creators.store.profile('u1')).toBeUndefined();
    expect(told).toHaveLength(2);
  });

  it('going private takes the page, the handle and every follow of it away, counts exact', async () => {
    const { deps, creators } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    await follow(deps, 'u2', 'ada');
    await follow(deps, 'u3', 'ada');
    await goPrivate(deps, 'u1');
    await expect(creatorPage(deps, 'ada', undefined)).rejects.toThrow(creatorMessages.creatorNotFound);
    expect(creators.follows.size).toBe(0);
    expect(await creators.store.counts('u2')).toEqual({ followers: 0, following: 0 });
    expect(await creators.store.counts('u1')).toEqual({ followers: 0, following: 0 });
    await setPublicProfile(deps, 'u4', { handle: 'ada', displayName: 'New' });
  });

  it('going private removes more than a page of follows; going public finishes a run cut short first', async () => {
    const { deps, creators } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    const fans = Array.from({ length: 130 }, (_, i) => `fan${i}`);
    for (const fan of fans) await follow(deps, fan, 'ada');
    await goPrivate(deps, 'u1');
    expect(creators.follows.size).toBe(0);
    expect(fans.every((fan) => creators.counts.get(fan)?.following === 0)).toBe(true);
    expect(await creators.store.counts('u1')).toEqual({ followers: 0, following: 0 });

    // A follow and its count left behind by a going private that stopped after the profile went.
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    await follow(deps, 'u2', 'ada');
    const profile = await creators.store.profile('u1');
    if (!profile) throw new Error('no profile');
    await creators.store.remove(profile);
    expect(await creators.store.counts('u1')).toEqual({ followers: 1, following: 0 });
    await setPublicProfile(deps, 'u1', { handle: 'ada2', displayName: 'Ada' });
    expect(creators.follows.size).toBe(0);
    expect(await creators.store.counts('u2')).toEqual({ followers: 0, following: 0 });
    expect((await creatorPage(deps, 'ada2', undefined)).followers).toBe(0);
  });

  it('a going private still running when its creator goes public again leaves the new follows and count alone', async () => {
    const { deps, creators, clock } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    await follow(deps, 'u2', 'ada');
    // The slow run: before it reads its page of followers, the creator goes public again (in another
    // tab) and is followed.
    let raced = false;
    const slow: CreatorDeps = {
      ...deps,
      creators: {
        ...creators.store,
        async followers(creatorId, limit, after) {
          if (!raced) {
            raced = true;
            clock.advance(1000);
            await setPublicProfile(deps, 'u1', { handle: 'ada3', displayName: 'Ada' });
            await follow(deps, 'u3', 'ada3');
          }
          return creators.store.followers(creatorId, limit, after);
        },
      },
    };
    await goPrivate(slow, 'u1');
    expect(raced).toBe(true);
    expect([...creators.follows.keys()]).toEqual(['u3>u1']);
    expect(await creators.store.counts('u1')).toEqual({ followers: 1, following: 0 });
    expect(await creators.store.counts('u2')).toEqual({ followers: 0, following: 0 });
    expect(await creators.store.counts('u3')).toEqual({ followers: 0, following: 1 });
  });

  it('a hidden profile answers not found, cannot be followed, and stays hidden after going private and back', async () => {
    const { deps, creators } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    creators.hide('u1');
    await expect(creatorPage(deps, 'ada', undefined)).rejects.toThrow(creatorMessages.creatorNotFound);
    await expect(follow(deps, 'u2', 'ada')).rejects.toThrow(creatorMessages.creatorNotFound);
    await goPrivate(deps, 'u1');
    await setPublicProfile(deps, 'u1', { handle: 'ada2', displayName: 'Ada' });
    await expect(creatorPage(deps, 'ada2', undefined)).rejects.toThrow(creatorMessages.creatorNotFound);
  });
});

describe('following', () => {
  it('is idempotent both ways and refuses following oneself', async () => {
    const { deps } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    expect(await follow(deps, 'u2', 'ADA')).toEqual({ following: true, followers: 1 });
    expect(await follow(deps, 'u2', 'ada')).toEqual({ following: true, followers: 1 });
    expect((await creatorPage(deps, 'ada', 'u2')).followedByMe).toBe(true);
    expect(await unfollow(deps, 'u2', 'ada')).toEqual({ following: false, followers: 0 });
    expect(await unfollow(deps, 'u2', 'ada')).toEqual({ following: false, followers: 0 });
    await expect(follow(deps, 'u1', 'ada')).rejects.toThrow(creatorMessages.cannotFollowSelf);
    await expect(creatorPage(deps, 'x'.repeat(5000), undefined)).rejects.toThrow(
      creatorMessages.creatorNotFound,
    );
    await expect(unfollow(deps, 'u2', '%not a handle')).rejects.toThrow(creatorMessages.creatorNotFound);
  });

  it(`refuses a follow past ${FOLLOWING_MAX} creators`, async () => {
    const { deps, creators } = world();
    await setPublicProfile(deps, 'c', { handle: 'maker', displayName: 'C' });
    creators.counts.set('u2', { followers: 0, following: FOLLOWING_MAX });
    await expect(follow(deps, 'u2', 'maker')).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('account deletion removes follows both ways and the profile, moving the other side counts', async () => {
    const { deps, creators } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    await setPublicProfile(deps, 'u2', { handle: 'grace', displayName: 'Grace' });
    await follow(deps, 'u1', 'grace');
    await follow(deps, 'u2', 'ada');
    await removeCreatorData(deps, 'u1');
    expect(await creators.store.counts('u2')).toEqual({ followers: 0, following: 0 });
    expect(creators.handles.has('ada')).toBe(false);
    expect(creators.profiles.has('u1')).toBe(false);
  });
});

describe('creator page and feed', () => {
  it('lists a creator listed tracks newest first, named, in pages without gaps or repeats', async () => {
    const { deps, track } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    for (let i = 0; i < 5; i++) track(`t${i}`, 'u1', i);
    track('private', 'u1', 10, { visibility: 'private' });
    track('hidden', 'u1', 11, { hidden: true });
    const first = await creatorPage(deps, 'ada', undefined, { limit: 2 });
    expect(first.tracks.map((t) => t.id)).toEqual(['t4', 't3']);
    expect(first.tracks[0]).toMatchObject({
      creator: { handle: 'ada', displayName: 'Ada' },
      audioUrl: 'signed:s3://tracks/t4.wav',
    });
    const second = await creatorPage(deps, 'ada', undefined, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.tracks.map((t) => t.id)).toEqual(['t2', 't1']);
    const last = await creatorPage(deps, 'ada', undefined, { limit: 2, cursor: second.nextCursor ?? '' });
    expect(last.tracks.map((t) => t.id)).toEqual(['t0']);
    expect(last.nextCursor).toBeNull();
    expect(first.followedByMe).toBeUndefined();
  });

  it('merges the followed creators newest first, exact across pages and ties, skipping hidden creators', async () => {
    const { deps, track, creators } = world();
    for (const [id, handle] of [
      ['a', 'alpha'],
      ['b', 'bravo'],
      ['h', 'hotel'],
    ] as const)
      await setPublicProfile(deps, id, { handle, displayName: handle });
    for (const handle of ['alpha', 'bravo', 'hotel']) await follow(deps, 'me', handle);
    track('a1', 'a', 1);
    track('b2', 'b', 2);
    track('a3', 'a', 3);
    // The same millisecond in two creators: ordered by id.
    track('b4x', 'b', 4);
    track('a4y', 'a', 4);
    track('h5', 'h', 5);
    track('stranger', 'nobody', 6);
    creators.hide('h');
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await feed(deps, 'me', { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.tracks.length).toBeLessThanOrEqual(2);
      seen.push(...page.tracks.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['b4x', 'a4y', 'a3', 'b2', 'a1']);
    const first = await feed(deps, 'me', { limit: 1 });
    expect(first.tracks[0]?.creator).toEqual({ handle: 'bravo', displayName: 'bravo' });
  });

  it('is empty for a user who follows no one, and refuses a cursor it did not make', async () => {
    const { deps } = world();
    expect(await feed(deps, 'me')).toEqual({ tracks: [], nextCursor: null });
    expect(() => decodePosition('not-a-cursor')).toThrow(creatorMessages.cursorInvalid);
  });
});
