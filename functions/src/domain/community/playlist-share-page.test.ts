import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemoryPlaylists, playlistTracksOf } from '../../testing/in-memory-playlists';
import { inMemorySharePages, SHELL_TEMPLATE } from '../../testing/in-memory-share-pages';
import {
  changeSharedPlaylist,
  type PlaylistShareDeps,
  refreshPlaylistSharePage,
  refreshPlaylistSharePagesOf,
  removeUserPlaylists,
  renderPlaylistSharePage,
  rewriteAllPlaylistSharePages,
} from './playlist-share-page';
import { getPlaylist, type StoredPlaylist } from './playlists';

const at = '2026-11-29T10:00:00.000Z';
const stored = (over: Partial<StoredPlaylist> = {}): StoredPlaylist => ({
  id: 'p1',
  userId: 'ada',
  title: 'Road <Trip>',
  description: 'Songs for "the" night',
  visibility: 'public',
  trackIds: ['private-one', 'first', 'second'],
  createdAt: at,
  updatedAt: at,
  ...over,
});

/** The content of a tag in a document, unescaped as a browser reads it. */
function meta(html: string, key: string): string | undefined {
  const match = new RegExp(
    `<meta (?:name|property)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`,
  ).exec(html);
  return match?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function setup(names: Record<string, { handle: string; displayName: string }> = {}) {
  const generations = inMemoryGenerationStore([
    aGeneration({ id: 'private-one', userId: 'ada', visibility: 'private', audioUrl: 's3://t/p.wav' }),
    aGeneration({ id: 'first', userId: 'ben', audioUrl: 's3://t/f.wav', streamAudioUrl: 's3://t/f.opus' }),
    aGeneration({ id: 'second', userId: 'ada', audioUrl: 's3://t/s.wav' }),
  ]);
  const playlists = inMemoryPlaylists();
  const pages = inMemorySharePages();
  const creators = {
    names: async (ids: readonly string[]) =>
      new Map(ids.flatMap((id) => (names[id] ? [[id, names[id]] as const] : []))),
  };
  const deps: PlaylistShareDeps = {
    playlist: { playlists, tracks: playlistTracksOf(generations), creators },
    pages,
    template: async () => SHELL_TEMPLATE,
    site: { origin: 'https://tunesmith.example', name: async () => 'Tunesmith' },
  };
  return { deps, playlists, pages, generations };
}

describe("a playlist's share page", () => {
  it("names the playlist, its description and owner, and offers its first listed track's audio", async () => {
    const { deps } = setup({ ada: { handle: 'ada', displayName: 'Ada L.' } });
    await deps.playlist.playlists.create(stored(), 200);
    const html = renderPlaylistSharePage(SHELL_TEMPLATE, await getPlaylist(deps.playlist, undefined, 'p1'), {
      origin: 'https://tunesmith.example',
      name: 'Tunesmith',
    });
    expect(html).toContain('<title>Road &lt;Trip&gt; | Tunesmith</title>');
    expect(html).not.toContain('Create Music with AI');
    expect(html).not.toContain("The shell's own description.");
    expect(meta(html, 'og:type')).toBe('music.playlist');
    expect(meta(html, 'og:title')).toBe('Road <Trip>');
    expect(meta(html, 'og:description')).toBe('Songs for "the" night');
    expect(meta(html, 'og:url')).toBe('https://tunesmith.example/playlist/p1');
    expect(meta(html, 'music:creator')).toBe('Ada L.');
    // The private track is passed over: a visitor could not play it.
    expect(meta(html, 'og:audio')).toBe('https://tunesmith.example/api/track/first/audio');
    expect(meta(html, 'og:audio:secure_url')).toBe('https://tunesmith.example/api/track/first/audio');
    expect(meta(html, 'og:audio:type')).toBe('audio/ogg');
    expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');
  });

  it('says whose it is when it has no description, and names nobody without a public profile', async () => {
    const { deps } = setup();
    await deps.playlist.playlists.create(stored({ description: null, trackIds: ['private-one'] }), 200);
    const html = renderPlaylistSharePage(SHELL_TEMPLATE, await getPlaylist(deps.playlist, undefined, 'p1'), {
      origin: 'http://127.0.0.1:3000',
      name: 'Tunesmith',
    });
    expect(meta(html, 'description')).toBe('A playlist on Tunesmith.');
    expect(meta(html, 'music:creator')).toBeUndefined();
    expect(meta(html, 'og:audio')).toBeUndefined();
  });

  it('is written for a public playlist, removed when it is made private or deleted', async () => {
    const { deps, playlists, pages } = setup();
    await playlists.create(stored(), 200);
    expect(await refreshPlaylistSharePage(deps, 'p1')).toBe('published');
    expect(pages.documents.get('p1')).toContain('Road &lt;Trip&gt;');

    await changeSharedPlaylist(deps, 'p1', { hides: true }, () =>
      playlists.update('p1', 'ada', { visibility: 'private', updatedAt: at }),
    );
    expect(pages.documents.has('p1')).toBe(false);
    await changeSharedPlaylist(deps, 'p1', { hides: false }, () =>
      playlists.update('p1', 'ada', { visibility: 'public', title: 'Renamed', updatedAt: at }),
    );
    expect(pages.documents.get('p1')).toContain('Renamed');
    await changeSharedPlaylist(deps, 'p1', { hides: true }, () => playlists.delete('p1', 'ada'));
    expect(pages.documents.has('p1')).toBe(false);
  });

  it('is written again from a new shell for every public playlist; a playlist made private meanwhile loses its document', async () => {
    const { deps, playlists, pages } = setup();
    await playlists.create(stored(), 200);
    await playlists.create(stored({ id: 'p2', title: 'Second' }), 200);
    await refreshPlaylistSharePage(deps, 'p1');
    await refreshPlaylistSharePage(deps, 'p2');
    // Made private without its document removed (a failure since): the rewrite takes it away.
    await playlists.update('p2', 'ada', { visibility: 'private', updatedAt: at });
    const deployed = SHELL_TEMPLATE.replace('/assets/index-abc.js', '/assets/index-new.js');

    const counts = await rewriteAllPlaylistSharePages(
      { ...deps, template: async () => deployed },
      async () => [...pages.documents.keys()],
    );
    expect(counts).toEqual({ written: 1, removed: 1 });
    expect([...pages.documents.keys()]).toEqual(['p1']);
    expect(pages.documents.get('p1')).toContain('/assets/index-new.js');
  });

  it('is not changed when its removal fails before a change that would hide it', async () => {
    const { deps, playlists } = setup();
    await playlists.create(stored(), 200);
    const failing = { ...deps, pages: inMemorySharePages({ failRemove: () => true }) };
    await expect(
      changeSharedPlaylist(failing, 'p1', { hides: true }, () => playlists.delete('p1', 'ada')),
    ).rejects.toThrow('site bucket unavailable');
    expect(playlists.all.has('p1')).toBe(true);
  });

  it("follows its owner's public name, and goes with the account", async () => {
    const names: Record<string, { handle: string; displayName: string }> = {};
    const { deps, playlists, pages } = setup(names);
    await playlists.create(stored(), 200);
    await playlists.create(stored({ id: 'p2', visibility: 'private' }), 200);
    await playlists.create(stored({ id: 'p3', userId: 'ben' }), 200);
    await refreshPlaylistSharePage(deps, 'p1');
    await refreshPlaylistSharePage(deps, 'p3');
    names.ada = { handle: 'ada', displayName: 'Ada L.' };
    await refreshPlaylistSharePagesOf(deps, 'ada');
    expect(meta(pages.documents.get('p1') ?? '', 'music:creator')).toBe('Ada L.');
    expect(pages.documents.has('p2')).toBe(false);

    await removeUserPlaylists({ playlists, pages }, 'ada');
    expect([...playlists.all.keys()]).toEqual(['p3']);
    expect([...pages.documents.keys()]).toEqual(['p3']);
  });

  it("never waits on the site bucket for a private playlist's removal with its account", async () => {
    const { playlists } = setup();
    await playlists.create(stored({ visibility: 'private' }), 200);
    const failing = inMemorySharePages({ failRemove: () => true });
    await removeUserPlaylists({ playlists, pages: failing }, 'ada');
    expect(playlists.all.size).toBe(0);
    await playlists.create(stored({ id: 'p2' }), 200);
    await expect(removeUserPlaylists({ playlists, pages: failing }, 'ada')).rejects.toThrow(
      'site bucket unavailable',
    );
    expect([...playlists.all.keys()]).toEqual(['p2']);
  });
});
