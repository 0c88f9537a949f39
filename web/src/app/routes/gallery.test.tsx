import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeTrack, makeUser } from '@/testing/fixtures';
import { deferredResponse, jsonResponse } from '@/testing/mock-fetch';
import { renderAppAs } from '@/testing/render';

/** The gallery's answers by sort and cursor, as the API pages them. */
function galleryApi(pages: Record<string, { titles: string[]; nextCursor: string | null }>) {
  const asked: string[] = [];
  return {
    asked,
    answer: (request: Request) => {
      const url = new URL(request.url);
      const key = `${url.searchParams.get('sort')}${url.searchParams.get('cursor') ? `@${url.searchParams.get('cursor')}` : ''}`;
      asked.push(key);
      const page = pages[key] ?? { titles: [], nextCursor: null };
      return jsonResponse({
        tracks: page.titles.map((title) => makeTrack({ id: title, title, likes: 2, plays: 5 })),
        nextCursor: page.nextCursor,
      });
    },
  };
}

const cardTitles = () => screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

describe('gallery page', () => {
  it('offers the sorts as one keyboard group and shows the chosen one, newest by default', async () => {
    const api = galleryApi({
      new: { titles: ['Newest', 'Older'], nextCursor: null },
      'most-played': { titles: ['Hit', 'Newest'], nextCursor: null },
    });
    const { user } = renderAppAs('/gallery', null, { 'GET /api/public-tracks': api.answer });

    expect(await screen.findByRole('heading', { level: 3, name: 'Newest' })).toBeDefined();
    expect(cardTitles()).toEqual(['Newest', 'Older']);
    const sorts = screen.getByRole('radiogroup', { name: 'Sort the gallery' });
    expect(
      within(sorts)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['New', 'Top this week', 'Most played']);

    await user.click(within(sorts).getByRole('radio', { name: 'Most played' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Hit' })).toBeDefined();
    expect(cardTitles()).toEqual(['Hit', 'Newest']);
    expect(api.asked).toEqual(['new', 'most-played']);
  });

  it('loads the next page with Load more and says when the end is reached', async () => {
    const api = galleryApi({
      new: { titles: ['One', 'Two'], nextCursor: 'c1' },
      'new@c1': { titles: ['Three'], nextCursor: null },
    });
    const { user } = renderAppAs('/gallery', null, { 'GET /api/public-tracks': api.answer });

    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Three' })).toBeDefined();
    expect(cardTitles()).toEqual(['One', 'Two', 'Three']);
    expect(screen.getByText('You have reached the end of the gallery.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows a loading state, then an empty one for a sort without tracks', async () => {
    const pending = deferredResponse(() => jsonResponse({ tracks: [], nextCursor: null }));
    renderAppAs('/gallery?sort=top-week', null, { 'GET /api/public-tracks': pending.handler });
    expect(await screen.findByRole('status')).toBeDefined();
    pending.respond();
    expect(await screen.findByText('No track has been liked this week yet.')).toBeDefined();
    expect(screen.getByRole('radio', { name: 'Top this week' }).getAttribute('aria-checked')).toBe('true');
  });
});

describe('like button', () => {
  const oneTrack = () =>
    jsonResponse({
      tracks: [makeTrack({ id: 't1', title: 'Neon', likes: 3, likedByMe: false })],
      nextCursor: null,
    });

  it('asks a visitor to sign in', async () => {
    const { user, calls } = renderAppAs('/gallery?sort=new', null, { 'GET /api/public-tracks': oneTrack });
    await user.click(await screen.findByRole('button', { name: /^Like Neon,/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to like tracks' });
    expect(within(dialog).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth');
    expect(calls('PUT', '/api/track/t1/like')).toHaveLength(0);
  });

  it('offers a signed-in user Add to Playlist on each card, naming the track', async () => {
    const at = '2026-11-01T00:00:00.000Z';
    const drive = { id: 'p1', title: 'Night Drive', description: null, visibility: 'public' as const };
    const stored = { ...drive, trackCount: 0, owner: null, ownedByMe: true, createdAt: at, updatedAt: at };
    const { user, calls } = renderAppAs('/gallery', makeUser(), {
      'GET /api/public-tracks': oneTrack,
      'GET /api/playlists': jsonResponse({ playlists: [stored] }),
      'GET /api/playlists/p1': jsonResponse({ ...stored, tracks: [] }),
      'PUT /api/playlists/p1/tracks': jsonResponse({
        ...stored,
        trackCount: 1,
        tracks: [makeTrack({ id: 't1' })],
      }),
    });
    const add = await screen.findByRole('button', { name: /Add to playlist/i });
    const title = screen.getByRole('heading', { level: 3, name: 'Neon' });
    expect(add.getAttribute('aria-describedby')).toBe(title.id);
    await user.click(add);
    await user.click(await screen.findByRole('menuitem', { name: 'Night Drive' }));
    await waitFor(() => expect(calls('PUT', '/api/playlists/p1/tracks')).toHaveLength(1));
    expect(JSON.parse(String(calls('PUT', '/api/playlists/p1/tracks')[0]?.[1]?.body))).toEqual({
      trackIds: ['t1'],
    });
  });

  it('names a public creator once, as a link to their page, and says when a creator is anonymous', async () => {
    renderAppAs('/gallery', null, {
      'GET /api/public-tracks': () =>
        jsonResponse({
          tracks: [
            makeTrack({ id: 't1', title: 'Neon', creator: { handle: 'ada', displayName: 'Ada Byron' } }),
            makeTrack({ id: 't2', title: 'Dusk', creator: null }),
          ],
          nextCursor: null,
        }),
    });
    const link = await screen.findByRole('link', { name: 'Ada Byron' });
    expect(link.getAttribute('href')).toBe('/@ada');
    expect(screen.getAllByText(/Ada Byron/)).toHaveLength(1);
    expect(screen.getAllByText('by an anonymous creator')).toHaveLength(1);
  });

  it('shows a visitor no Add to Playlist', async () => {
    renderAppAs('/gallery', null, { 'GET /api/public-tracks': oneTrack });
    await screen.findByRole('button', { name: /^Like Neon,/ });
    expect(screen.queryByRole('button', { name: /Add to playlist/i })).toBeNull();
  });

  it('likes at once for a signed-in user, and unlikes', async () => {
    const { user } = renderAppAs('/gallery', makeUser(), {
      'GET /api/public-tracks': oneTrack,
      'PUT /api/track/t1/like': jsonResponse({ liked: true, likes: 4 }),
      'DELETE /api/track/t1/like': jsonResponse({ liked: false, likes: 3 }),
    });
    const like = await screen.findByRole('button', { name: /^Like Neon,/ });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    expect(like.textContent).toContain('3');

    await user.click(like);
    await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('true'));
    expect(like.textContent).toContain('4');
    await waitFor(() => expect(like.hasAttribute('disabled')).toBe(false));
    await user.click(like);
    await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('false'));
    expect(like.textContent).toContain('3');
  });

  it('shows the like before the server answers, and takes it back when the server refuses', async () => {
    const refused = deferredResponse(() => jsonResponse({ message: 'Server error' }, 500));
    const { user } = renderAppAs('/gallery', makeUser(), {
      'GET /api/public-tracks': oneTrack,
      'PUT /api/track/t1/like': refused.handler,
    });
    const like = await screen.findByRole('button', { name: /^Like Neon,/ });
    await user.click(like);
    await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('true'));
    expect(like.textContent).toContain('4');

    refused.respond();
    await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('false'));
    expect(like.textContent).toContain('3');
    expect(await screen.findByText('Could not save your like')).toBeDefined();
  });
});
