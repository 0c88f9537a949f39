import { PLAYLISTS_MAX, playlistMessages } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemoryPlaylists, playlistTracksOf } from '../../testing/in-memory-playlists';
import { DomainError } from '../errors';
import {
  createPlaylist,
  deletePlaylist,
  getPlaylist,
  listMyPlaylists,
  type PlaylistDeps,
  publicPlaylists,
  setPlaylistTracks,
  updatePlaylist,
} from './playlists';

function setup() {
  const generations = inMemoryGenerationStore([
    aGeneration({ id: 'mine-public', userId: 'ada' }),
    aGeneration({ id: 'mine-private', userId: 'ada', visibility: 'private' }),
    aGeneration({ id: 'mine-pending', userId: 'ada', status: 'pending', audioUrl: null }),
    aGeneration({ id: 'theirs-public', userId: 'ben' }),
    aGeneration({ id: 'theirs-private', userId: 'ben', visibility: 'private' }),
    aGeneration({ id: 'theirs-hidden', userId: 'ben', hidden: true }),
    aGeneration({ id: 'theirs-unlisted', userId: 'ben', showInGallery: false }),
  ]);
  let ids = 0;
  let now = Date.parse('2026-11-29T10:00:00.000Z');
  const playlists = inMemoryPlaylists();
  const deps: PlaylistDeps = {
    playlists,
    tracks: playlistTracksOf(generations),
    creators: {
      // Only ben has a public profile.
      names: async (userIds) =>
        new Map(
          userIds
            .filter((id) => id === 'ben')
            .map((id) => [id, { handle: 'ben', displayName: 'Ben' }] as const),
        ),
    },
    clock: {
      now: () => {
        now += 1000;
        return new Date(now);
      },
    },
    newId: () => `p${++ids}`,
  };
  return { deps, generations, playlists };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};

describe('playlists', () => {
  it('makes an empty playlist with the owner anonymous until they have a public profile', async () => {
    const { deps } = setup();
    const made = await createPlaylist(deps, 'ada', { title: 'Road', description: '', visibility: 'public' });
    expect(made.summary).toMatchObject({
      id: 'p1',
      title: 'Road',
      description: null,
      visibility: 'public',
      trackCount: 0,
      owner: null,
      ownedByMe: true,
    });
    const bens = await createPlaylist(deps, 'ben', { title: 'Mine', visibility: 'public' });
    expect(bens.summary.owner).toEqual({ handle: 'ben', displayName: 'Ben' });
  });

  it('keeps the order sent, collapses repeats and refuses, naming them, tracks the owner may not add', async () => {
    const { deps, playlists } = setup();
    await createPlaylist(deps, 'ada', { title: 'Road', visibility: 'private' });
    const set = await setPlaylistTracks(deps, 'ada', 'p1', [
      'theirs-public',
      'mine-private',
      'mine-public',
      'theirs-public',
    ]);
    expect(set.entries.map((e) => e.generation.id)).toEqual(['theirs-public', 'mine-private', 'mine-public']);
    expect(set.entries[0]?.creator).toEqual({ handle: 'ben', displayName: 'Ben' });

    for (const refused of ['theirs-private', 'theirs-hidden', 'theirs-unlisted', 'mine-pending', 'nope']) {
      const error = await refusal(setPlaylistTracks(deps, 'ada', 'p1', ['mine-public', refused]));
      expect(error.kind).toBe('validation');
      expect(error.message).toBe(playlistMessages.tracksNotAllowed([refused]));
    }
    // Nothing was written by the refused calls.
    expect(playlists.all.get('p1')?.trackIds).toEqual(['theirs-public', 'mine-private', 'mine-public']);
  });

  it('shows others only the listed tracks, the owner their own private ones too, and counts what each sees', async () => {
    const { deps, generations } = setup();
    await createPlaylist(deps, 'ada', { title: 'Road', visibility: 'public' });
    await setPlaylistTracks(deps, 'ada', 'p1', ['mine-private', 'theirs-public', 'mine-public']);
    // Later, ben's track is hidden after a report and ada's public one is deleted.
    await generations.update('theirs-public', (g) => ({ ...g, hidden: true }));
    generations.all.delete('mine-public');

    const asOwner = await getPlaylist(deps, { id: 'ada' }, 'p1');
    expect(asOwner.entries.map((e) => e.generation.id)).toEqual(['mine-private']);
    expect(asOwner.summary.trackCount).toBe(1);
    const asVisitor = await getPlaylist(deps, undefined, 'p1');
    expect(asVisitor.entries).toEqual([]);
    expect(asVisitor.summary).toMatchObject({ trackCount: 0, ownedByMe: false });

    await generations.update('theirs-public', (g) => ({ ...g, hidden: false }));
    expect((await getPlaylist(deps, { id: 'cy' }, 'p1')).entries.map((e) => e.generation.id)).toEqual([
      'theirs-public',
    ]);
    expect((await getPlaylist(deps, { id: 'ada' }, 'p1')).summary.trackCount).toBe(2);
  });

  it("lists the user's own playlists, private ones too, newest first, as cards read without their tracks", async () => {
    const { deps } = setup();
    await createPlaylist(deps, 'ben', { title: 'Open', visibility: 'public' });
    await createPlaylist(deps, 'ben', { title: 'Closed', visibility: 'private' });
    await createPlaylist(deps, 'ada', { title: 'Not his', visibility: 'public' });
    await setPlaylistTracks(deps, 'ben', 'p1', ['theirs-public', 'theirs-private']);
    const noTrackReads = {
      ...deps,
      tracks: {
        many: async () => {
          throw new Error('a list of playlists must not read their tracks');
        },
      },
    };
    const mine = await listMyPlaylists(noTrackReads, 'ben');
    expect(mine.map((p) => [p.title, p.visibility, p.ownedByMe, p.owner])).toEqual([
      ['Closed', 'private', true, { handle: 'ben', displayName: 'Ben' }],
      ['Open', 'public', true, { handle: 'ben', displayName: 'Ben' }],
    ]);
    expect(mine.some((p) => 'trackCount' in p || 'trackIds' in p)).toBe(false);
    expect(await listMyPlaylists(noTrackReads, 'cy')).toEqual([]);
  });

  it('answers not found for a private playlist to anyone but its owner, and for changes by anyone else', async () => {
    const { deps, playlists } = setup();
    await createPlaylist(deps, 'ada', { title: 'Road', visibility: 'private' });
    expect((await refusal(getPlaylist(deps, undefined, 'p1'))).kind).toBe('not-found');
    expect((await refusal(getPlaylist(deps, { id: 'ben' }, 'p1'))).kind).toBe('not-found');
    expect((await getPlaylist(deps, { id: 'ada' }, 'p1')).summary.title).toBe('Road');
    expect((await refusal(updatePlaylist(deps, 'ben', 'p1', { title: 'Taken' }))).kind).toBe('not-found');
    expect((await refusal(setPlaylistTracks(deps, 'ben', 'p1', []))).kind).toBe('not-found');
    expect((await refusal(deletePlaylist(deps, 'ben', 'p1'))).kind).toBe('not-found');
    expect(playlists.all.get('p1')?.title).toBe('Road');
  });

  it('renames, describes and publishes, refusing an empty change', async () => {
    const { deps } = setup();
    await createPlaylist(deps, 'ada', { title: 'Road', description: 'Night', visibility: 'private' });
    const changed = await updatePlaylist(deps, 'ada', 'p1', {
      title: 'Roads',
      description: '',
      visibility: 'public',
    });
    expect(changed.summary).toMatchObject({ title: 'Roads', description: null, visibility: 'public' });
    expect(changed.summary.updatedAt > changed.summary.createdAt).toBe(true);
    expect((await refusal(updatePlaylist(deps, 'ada', 'p1', {}))).message).toBe(
      playlistMessages.nothingToChange,
    );
    await deletePlaylist(deps, 'ada', 'p1');
    expect((await refusal(getPlaylist(deps, { id: 'ada' }, 'p1'))).kind).toBe('not-found');
  });

  it(`refuses the ${PLAYLISTS_MAX + 1}th playlist of one user, and not another's first`, async () => {
    const { deps } = setup();
    for (let i = 0; i < PLAYLISTS_MAX; i++)
      await createPlaylist(deps, 'ada', { title: `${i}`, visibility: 'private' });
    const error = await refusal(createPlaylist(deps, 'ada', { title: 'One more', visibility: 'private' }));
    expect(error).toMatchObject({ kind: 'conflict', message: playlistMessages.tooMany });
    expect((await createPlaylist(deps, 'ben', { title: 'First', visibility: 'private' })).summary.title).toBe(
      'First',
    );
  });

  it("lists a user's public playlists for their creator page, newest first, as a visitor sees them, without their tracks", async () => {
    const { deps } = setup();
    await createPlaylist(deps, 'ada', { title: 'Open', visibility: 'public' });
    await createPlaylist(deps, 'ada', { title: 'Closed', visibility: 'private' });
    await createPlaylist(deps, 'ada', { title: 'Later', visibility: 'public' });
    await setPlaylistTracks(deps, 'ada', 'p1', ['mine-public', 'mine-private']);
    const owner = { handle: 'ada', displayName: 'Ada' };
    const listed = await publicPlaylists(deps).ofOwner('ada', owner);
    expect(listed.map((p) => [p.title, p.ownedByMe, p.owner])).toEqual([
      ['Later', false, owner],
      ['Open', false, owner],
    ]);
    // A card is what the playlist item says: no count, so no track is read for it.
    expect(listed.every((p) => !('trackCount' in p) && !('trackIds' in p))).toBe(true);
  });
});
