import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Playlist } from '@tunesmith/shared/community';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTrack } from '@/testing/fixtures';
import { jsonResponse } from '@/testing/mock-fetch';
import { renderAppAs } from '@/testing/render';

const tracks = [
  makeTrack({ id: 'a', title: 'Alpha', audioUrl: 'https://cdn.test/a.opus' }),
  makeTrack({
    id: 'b',
    title: 'Beta',
    audioUrl: 'https://cdn.test/b.opus',
    creator: { handle: 'ben', displayName: 'Ben' },
  }),
  makeTrack({ id: 'c', title: 'Gamma', audioUrl: 'https://cdn.test/c.opus' }),
];

const playlist = (over: Partial<Playlist> = {}): Playlist => ({
  id: 'p1',
  title: 'Night Drive',
  description: 'Songs for the road',
  visibility: 'public',
  trackCount: tracks.length,
  owner: { handle: 'ada', displayName: 'Ada L.' },
  ownedByMe: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  tracks,
  ...over,
});

/** Audio elements that start and stop as a browser's do, telling the page through their events. */
function playableAudio() {
  const paused = new WeakMap<HTMLMediaElement, boolean>();
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async function (this: HTMLMediaElement) {
    for (const other of document.querySelectorAll('audio')) {
      if (other !== this && paused.get(other) === false) other.pause();
    }
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused.set(this, true);
    this.dispatchEvent(new Event('pause'));
  });
  return { isPlaying: (audio: HTMLAudioElement) => paused.get(audio) === false };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('playlist page', () => {
  it('shows the title, owner, description and tracks in order', async () => {
    renderAppAs('/playlist/p1', null, { 'GET /api/playlists/p1': jsonResponse(playlist()) });

    expect(await screen.findByRole('heading', { level: 1, name: 'Night Drive' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Ada L.' }).getAttribute('href')).toBe('/@ada');
    expect(screen.getByText('Songs for the road')).toBeDefined();
    const list = within(screen.getByRole('list', { name: 'Tracks' }));
    expect(list.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      '1.Alpha',
      '2.Beta',
      '3.Gamma',
    ]);
    expect(list.getByText(/Ben ·/)).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Edit in your library' })).toBeNull();
  });

  it('plays through in order, with Next and Previous, announcing the track now playing', async () => {
    const audio = playableAudio();
    renderAppAs('/playlist/p1', null, { 'GET /api/playlists/p1': jsonResponse(playlist()) });
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Night Drive' });
    const elements = Array.from(document.querySelectorAll('audio'));
    expect(elements.map((a) => a.getAttribute('src'))).toEqual(tracks.map((t) => t.audioUrl));
    const controls = within(screen.getByRole('group', { name: 'Playlist controls' }));
    expect((controls.getByRole('button', { name: /Previous/ }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(controls.getByRole('button', { name: 'Play All' }));
    expect(await controls.findByText('Now playing 1 of 3: Alpha')).toBeDefined();
    expect(audio.isPlaying(elements[0] as HTMLAudioElement)).toBe(true);

    // The first ends: the second starts by itself.
    elements[0]?.dispatchEvent(new Event('ended'));
    expect(await controls.findByText('Now playing 2 of 3: Beta')).toBeDefined();
    expect(audio.isPlaying(elements[1] as HTMLAudioElement)).toBe(true);

    await user.click(controls.getByRole('button', { name: /Next/ }));
    expect(await controls.findByText('Now playing 3 of 3: Gamma')).toBeDefined();
    expect(audio.isPlaying(elements[1] as HTMLAudioElement)).toBe(false);
    expect((controls.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getAllByRole('listitem').find((li) => li.getAttribute('aria-current'))?.textContent,
    ).toContain('Gamma');

    await user.click(controls.getByRole('button', { name: /Previous/ }));
    expect(await controls.findByText('Now playing 2 of 3: Beta')).toBeDefined();
    await user.click(controls.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(audio.isPlaying(elements[1] as HTMLAudioElement)).toBe(false));
    expect(controls.getByRole('button', { name: 'Play' })).toBeDefined();

    // The last one ending stops the list there.
    await user.click(controls.getByRole('button', { name: /Next/ }));
    await controls.findByText('Now playing 3 of 3: Gamma');
    elements[2]?.dispatchEvent(new Event('ended'));
    expect(audio.isPlaying(elements[0] as HTMLAudioElement)).toBe(false);
  });

  it('says so when the playlist is empty, and offers its owner the library', async () => {
    renderAppAs('/playlist/p1', null, {
      'GET /api/playlists/p1': jsonResponse(
        playlist({ tracks: [], trackCount: 0, owner: null, ownedByMe: true }),
      ),
    });
    expect(await screen.findByText('This playlist has no tracks yet.')).toBeDefined();
    expect(screen.getByText('0 tracks')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Edit in your library' }).getAttribute('href')).toBe(
      '/library?tab=playlists',
    );
  });

  it('shows not found for a playlist that is gone or private', async () => {
    renderAppAs('/playlist/nope', null, {
      'GET /api/playlists/nope': jsonResponse({ message: 'Playlist not found' }, 404),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Playlist Not Found' })).toBeDefined();
    expect(screen.getByText('This playlist does not exist, or it is private.')).toBeDefined();
  });
});
