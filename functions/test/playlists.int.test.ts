import { PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  PLAYLIST_TRACKS_MAX,
  PLAYLISTS_MAX,
  type Playlist,
  type PlaylistCard,
  playlistMessages,
  playlistSchema,
} from '@tunesmith/shared/community';
import { afterAll, describe, expect, it } from 'vitest';
import { seedPlaylists } from '../../scripts/seed-load';
import { dynamoCreatorNames } from '../src/adapters/dynamo/creator-names';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import {
  dynamoPlaylistStore,
  dynamoPlaylistTracks,
  movePlaylistTracksApart,
} from '../src/adapters/dynamo/playlist-store';
import { s3Of } from '../src/adapters/s3/client';
import { s3PlaylistSharePages } from '../src/adapters/share/playlist-share-pages';
import { documentsIn } from '../src/adapters/share/share-document-list';
import { playlistKeys } from '../src/data/community-keys';
import {
  PLAYLIST_SHARE_AREA,
  playlistSharePageKey,
  rewriteAllPlaylistSharePages,
} from '../src/domain/community/playlist-share-page';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser } from './support/http';
import { storage } from './support/storage';
import { storedTrack as storedTrackOf } from './support/tracks';

// Playlists through the HTTP API: made, read, changed and deleted by their owner only; the order
// kept as sent; tracks that stop being listed leaving others' view but not their owner's; the cap
// on playlists per user held under racing creates.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const playlists = dynamoPlaylistStore(store.documents, store.tableName);
afterAll(() => {
  files.close();
  store.close();
});

const storedTrack = (userId: string, over: Parameters<typeof storedTrackOf>[2] = {}) =>
  storedTrackOf({ generations, files }, userId, over);

async function newPlaylist(browser: Browser, body: Record<string, unknown> = {}): Promise<Playlist> {
  const res = await browser.post('/api/playlists', { title: 'Road trip', visibility: 'public', ...body });
  expect(res.status).toBe(201);
  return playlistSchema.parse(res.body);
}

const trackIds = (body: Record<string, unknown>) => (body.tracks as { id: string }[]).map((t) => t.id);

describe('playlists', () => {
  it('are made, read, renamed, made private and deleted by their owner', async () => {
    const { browser } = await signedInUser();
    const made = await newPlaylist(browser, { title: '  Road trip ', description: 'For the night drive' });
    expect(made).toMatchObject({
      title: 'Road trip',
      description: 'For the night drive',
      visibility: 'public',
      trackCount: 0,
      owner: null,
      ownedByMe: true,
      tracks: [],
    });

    const listed = await browser.get('/api/playlists');
    expect(listed.status).toBe(200);
    expect(listed.body.playlists).toEqual([
      {
        id: made.id,
        title: 'Road trip',
        description: 'For the night drive',
        visibility: 'public',
        owner: null,
        ownedByMe: true,
        createdAt: made.createdAt,
        updatedAt: made.updatedAt,
      },
    ]);

    // A visitor opens a public playlist.
    const visitor = new Browser();
    const seen = await visitor.get(`/api/playlists/${made.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ title: 'Road trip', ownedByMe: false, owner: null });
    expect(JSON.stringify(seen.body)).not.toContain('userId');

    const changed = await browser.call('PATCH', `/api/playlists/${made.id}`, {
      title: 'Night drive',
      visibility: 'private',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      title: 'Night drive',
      visibility: 'private',
      description: 'For the night drive',
    });
    expect((await visitor.get(`/api/playlists/${made.id}`)).status).toBe(404);
    expect((await browser.get(`/api/playlists/${made.id}`)).status).toBe(200);

    expect((await browser.call('PATCH', `/api/playlists/${made.id}`, { title: '' })).status).toBe(400);
    expect((await browser.call('DELETE', `/api/playlists/${made.id}`)).status).toBe(204);
    expect((await browser.get(`/api/playlists/${made.id}`)).status).toBe(404);
    expect((await browser.get('/api/playlists')).body.playlists).toEqual([]);
  });

  it("answers 404 to anyone changing or deleting another's playlist, and 401 to a visitor", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const made = await newPlaylist(owner.browser);
    const path = `/api/playlists/${made.id}`;
    for (const res of [
      await other.browser.call('PATCH', path, { title: 'Mine now' }),
      await other.browser.put(`${path}/tracks`, { trackIds: [] }),
      // What is sent does not matter: another's playlist is not found before the body is read.
      await other.browser.put(`${path}/tracks`, {}),
      await other.browser.call('PATCH', path, { title: '' }),
      await other.browser.call('DELETE', path),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(playlistMessages.notFound);
    }
    const visitor = new Browser();
    expect((await visitor.post('/api/playlists', { title: 'x', visibility: 'public' })).status).toBe(401);
    expect((await visitor.get('/api/playlists')).status).toBe(401);
    expect((await owner.browser.get(path)).body).toMatchObject({ title: 'Road trip' });
  });

  it('keeps the order sent, one of each track, at most 500, only tracks the owner may see', async () => {
    const { browser, id } = await signedInUser();
    const other = await signedInUser();
    const mine = await storedTrack(id);
    const minePrivate = await storedTrack(id, { visibility: 'private' });
    const theirs = await storedTrack(other.id);
    const theirsPrivate = await storedTrack(other.id, { visibility: 'private' });
    const made = await newPlaylist(browser);
    const path = `/api/playlists/${made.id}/tracks`;

    const set = await browser.put(path, { trackIds: [theirs.id, minePrivate.id, mine.id, theirs.id] });
    expect(set.status).toBe(200);
    expect(trackIds(set.body)).toEqual([theirs.id, minePrivate.id, mine.id]);
    expect(set.body.trackCount).toBe(3);
    // Playable as listed: signed audio for each.
    expect(
      (set.body.tracks as { audioUrl: string | null }[]).every((t) => typeof t.audioUrl === 'string'),
    ).toBe(true);

    const reordered = await browser.put(path, { trackIds: [mine.id, theirs.id] });
    expect(trackIds(reordered.body)).toEqual([mine.id, theirs.id]);
    expect(trackIds((await browser.get(`/api/playlists/${made.id}`)).body)).toEqual([mine.id, theirs.id]);

    const refused = await browser.put(path, { trackIds: [mine.id, theirsPrivate.id, 'no-such-track'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(playlistMessages.tracksNotAllowed([theirsPrivate.id, 'no-such-track']));
    const tooMany = Array.from({ length: PLAYLIST_TRACKS_MAX + 1 }, (_, i) => `t${i}`);
    expect((await browser.put(path, { trackIds: tooMany })).status).toBe(400);
    // Nothing written by the refused calls.
    expect(trackIds((await browser.get(`/api/playlists/${made.id}`)).body)).toEqual([mine.id, theirs.id]);
  });

  it('holds 500 tracks in order', async () => {
    const { browser, id } = await signedInUser();
    const track = await storedTrack(id);
    const made = await newPlaylist(browser);
    // Ids of tracks that do not exist are refused, so the 500 are one real track and its copies' ids.
    const ids = [track.id];
    for (let i = 1; i < PLAYLIST_TRACKS_MAX; i++) {
      ids.push((await storedTrack(id, { audioUrl: track.audioUrl })).id);
    }
    const reversed = [...ids].reverse();
    const set = await browser.put(`/api/playlists/${made.id}/tracks`, { trackIds: reversed });
    expect(set.status).toBe(200);
    expect(trackIds(set.body)).toEqual(reversed);
    expect(set.body.trackCount).toBe(PLAYLIST_TRACKS_MAX);
  }, 120_000);

  it("drops tracks made private, hidden or deleted from others' view, not from their owner's", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const staysListed = await storedTrack(other.id);
    const madePrivate = await storedTrack(owner.id);
    const hidden = await storedTrack(other.id);
    const deleted = await storedTrack(owner.id);
    const made = await newPlaylist(owner.browser);
    const all = [staysListed.id, madePrivate.id, hidden.id, deleted.id];
    expect((await owner.browser.put(`/api/playlists/${made.id}/tracks`, { trackIds: all })).status).toBe(200);
    const visitor = new Browser();
    expect(trackIds((await visitor.get(`/api/playlists/${made.id}`)).body)).toEqual(all);

    // Made private as its owner's paid plan allows (the table, as the change writes it), hidden after a
    // report, and deleted by its owner.
    await generations.update(madePrivate.id, (g) => ({ ...g, visibility: 'private' }));
    await generations.update(hidden.id, (g) => ({ ...g, hidden: true }));
    expect((await owner.browser.call('DELETE', `/api/generation/${deleted.id}`)).status).toBe(204);

    const asVisitor = await visitor.get(`/api/playlists/${made.id}`);
    expect(trackIds(asVisitor.body)).toEqual([staysListed.id]);
    expect(asVisitor.body.trackCount).toBe(1);
    const asOther = await other.browser.get(`/api/playlists/${made.id}`);
    // The hidden track's own owner still sees it; nobody sees another's private track.
    expect(trackIds(asOther.body)).toEqual([staysListed.id, hidden.id]);
    const asOwner = await owner.browser.get(`/api/playlists/${made.id}`);
    expect(trackIds(asOwner.body)).toEqual([staysListed.id, madePrivate.id]);
    expect(asOwner.body.trackCount).toBe(2);
  });

  it("lists its owner's public playlists on their creator page, newest first, read without their tracks", async () => {
    const ada = await signedInUser();
    const handle = `lists-${ada.id.slice(0, 8)}`;
    expect((await ada.browser.put('/api/user/public-profile', { handle, displayName: 'Ada' })).status).toBe(
      200,
    );
    const track = await storedTrack(ada.id);
    const first = await newPlaylist(ada.browser, { title: 'First', description: 'Old roads' });
    await newPlaylist(ada.browser, { title: 'Hidden away', visibility: 'private' });
    const last = await newPlaylist(ada.browser, { title: 'Last' });
    expect(
      (await ada.browser.put(`/api/playlists/${first.id}/tracks`, { trackIds: [track.id] })).status,
    ).toBe(200);

    const page = await new Browser().get(`/api/creators/${handle}`);
    expect(page.status).toBe(200);
    expect(page.body.playlists).toEqual([
      expect.objectContaining({
        id: last.id,
        title: 'Last',
        owner: { handle, displayName: 'Ada' },
        ownedByMe: false,
      }),
      expect.objectContaining({
        id: first.id,
        title: 'First',
        description: 'Old roads',
        visibility: 'public',
      }),
    ]);
    // Nothing on a card needs the playlist's tracks read: the playlist's own page counts them.
    expect((page.body.playlists as Record<string, unknown>[]).some((p) => 'trackCount' in p)).toBe(false);
    const heads = await playlists.headsByOwner(ada.id, 'public');
    expect(heads.map((p) => p.id)).toEqual([last.id, first.id]);
    expect(heads.some((p) => 'trackIds' in p)).toBe(false);
    expect((await new Browser().get(`/api/playlists/${first.id}`)).body.trackCount).toBe(1);
  });

  it("keeps a playlist's tracks apart from its card, and reads and moves one written before that", async () => {
    const { browser, id: userId } = await signedInUser();
    const [one, two] = [await storedTrack(userId), await storedTrack(userId)];
    const raw = async (key: Record<string, string>) =>
      (
        await store.documents.send(
          new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }),
        )
      ).Item;

    const made = await newPlaylist(browser, { title: 'Apart' });
    expect(
      (await browser.put(`/api/playlists/${made.id}/tracks`, { trackIds: [two.id, one.id] })).status,
    ).toBe(200);
    expect(await raw(playlistKeys.playlist(made.id))).not.toHaveProperty('trackIds');
    expect((await raw(playlistKeys.tracks(made.id)))?.trackIds).toEqual([two.id, one.id]);

    // A playlist as decision 058 wrote it: the ids on the card, no item of their own.
    const legacy = (await newPlaylist(browser, { title: 'Before', visibility: 'private' })).id;
    const card = (await raw(playlistKeys.playlist(legacy))) as Record<string, unknown>;
    await store.documents.send(
      new PutCommand({ TableName: store.tableName, Item: { ...card, trackIds: [one.id, two.id] } }),
    );
    const read = async (playlist: string) => trackIds((await browser.get(`/api/playlists/${playlist}`)).body);
    expect(await read(legacy)).toEqual([one.id, two.id]);
    const listed = (await browser.get('/api/playlists')).body.playlists as PlaylistCard[];
    expect(listed.map((p) => p.title)).toEqual(['Before', 'Apart']);
    expect(listed.some((p) => 'trackIds' in p)).toBe(false);

    expect(
      (await movePlaylistTracksApart(store.documents, store.tableName, { dryRun: true })).found,
    ).toBeGreaterThan(0);
    expect(await raw(playlistKeys.playlist(legacy))).toHaveProperty('trackIds');
    const moved = await movePlaylistTracksApart(store.documents, store.tableName, { dryRun: false });
    expect(moved.moved).toBeGreaterThan(0);
    expect(await raw(playlistKeys.playlist(legacy))).not.toHaveProperty('trackIds');
    expect((await raw(playlistKeys.tracks(legacy)))?.trackIds).toEqual([one.id, two.id]);
    expect(await read(legacy)).toEqual([one.id, two.id]);
    // Deleting a playlist takes both its items.
    expect((await browser.call('DELETE', `/api/playlists/${legacy}`)).status).toBe(204);
    expect(await raw(playlistKeys.playlist(legacy))).toBeUndefined();
    expect(await raw(playlistKeys.tracks(legacy))).toBeUndefined();
  });

  it(`keeps a user to ${PLAYLISTS_MAX} playlists when creates race`, async () => {
    const { browser, id } = await signedInUser();
    // Five short of the cap, then twenty at once: exactly five are made.
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: playlistKeys.count(id),
        UpdateExpression: 'SET playlists = :n',
        ExpressionAttributeValues: { ':n': PLAYLISTS_MAX - 5 },
      }),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browser.post('/api/playlists', { title: `P${i}`, visibility: 'private' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    expect(answers.find((a) => a.status === 409)?.body.message).toBe(playlistMessages.tooMany);
    expect((await browser.get('/api/playlists')).body.playlists).toHaveLength(5);
    const count = await store.documents.send(
      new GetCommand({ TableName: store.tableName, Key: playlistKeys.count(id), ConsistentRead: true }),
    );
    expect(count.Item?.playlists).toBe(PLAYLISTS_MAX);

    // A delete makes room for one more; deletes of the same playlist at once count once.
    const first = (await browser.get('/api/playlists')).body.playlists as PlaylistCard[];
    const target = first[0]?.id ?? '';
    const deletes = await Promise.all(
      Array.from({ length: 5 }, () => browser.call('DELETE', `/api/playlists/${target}`)),
    );
    expect(deletes.map((d) => d.status).sort()).toEqual([204, 404, 404, 404, 404]);
    expect((await browser.post('/api/playlists', { title: 'Again', visibility: 'private' })).status).toBe(
      201,
    );
    expect((await browser.post('/api/playlists', { title: 'Over', visibility: 'private' })).status).toBe(409);
    await playlists.removeAll(id);
    const after = await store.documents.send(
      new GetCommand({ TableName: store.tableName, Key: playlistKeys.count(id), ConsistentRead: true }),
    );
    expect(after.Item).toBeUndefined();
    expect(await playlists.headsByOwner(id)).toEqual([]);
  });

  it("previews a public playlist in chat apps, with its first track's audio, and nothing once private", async () => {
    const { browser, id } = await signedInUser();
    const track = await storedTrack(id, { title: 'Opening' });
    const made = await newPlaylist(browser, { title: 'Share <me>', description: 'For "friends"' });
    expect((await browser.put(`/api/playlists/${made.id}/tracks`, { trackIds: [track.id] })).status).toBe(
      200,
    );

    // As a link preview reads it: a plain GET with no session.
    const page = async () => (await fetch(`${apiUrl}/playlist/${made.id}`)).text();
    const html = await page();
    expect(html).toContain('<title>Share &lt;me&gt; | ');
    expect(meta(html, 'og:type')).toBe('music.playlist');
    expect(meta(html, 'og:title')).toBe('Share <me>');
    expect(meta(html, 'og:description')).toBe('For "friends"');
    expect(meta(html, 'og:url')).toBe(`${apiUrl}/playlist/${made.id}`);
    const audio = meta(html, 'og:audio');
    expect(audio).toBe(`${apiUrl}/api/track/${track.id}/audio`);
    const redirect = await fetch(audio ?? '', { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    // A signed-in browser gets the app's shell, as for a track.
    const signedIn = await (
      await fetch(`${apiUrl}/playlist/${made.id}`, { headers: { cookie: 'ts_signed_in=1' } })
    ).text();
    expect(signedIn).not.toContain('og:title');

    const changed = await browser.call('PATCH', `/api/playlists/${made.id}`, { title: 'Renamed' });
    expect(changed.status).toBe(200);
    expect(meta(await page(), 'og:title')).toBe('Renamed');
    expect((await browser.call('PATCH', `/api/playlists/${made.id}`, { visibility: 'private' })).status).toBe(
      200,
    );
    const hidden = await page();
    expect(hidden).not.toContain('og:title');
    expect(hidden).not.toContain('Renamed');

    // Another user's attempt to delete it leaves it, and its owner's delete takes its page with it.
    expect((await browser.call('PATCH', `/api/playlists/${made.id}`, { visibility: 'public' })).status).toBe(
      200,
    );
    const other = await signedInUser();
    expect((await other.browser.call('DELETE', `/api/playlists/${made.id}`)).status).toBe(404);
    expect(meta(await page(), 'og:title')).toBe('Renamed');
    expect((await browser.call('DELETE', `/api/playlists/${made.id}`)).status).toBe(204);
    expect(await page()).not.toContain('Renamed');
  });

  it('names its owner in the preview as their public profile is made, renamed and withdrawn', async () => {
    const { browser, id } = await signedInUser();
    const track = await storedTrack(id, { title: 'Opening' });
    const made = await newPlaylist(browser, { title: 'Named' });
    expect((await browser.put(`/api/playlists/${made.id}/tracks`, { trackIds: [track.id] })).status).toBe(
      200,
    );
    const page = async () => (await fetch(`${apiUrl}/playlist/${made.id}`)).text();
    expect(meta(await page(), 'music:creator')).toBeUndefined();

    const handle = `owner${id.slice(0, 8).replace(/[^a-z0-9]/gi, '')}`;
    const profile = { handle, displayName: 'Ada Lovelace' };
    expect((await browser.put('/api/user/public-profile', profile)).status).toBe(200);
    expect(meta(await page(), 'music:creator')).toBe('Ada Lovelace');
    expect(meta(await page(), 'og:description')).toContain('by Ada Lovelace');

    expect(
      (await browser.put('/api/user/public-profile', { ...profile, displayName: 'Countess' })).status,
    ).toBe(200);
    expect(meta(await page(), 'music:creator')).toBe('Countess');

    // Private again: the preview says nothing of who they were.
    expect((await browser.call('DELETE', '/api/user/public-profile')).status).toBe(204);
    const html = await page();
    expect(meta(html, 'og:title')).toBe('Named');
    expect(html).not.toContain('Countess');
    expect(html).not.toContain('Ada Lovelace');
  });

  it("is written again from a deploy's new shell, and a document left for a playlist now gone is removed", async () => {
    const { browser, id } = await signedInUser();
    const track = await storedTrack(id, { title: 'Opening' });
    const made = await newPlaylist(browser, { title: 'Redeployed' });
    expect((await browser.put(`/api/playlists/${made.id}/tracks`, { trackIds: [track.id] })).status).toBe(
      200,
    );
    const gone = `gone-${made.id}`;
    await files.client.send(
      new PutObjectCommand({
        Bucket: files.siteBucket,
        Key: playlistSharePageKey(gone),
        Body: '<html></html>',
      }),
    );
    const s3 = s3Of(files.client);
    const deployed =
      '<!doctype html><html><head><title>New shell</title></head><body><div id="root"></div><script type="module" src="/assets/index-deployed.js"></script></body></html>';
    const counts = await rewriteAllPlaylistSharePages(
      {
        playlist: {
          playlists,
          tracks: dynamoPlaylistTracks(store.documents, store.tableName),
          creators: dynamoCreatorNames(store.documents, store.tableName),
        },
        pages: s3PlaylistSharePages(s3, files.siteBucket),
        template: async () => deployed,
        site: { origin: apiUrl, name: async () => 'Tunesmith' },
      },
      () => documentsIn(s3, files.siteBucket, PLAYLIST_SHARE_AREA),
    );
    expect(counts.written).toBeGreaterThanOrEqual(1);
    expect(counts.removed).toBeGreaterThanOrEqual(1);
    const html = await (await fetch(`${apiUrl}/playlist/${made.id}`)).text();
    expect(html).toContain('/assets/index-deployed.js');
    expect(meta(html, 'og:title')).toBe('Redeployed');
    expect(await files.exists(files.siteBucket, playlistSharePageKey(gone))).toBe(false);
  });

  it("seed:load's playlists step writes playlists the API reads, with exact counts (a small run)", async () => {
    const ada = await signedInUser();
    const ben = await signedInUser();
    const listed = [await storedTrack(ada.id), await storedTrack(ben.id), await storedTrack(ben.id)];
    const hidden = await storedTrack(ben.id, { visibility: 'private' });
    const made = await seedPlaylists(store.documents, store.tableName, {
      userIds: [ada.id, ben.id],
      tracks: [...listed, hidden],
      count: 7,
    });
    expect(made).toBe(7);
    const adas = (await ada.browser.get('/api/playlists')).body.playlists as PlaylistCard[];
    const bens = (await ben.browser.get('/api/playlists')).body.playlists as PlaylistCard[];
    expect([adas.length, bens.length]).toEqual([4, 3]);
    for (const [id, count] of [
      [ada.id, 4],
      [ben.id, 3],
    ] as const) {
      const item = await store.documents.send(
        new GetCommand({ TableName: store.tableName, Key: playlistKeys.count(id), ConsistentRead: true }),
      );
      expect(item.Item?.playlists).toBe(count);
    }
    const open = adas.filter((p) => p.visibility === 'public');
    expect(open.length).toBe(2);
    for (const card of open) {
      const seen = await new Browser().get(`/api/playlists/${card.id}`);
      expect(seen.status).toBe(200);
      const ids = trackIds(seen.body);
      expect(ids.length).toBe(seen.body.trackCount);
      expect(ids.length).toBe(3);
      expect(ids.every((id) => listed.some((t) => t.id === id))).toBe(true);
    }
    await playlists.removeAll(ada.id);
    expect((await ada.browser.get('/api/playlists')).body.playlists).toEqual([]);

    // With `tracksEach`, each playlist holds that many, none shared while the listed tracks last.
    const cy = await signedInUser();
    const fourth = await storedTrack(ada.id);
    await seedPlaylists(store.documents, store.tableName, {
      userIds: [cy.id],
      tracks: [...listed, fourth, hidden],
      count: 2,
      tracksEach: 2,
    });
    const cys = (await cy.browser.get('/api/playlists')).body.playlists as PlaylistCard[];
    const held = await Promise.all(
      cys.map(async (p) => trackIds((await cy.browser.get(`/api/playlists/${p.id}`)).body)),
    );
    expect(held.map((ids) => ids.length)).toEqual([2, 2]);
    expect(new Set(held.flat()).size).toBe(4);
    expect(held.flat()).not.toContain(hidden.id);
  });
});

/** The content of a preview tag, unescaped as a browser reads it. */
function meta(html: string, key: string): string | undefined {
  const match = new RegExp(
    `<meta (?:name|property)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`,
  ).exec(html);
  return match?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
