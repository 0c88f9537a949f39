import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Playlist, PlaylistSummary } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { makeSubscriber, makeTrack } from '@/testing/fixtures';
import { jsonResponse } from '@/testing/mock-fetch';
import { findToast, renderAppAs } from '@/testing/render';
import { moved } from './my-playlists';

const at = '2026-11-01T00:00:00.000Z';
const summary = (over: Partial<PlaylistSummary> = {}): PlaylistSummary => ({
  id: 'p1',
  title: 'Night Drive',
  description: null,
  visibility: 'public',
  trackCount: 0,
  owner: null,
  ownedByMe: true,
  createdAt: at,
  updatedAt: at,
  ...over,
});

/** A server holding one user's playlists, answering the playlist calls as the API does. */
function playlistServer(initial: Playlist[]) {
  const playlists = new Map(initial.map((p) => [p.id, p]));
  const tracks = new Map(initial.flatMap((p) => p.tracks.map((t) => [t.id, t] as const)));
  const bodies: { method: string; path: string; body: unknown }[] = [];
  const full = (p: Playlist) => ({ ...p, trackCount: p.tracks.length });
  const record = async (request: Request) => {
    const body = await request.json().catch(() => undefined);
    bodies.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body as Record<string, unknown>;
  };
  const routes: Record<string, (request: Request) => Promise<Response> | Response> = {
    'GET /api/playlists': () =>
      // Cards: the list carries no tracks and no count of them (decision 062).
      jsonResponse({
        playlists: [...playlists.values()].map(({ tracks: _t, trackCount: _c, ...card }) => card),
      }),
    'POST /api/playlists': async (request) => {
      const body = await record(request);
      const made: Playlist = {
        ...summary({ id: `p${playlists.size + 1}` }),
        title: String(body.title),
        description: (body.description as string) || null,
        visibility: body.visibility as 'public' | 'private',
        tracks: [],
      };
      playlists.set(made.id, made);
      return jsonResponse(made, 201);
    },
  };
  for (const id of ['p1', 'p2', 'p3']) {
    routes[`GET /api/playlists/${id}`] = () => {
      const found = playlists.get(id);
      return found ? jsonResponse(full(found)) : jsonResponse({ message: 'Playlist not found' }, 404);
    };
    routes[`PATCH /api/playlists/${id}`] = async (request) => {
      const body = await record(request);
      const next = { ...(playlists.get(id) as Playlist), ...body } as Playlist;
      playlists.set(id, next);
      return jsonResponse(full(next));
    };
    routes[`PUT /api/playlists/${id}/tracks`] = async (request) => {
      const body = await record(request);
      const ids = body.trackIds as string[];
      const next = {
        ...(playlists.get(id) as Playlist),
        tracks: ids.map((t) => tracks.get(t) ?? makeTrack({ id: t })),
      };
      playlists.set(id, next);
      return jsonResponse(full(next));
    };
    routes[`DELETE /api/playlists/${id}`] = (request) => {
      bodies.push({ method: request.method, path: new URL(request.url).pathname, body: undefined });
      playlists.delete(id);
      return new Response(null, { status: 204 });
    };
  }
  return { routes, bodies, playlists };
}

const alpha = makeTrack({ id: 'a', title: 'Alpha' });
const beta = makeTrack({ id: 'b', title: 'Beta' });
const gamma = makeTrack({ id: 'c', title: 'Gamma' });

describe('moved', () => {
  it('moves one item and keeps the rest in order', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
  });
});

describe("the library's Playlists tab", () => {
  it('makes a playlist from the form, refusing an empty title', async () => {
    const server = playlistServer([]);
    renderAppAs('/library?tab=playlists', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([]),
      ...server.routes,
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'My Playlists' })).toBeDefined();
    expect(await screen.findByText(/You have no playlists yet/)).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'New Playlist' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New playlist' }));
    await user.click(dialog.getByRole('button', { name: 'Create Playlist' }));
    expect(await dialog.findByText('Give the playlist a title.')).toBeDefined();
    await user.type(dialog.getByLabelText('Title'), 'Road Trip');
    await user.type(dialog.getByLabelText('Description (optional)'), 'Long drives');
    await user.click(dialog.getByLabelText('Private: only you'));
    await user.click(dialog.getByRole('button', { name: 'Create Playlist' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.bodies).toEqual([
      {
        method: 'POST',
        path: '/api/playlists',
        body: { title: 'Road Trip', description: 'Long drives', visibility: 'private' },
      },
    ]);
    const item = within(await screen.findByRole('list', { name: 'Your playlists' }));
    expect(item.getByRole('link', { name: 'Road Trip' }).getAttribute('href')).toBe('/playlist/p1');
    expect(item.getByText('Private')).toBeDefined();
  });

  it('reorders with Move Up and Move Down, removes a track, and keeps focus on the moved one', async () => {
    const server = playlistServer([{ ...summary(), trackCount: 3, tracks: [alpha, beta, gamma] }]);
    renderAppAs('/library?tab=playlists', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([]),
      ...server.routes,
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Tracks' }));
    const list = within(await screen.findByRole('list', { name: 'Tracks of Night Drive' }));
    expect((list.getByRole('button', { name: 'Move Alpha up' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(list.getByRole('button', { name: 'Move Alpha down' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Move Alpha down'));
    const order = () => list.getAllByRole('listitem').map((li) => li.firstElementChild?.textContent);
    expect(order()).toEqual(['1.Beta', '2.Alpha', '3.Gamma']);
    expect(screen.getByText('Alpha moved to 2 of 3.')).toBeDefined();

    await user.click(list.getByRole('button', { name: 'Move Gamma up' }));
    await user.click(list.getByRole('button', { name: 'Remove Beta from the playlist' }));
    await waitFor(() => expect(list.queryByText('Beta')).toBeNull());
    expect(server.bodies.map((b) => b.body)).toEqual([
      { trackIds: ['b', 'a', 'c'] },
      { trackIds: ['b', 'c', 'a'] },
      { trackIds: ['c', 'a'] },
    ]);
  });

  it('edits the details and visibility, and deletes only after confirming', async () => {
    const server = playlistServer([{ ...summary({ description: 'Old' }), tracks: [] }]);
    renderAppAs('/library?tab=playlists', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([]),
      ...server.routes,
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Details' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit playlist' }));
    expect((dialog.getByLabelText('Title') as HTMLInputElement).value).toBe('Night Drive');
    await user.clear(dialog.getByLabelText('Title'));
    await user.type(dialog.getByLabelText('Title'), 'Late Drive');
    await user.clear(dialog.getByLabelText('Description (optional)'));
    await user.click(dialog.getByLabelText('Private: only you'));
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Private')).toBeDefined();
    expect(server.bodies[0]).toEqual({
      method: 'PATCH',
      path: '/api/playlists/p1',
      body: { title: 'Late Drive', description: '', visibility: 'private' },
    });

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this playlist?' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(server.playlists.has('p1')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Playlist' }),
    );
    expect(within(await findToast()).getByText('Playlist deleted')).toBeDefined();
    expect(await screen.findByText(/You have no playlists yet/)).toBeDefined();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('My Playlists'));
  });
});

describe('Add to Playlist on a library card', () => {
  it('adds the track at the end of the chosen playlist, or of a new one', async () => {
    const server = playlistServer([{ ...summary(), trackCount: 1, tracks: [alpha] }]);
    renderAppAs('/library', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([beta]),
      ...server.routes,
    });
    const user = userEvent.setup();
    const card = within(await screen.findByRole('article', { name: 'Beta' }));
    await user.click(await card.findByRole('button', { name: 'Add to Playlist' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Night Drive' }));
    expect(within(await findToast()).getByText('Beta is in Night Drive.')).toBeDefined();
    expect(server.bodies).toEqual([
      { method: 'PUT', path: '/api/playlists/p1/tracks', body: { trackIds: ['a', 'b'] } },
    ]);

    await user.click(card.getByRole('button', { name: 'Add to Playlist' }));
    await user.click(await screen.findByRole('menuitem', { name: 'New Playlist…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New playlist' }));
    await user.type(dialog.getByLabelText('Title'), 'Fresh');
    await user.click(dialog.getByRole('button', { name: 'Create Playlist' }));
    await waitFor(() => expect(server.bodies).toHaveLength(3));
    expect(server.bodies.slice(1)).toEqual([
      {
        method: 'POST',
        path: '/api/playlists',
        body: { title: 'Fresh', description: '', visibility: 'public' },
      },
      { method: 'PUT', path: '/api/playlists/p2/tracks', body: { trackIds: ['b'] } },
    ]);
  });
});

describe('Add to Playlist on a track page', () => {
  it("lets a signed-in listener add someone else's track, and offers a visitor nothing", async () => {
    const theirs = makeTrack({ id: 'theirs', title: 'Their Song' });
    const server = playlistServer([{ ...summary(), trackCount: 0, tracks: [] }]);
    const routes = {
      'GET /api/track/theirs': jsonResponse({ ...theirs, family: { parent: null, children: [] } }),
      'GET /api/my-generations': jsonResponse([]),
      ...server.routes,
    };
    renderAppAs('/track/theirs', makeSubscriber(), routes);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add to Playlist' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Night Drive' }));
    expect(within(await findToast()).getByText('Their Song is in Night Drive.')).toBeDefined();
    expect(server.bodies).toEqual([
      { method: 'PUT', path: '/api/playlists/p1/tracks', body: { trackIds: ['theirs'] } },
    ]);
    cleanup();

    renderAppAs('/track/theirs', null, routes);
    await screen.findByRole('heading', { level: 1, name: 'Their Song' });
    await import('./add-to-playlist-menu');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByRole('button', { name: 'Add to Playlist' })).toBeNull();
  });
});
