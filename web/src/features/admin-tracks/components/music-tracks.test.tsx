import { screen, waitFor, within } from '@testing-library/react';
import type { AdminTrack } from '@tunesmith/shared/admin';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const track = (overrides: Partial<AdminTrack> = {}): AdminTrack => ({
  id: 't1',
  userId: 'u1',
  title: 'Night Drive',
  tags: 'synthwave, retro',
  lyrics: `${'la '.repeat(60)}END`,
  duration: 42,
  status: 'completed',
  type: 'text-to-music',
  visibility: 'public',
  showInGallery: true,
  audioUrl: 'http://127.0.0.1/a.wav',
  createdAt: '2026-11-20T10:00:00.000Z',
  instrumental: false,
  parentId: null,
  edit: null,
  peaksUrl: null,
  loudness: null,
  license: null,
  likes: 0,
  plays: 0,
  remixable: false,
  creator: null,
  remixOf: null,
  downloadReady: true,
  analysis: null,
  ...overrides,
});

function renderTracks(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
    'GET /api/admin/tracks': jsonResponse({
      tracks: [
        track(),
        track({ id: 't2', title: 'Secret', visibility: 'private', type: 'audio-to-music', lyrics: null }),
        track({ id: 't3', title: 'Busy', status: 'generating', audioUrl: null }),
        track({ id: 't4', title: 'Reported', hidden: true }),
      ],
      counts: { total: 3, public: 2, galleryVisible: 2, hiddenFromGallery: 0 },
      nextCursor: null,
    }),
    ...routes,
  });
  const bodies = (method: string, path: string) =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === path && init?.method === method)
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...renderApp('/admin/tracks'), fetchMock, bodies };
}

const card = async (title: string) => within(await screen.findByRole('article', { name: title }));

describe('Music Tracks', () => {
  it('shows the counters and each track with what may be done to it', async () => {
    renderTracks();
    const night = await card('Night Drive');
    expect(screen.getByText('Total Tracks').nextElementSibling?.textContent).toBe('3');
    expect(screen.getByText('Hidden from Gallery').nextElementSibling?.textContent).toBe('0');
    expect(night.getByText('synthwave, retro')).toBeDefined();
    expect(night.getByText(`${`${'la '.repeat(60)}END`.slice(0, 100)}...`)).toBeDefined();
    expect(night.getByText(/42s/)).toBeDefined();
    expect(screen.getByRole('button', { name: 'Download Night Drive' })).toBeDefined();
    expect(screen.getByRole('switch', { name: 'Show Night Drive in Gallery' })).toBeDefined();
    // Private or unfinished tracks have no gallery switch; unfinished ones no download.
    expect(screen.queryByRole('switch', { name: 'Show Secret in Gallery' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Show Busy in Gallery' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download Busy' })).toBeNull();
    expect((await card('Secret')).getByText('Audio to Music')).toBeDefined();
    expect((await card('Reported')).getByText('Hidden after a report')).toBeDefined();
    expect(night.queryByText('Hidden after a report')).toBeNull();
  });

  it('shows the empty state and filters on the server', async () => {
    const { user, fetchMock } = renderTracks({
      'GET /api/admin/tracks': (request) =>
        jsonResponse({
          tracks: new URL(request.url).searchParams.get('status') === 'failed' ? [] : [track()],
          counts: { total: 1, public: 1, galleryVisible: 1, hiddenFromGallery: 0 },
          nextCursor: null,
        }),
    });
    await card('Night Drive');
    await user.selectOptions(screen.getByLabelText('Status'), 'Failed');
    expect(await screen.findByText('No tracks found')).toBeDefined();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('status=failed'))).toBe(true);
  });

  it('renames in place: Enter saves, Escape cancels, empty titles are refused', async () => {
    const { user, bodies } = renderTracks({
      'PATCH /api/admin/tracks/t1/title': jsonResponse(track({ title: 'Day Drive' })),
    });
    await user.click(await screen.findByRole('button', { name: 'Night Drive, edit title' }));
    await user.clear(screen.getByLabelText('Track title'));
    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('Track title')).toBeNull();
    expect(bodies('PATCH', '/api/admin/tracks/t1/title')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Night Drive, edit title' }));
    await user.clear(screen.getByLabelText('Track title'));
    await user.keyboard('   {Enter}');
    expect(screen.getByText('Title cannot be empty.')).toBeDefined();
    await user.clear(screen.getByLabelText('Track title'));
    await user.type(screen.getByLabelText('Track title'), ' Day Drive {Enter}');
    await waitFor(() =>
      expect(bodies('PATCH', '/api/admin/tracks/t1/title')).toEqual([{ title: 'Day Drive' }]),
    );
    expect(await screen.findByRole('button', { name: 'Day Drive, edit title' })).toBeDefined();
  });

  it('hides a track from the gallery and says when it fails', async () => {
    const { user, bodies } = renderTracks({
      'PATCH /api/admin/tracks/t1/gallery-visibility': () => new Response('', { status: 500 }),
    });
    await user.click(await screen.findByRole('switch', { name: 'Show Night Drive in Gallery' }));
    const toast = within(await findToast());
    expect(toast.getByText('Update Failed')).toBeDefined();
    expect(toast.getByText('Failed to update track visibility.')).toBeDefined();
    expect(bodies('PATCH', '/api/admin/tracks/t1/gallery-visibility')).toEqual([{ showInGallery: false }]);
  });

  it('deletes after confirmation and says when it fails', async () => {
    const { user } = renderTracks({
      'DELETE /api/admin/tracks/t1': () => new Response('', { status: 500 }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Night Drive' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete this track?' })).getByRole('button', {
        name: 'Delete Track',
      }),
    );
    const toast = within(await findToast());
    expect(toast.getByText('Delete Failed')).toBeDefined();
    expect(toast.getByText('Failed to delete track.')).toBeDefined();
  });
});
