import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTrack, makeTracks, makeUser, seedPlans } from '@/testing/fixtures';
import { anonymous, deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

// A page that fails to render, to show the error page in the layout.
vi.mock('./routes/privacy', () => ({
  default: () => {
    throw new Error('The privacy page broke');
  },
}));

/** Whether `text` was ever on screen since the call, however briefly. */
function watchFor(text: string) {
  let seen = false;
  const check = () => {
    if (document.body.textContent?.includes(text)) seen = true;
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  check();
  return {
    seen: () => {
      check();
      return seen;
    },
    stop: () => observer.disconnect(),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('/ before the visitor is known', () => {
  it('shows neither page until the auth check answers, then the landing page, its gallery held by a skeleton until the tracks answer', async () => {
    const auth = deferredResponse(() => anonymous());
    const gallery = deferredResponse(() => jsonResponse(makeTracks(2)));
    mockFetch({ 'GET /api/auth/user': auth.handler, 'GET /api/public-tracks': gallery.handler });
    renderApp('/');

    // The layout is up (the site's name is known), the page is not.
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Tunesmith' })).toBeDefined();
    expect(screen.getByText('Loading page')).toBeDefined();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    auth.respond();
    // Known to be a visitor: the hero paints at once, the gallery's place is held by its skeleton.
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' })).toBeDefined();
    expect(screen.getByRole('banner').textContent).toContain('Get Started');
    expect(screen.queryByRole('heading', { name: 'Community Gallery' })).toBeNull();
    gallery.respond();

    expect(await screen.findByRole('heading', { name: 'Community Gallery' })).toBeDefined();
  });

  it('never shows the landing page to a signed-in user', async () => {
    const auth = deferredResponse(() => jsonResponse(makeUser()));
    const fetchMock = mockFetch({
      'GET /api/auth/user': auth.handler,
      'GET /api/public-tracks': jsonResponse(makeTracks(2)),
      'GET /api/my-generations': jsonResponse([]),
    });
    const landing = watchFor('Create Music with AI');
    renderApp('/');

    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Tunesmith' })).toBeDefined();
    expect(screen.getByText('Loading page')).toBeDefined();
    auth.respond();

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music' })).toBeDefined();
    expect(landing.seen()).toBe(false);
    landing.stop();
    // The landing page was not even begun: its gallery was never asked for.
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/public-tracks'))).toBe(false);
  });
});

describe('moving between pages', () => {
  // Pages that paint their frame at once (pricing, the track page) hold their data's place with a skeleton;
  // a page that shows only once its data is in (the library) keeps the previous page on screen meanwhile.
  it('keeps the page on screen, with a progress bar, until the next page has its data', async () => {
    const library = deferredResponse(() => jsonResponse([]));
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeUser()), 'GET /api/my-generations': library.handler });
    const { router } = renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    expect(screen.queryByRole('progressbar', { name: 'Loading page' })).toBeNull();

    const navigation = router.navigate('/library');

    expect(await screen.findByRole('progressbar', { name: 'Loading page' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeDefined();
    library.respond();
    await navigation;

    expect(await screen.findByRole('heading', { level: 1, name: 'My Music Library' })).toBeDefined();
    expect(screen.queryByRole('heading', { level: 1, name: 'Contact Us' })).toBeNull();
    expect(screen.queryByRole('progressbar', { name: 'Loading page' })).toBeNull();
  });

  it('scrolls a new page to the top and gives Back the place it left', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/plans': jsonResponse(seedPlans()) });
    const { router } = renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    window.scrollTo(0, 640);
    window.dispatchEvent(new Event('scroll'));

    await router.navigate('/pricing');
    await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' });
    expect(window.scrollY).toBe(0);
    window.scrollTo(0, 120);
    window.dispatchEvent(new Event('scroll'));

    await router.go(-1);
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    expect(window.scrollY).toBe(640);
    await router.go(1);
    await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' });
    expect(window.scrollY).toBe(120);
  });
});

describe('focus when the page changes', () => {
  it("puts it on each new page's heading, Back included", async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/plans': jsonResponse(seedPlans()) });
    const { router, user } = renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });

    // A link in the header: focus leaves it for the new page.
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Pricing' }),
    );
    const pricing = await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' });
    await waitFor(() => expect(document.activeElement).toBe(pricing));

    await router.go(-1);
    const contact = await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    expect(document.activeElement).toBe(contact);
  });

  it('stays where it is when only the query or the #hash changes', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    const { router } = renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
    const field = screen.getByLabelText('Name');
    field.focus();

    await router.navigate('/contact?topic=plans');
    await router.navigate('/contact#faq');

    expect(document.activeElement).toBe(field);
  });

  it('gives a page without a heading its main landmark', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    const { router } = renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });

    // While the track loads, its page shows a skeleton, with no heading yet.
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/track/missing': () => new Promise<never>(() => {}),
    });
    await router.navigate('/track/missing');

    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('moves it on to the heading once a page that showed a skeleton draws it', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    const { router } = renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact Us' });

    const track = deferredResponse(() => jsonResponse(makeTrack({ id: 't-1', title: 'Dawn Run' })));
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/track/t-1': track.handler });
    await router.navigate('/track/t-1');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
    track.respond();

    const heading = await screen.findByRole('heading', { level: 1, name: 'Dawn Run' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});

describe('a page that fails', () => {
  it('shows the error page inside the layout, and the next page once the visitor moves on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/public-tracks': jsonResponse([]) });
    const { router, user } = renderApp('/privacy');

    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeDefined();
    expect(screen.getByText('This page could not be shown. Reloading usually helps.')).toBeDefined();
    expect(screen.getByRole('banner')).toBeDefined();
    await waitFor(() => expect(document.title).toBe('Something went wrong | Tunesmith'));
    await user.click(screen.getByRole('link', { name: 'Go Home' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Music with AI' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
    expect(router.location.pathname).toBe('/');
  });
});
