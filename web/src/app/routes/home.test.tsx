import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clearSignedInHint } from '@/lib/auth';
import { makeTrack, makeTracks, makeUser } from '@/testing/fixtures';
import { anonymous, deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

function renderHome(trackCount: number) {
  mockFetch({
    'GET /api/auth/user': anonymous(),
    'GET /api/public-tracks': jsonResponse(makeTracks(trackCount)),
  });
  return renderApp('/');
}

describe('home page', () => {
  it('shows a visitor the hero at once, with the gallery held by a skeleton and no sign-in check', async () => {
    clearSignedInHint();
    const tracks = deferredResponse(() => jsonResponse(makeTracks(3)));
    const fetchMock = mockFetch({ 'GET /api/public-tracks': tracks.handler });
    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' })).toBeDefined();
    const skeleton = screen.getByText('Loading…').closest('section');
    expect(skeleton?.getAttribute('aria-busy')).toBe('true');
    expect(within(skeleton as HTMLElement).getByText('Loading…')).toBeDefined();
    expect(
      screen.getByRole('heading', { name: 'Everything you need to make a track', level: 2 }),
    ).toBeDefined();

    tracks.respond();
    expect(await screen.findByRole('heading', { name: 'Community Gallery' })).toBeDefined();
    expect(document.querySelector('[aria-busy="true"]')).toBeNull();
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked.some((url) => url.includes('/api/auth/user'))).toBe(false);
  });

  it('shows the hero, whose button goes to /auth', async () => {
    const { router, user } = renderHome(0);

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' })).toBeDefined();
    await user.click(screen.getByRole('link', { name: 'Start Creating Music' }));

    await waitFor(() => expect(router.location.pathname).toBe('/auth'));
  });

  it('hides the gallery when there are no public tracks', async () => {
    renderHome(0);

    await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' });
    expect(screen.queryByRole('heading', { name: 'Community Gallery' })).toBeNull();
  });

  it('hides the gallery when the tracks cannot be loaded', async () => {
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/public-tracks': jsonResponse({ message: 'Something went wrong. Please try again.' }, 500),
    });
    renderApp('/');

    await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' });
    expect(screen.queryByRole('heading', { name: 'Community Gallery' })).toBeNull();
  });

  it('shows every track and no Explore button when there are 6 or fewer', async () => {
    renderHome(6);

    const gallery = (await screen.findByRole('heading', { name: 'Community Gallery' })).closest('section');
    expect(gallery).not.toBeNull();
    expect(within(gallery as HTMLElement).getAllByRole('heading', { level: 3 })).toHaveLength(6);
    expect(screen.queryByRole('link', { name: 'Explore More Tracks' })).toBeNull();
  });

  it("fetches no gallery track's audio before it is played when its duration is known", async () => {
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/public-tracks': jsonResponse([
        makeTrack({ id: 'known', duration: 30 }),
        makeTrack({ id: 'unknown', duration: null }),
      ]),
    });
    renderApp('/');

    await screen.findByRole('heading', { name: 'Community Gallery' });
    const preloads = [...document.querySelectorAll('audio')].map((audio) => audio.getAttribute('preload'));
    // The one without a duration reads it from the file, so its seek bar has an end.
    expect(preloads).toEqual(['none', 'metadata']);
  });

  it('shows the first 6 of 7 tracks and Explore More Tracks, which goes to /auth', async () => {
    const { router, user } = renderHome(7);

    const gallery = (await screen.findByRole('heading', { name: 'Community Gallery' })).closest('section');
    const titles = within(gallery as HTMLElement)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual(['Track 1', 'Track 2', 'Track 3', 'Track 4', 'Track 5', 'Track 6']);

    await user.click(screen.getByRole('link', { name: 'Explore More Tracks' }));
    await waitFor(() => expect(router.location.pathname).toBe('/auth'));
  });

  it('shows the three feature cards', async () => {
    renderHome(0);

    for (const name of ['Text to Music', 'Custom Duration', 'Professional Quality']) {
      expect(await screen.findByRole('heading', { level: 3, name })).toBeDefined();
    }
    expect(screen.getByText(/5-second jingle to a full 4-minute song/)).toBeDefined();
    expect(screen.getByText(/ready in 30-60 seconds/)).toBeDefined();
  });

  it('sets the document title', async () => {
    renderHome(0);

    await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' });
    expect(document.title).toBe('Tunesmith: Create Music with AI');
  });
});

describe('home page for a signed-in user', () => {
  function renderSignedIn(tracks = [makeTrack({ id: 'mine', title: 'My First Song' })]) {
    const fetchMock = mockFetch({
      'GET /api/auth/user': jsonResponse(makeUser()),
      'GET /api/public-tracks': jsonResponse(makeTracks(3)),
      'GET /api/my-generations': jsonResponse(tracks),
    });
    return { ...renderApp('/'), fetchMock };
  }

  it('is the Create page, linked as Create in the header, without loading the gallery', async () => {
    const { fetchMock } = renderSignedIn();

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Create Music with AI' })).toBeNull();
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: 'Create' }).getAttribute('href')).toBe('/');
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/public-tracks'))).toBe(false);
    expect(document.title).toBe('Create | Tunesmith');
  });

  it('shows the library in the My Library tab, loaded on first visit', async () => {
    const { user, fetchMock } = renderSignedIn();
    await screen.findByRole('heading', { level: 1, name: 'Create Music' });
    const libraryCalls = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).includes('/api/my-generations')).length;
    expect(libraryCalls()).toBe(0);

    await user.click(screen.getByRole('tab', { name: 'My Library' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'My Music Library' })).toBeDefined();
    expect(await screen.findByRole('article', { name: 'My First Song' })).toBeDefined();
  });

  it('goes from an empty library to the Text to Music tab with Create First Track', async () => {
    const { user } = renderSignedIn([]);
    await screen.findByRole('heading', { level: 1, name: 'Create Music' });

    await user.click(screen.getByRole('tab', { name: 'My Library' }));
    await user.click(await screen.findByRole('button', { name: 'Create First Track' }));

    expect(screen.getByRole('tab', { name: 'Text to Music' }).getAttribute('aria-selected')).toBe('true');
    expect(
      within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Generate Music' }),
    ).toBeDefined();
  });
});

describe('library page', () => {
  it('tells a visitor Access Denied', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    renderApp('/library');

    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeDefined();
    expect(screen.getByText('Please log in to view your library.')).toBeDefined();
  });

  it("shows a signed-in user's tracks and sends Create First Track to the Create page", async () => {
    mockFetch({
      'GET /api/auth/user': jsonResponse(makeUser()),
      'GET /api/my-generations': jsonResponse([]),
    });
    const { router, user } = renderApp('/library');

    expect(await screen.findByRole('heading', { level: 1, name: 'My Music Library' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Create First Track' }));

    await waitFor(() => expect(router.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music' })).toBeDefined();
  });
});
