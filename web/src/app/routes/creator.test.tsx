import { screen, within } from '@testing-library/react';
import type { Creator } from '@tunesmith/shared/community';
import { creatorMessages } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { makeTrack, makeUser } from '@/testing/fixtures';
import { jsonResponse } from '@/testing/mock-fetch';
import { renderAppAs } from '@/testing/render';

const ada = (over: Partial<Creator> = {}): Creator => ({
  handle: 'ada',
  displayName: 'Ada Lovelace',
  bio: 'Engines and songs',
  createdAt: '2026-11-29T10:00:00.000Z',
  followers: 4,
  following: 1,
  tracks: [
    makeTrack({ id: 't1', title: 'First light', creator: { handle: 'ada', displayName: 'Ada Lovelace' } }),
  ],
  nextCursor: null,
  playlists: [],
  ...over,
});

describe('/@handle', () => {
  it('shows the creator, their tracks naming them, and a Follow toggle that follows', async () => {
    let followers = 4;
    const { user } = renderAppAs('/@ada', makeUser(), {
      'GET /api/creators/ada': jsonResponse(ada({ followedByMe: false })),
      'GET /api/user/public-profile': jsonResponse({ message: 'none' }, 404),
      'PUT /api/creators/ada/follow': () => jsonResponse({ following: true, followers: ++followers }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeDefined();
    expect(screen.getByText('Engines and songs')).toBeDefined();
    expect(screen.getByText('4 followers')).toBeDefined();
    const card = screen.getByRole('heading', { level: 3, name: 'First light' }).closest('div')?.parentElement;
    expect(
      within(card as HTMLElement)
        .getByRole('link', { name: 'Ada Lovelace' })
        .getAttribute('href'),
    ).toBe('/@ada');
    const toggle = screen.getByRole('button', { name: 'Follow' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    const following = await screen.findByRole('button', { name: 'Following' });
    expect(following.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('5 followers')).toBeDefined();
  });

  it('offers the creator their profile, not a Follow button, on their own page', async () => {
    renderAppAs('/@ada', makeUser(), { 'GET /api/creators/ada': jsonResponse(ada()) });
    expect(await screen.findByRole('link', { name: 'Edit your profile' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
  });

  it('asks a visitor to sign in to follow', async () => {
    renderAppAs('/@ada', null, { 'GET /api/creators/ada': jsonResponse(ada()) });
    expect(await screen.findByRole('link', { name: 'Sign in to follow' })).toBeDefined();
  });

  it('loads more of their tracks from the cursor, after the first page', async () => {
    const { user } = renderAppAs('/@ada', makeUser(), {
      'GET /api/creators/ada': (request) =>
        new URL(request.url).searchParams.get('cursor') === 'c1'
          ? jsonResponse(ada({ tracks: [makeTrack({ id: 't2', title: 'Second light' })], nextCursor: null }))
          : jsonResponse(ada({ nextCursor: 'c1', followedByMe: false })),
      'PUT /api/creators/ada/follow': () => jsonResponse({ following: true, followers: 5 }),
    });
    await user.click(await screen.findByRole('button', { name: 'More tracks' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Second light' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 3, name: 'First light' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'More tracks' })).toBeNull();
    // Following keeps the pages already loaded.
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    await screen.findByText('5 followers');
    expect(screen.getByRole('heading', { level: 3, name: 'Second light' })).toBeDefined();
  });

  it('lists their public playlists, each linking to its page with its description', async () => {
    const card = (id: string, title: string, description: string | null) => ({
      id,
      title,
      description,
      visibility: 'public' as const,
      owner: { handle: 'ada', displayName: 'Ada Lovelace' },
      ownedByMe: false,
      createdAt: '2026-11-29T10:00:00.000Z',
      updatedAt: '2026-11-29T10:00:00.000Z',
    });
    renderAppAs('/@ada', null, {
      'GET /api/creators/ada': jsonResponse(
        ada({
          playlists: [card('p2', 'Night drive', 'Synthwave for the road'), card('p1', 'Mornings', null)],
        }),
      ),
    });
    const section = (await screen.findByRole('heading', { level: 2, name: 'Playlists' })).closest('section');
    const links = within(section as HTMLElement).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Night drive', '/playlist/p2'],
      ['Mornings', '/playlist/p1'],
    ]);
    expect(within(section as HTMLElement).getByText('Synthwave for the road')).toBeDefined();
  });

  it('says so when no one has the handle', async () => {
    renderAppAs('/@nobody', null, {
      'GET /api/creators/nobody': jsonResponse({ message: creatorMessages.creatorNotFound }, 404),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Creator not found' })).toBeDefined();
  });

  it('leaves a top-level path without @ to the not-found page', async () => {
    renderAppAs('/nonsense', null);
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeDefined();
  });
});

describe('/following', () => {
  it('tells a user who follows no one how to fill it', async () => {
    renderAppAs('/following', makeUser(), {
      'GET /api/feed': jsonResponse({ tracks: [], nextCursor: null }),
    });
    expect(await screen.findByText('Follow creators to see their new tracks here.')).toBeDefined();
    // Creators are found in the gallery, with its sorts.
    expect(screen.getByRole('link', { name: 'Browse the gallery' }).getAttribute('href')).toBe('/gallery');
  });

  it('lists new tracks of followed creators with their names', async () => {
    renderAppAs('/following', makeUser(), {
      'GET /api/feed': jsonResponse({
        tracks: [
          makeTrack({
            id: 'n1',
            title: 'New one',
            creator: { handle: 'grace', displayName: 'Grace Hopper' },
          }),
        ],
        nextCursor: null,
      }),
    });
    expect(await screen.findByRole('heading', { level: 3, name: 'New one' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Grace Hopper' }).getAttribute('href')).toBe('/@grace');
  });
});
