import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { anonymous, deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

function renderAt(path: string, authAnswer: Response = anonymous()) {
  mockFetch({ 'GET /api/auth/user': authAnswer, 'GET /api/public-tracks': jsonResponse([]) });
  const rendered = renderApp(path);
  const header = within(screen.getByRole('banner'));
  const nav = () => within(header.getByRole('navigation', { name: 'Main' }));
  return { ...rendered, header, nav };
}

describe('header', () => {
  it('offers a visitor Sign In and Get Started, both to /auth', async () => {
    const { header, nav } = renderAt('/pricing');

    const signIn = await header.findByRole('link', { name: 'Sign In' });
    expect(signIn.getAttribute('href')).toBe('/auth');
    expect(header.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/auth');
    expect(nav().getByRole('link', { name: 'Home' })).toBeDefined();
    expect(header.queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('treats a failed auth check (501) as a visitor', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { header } = renderAt('/pricing', jsonResponse({ message: 'Not implemented yet' }, 501));

    expect(await header.findByRole('link', { name: 'Sign In' })).toBeDefined();
  });

  it('shows the Sign In / Sign Up label instead of the buttons on /auth', async () => {
    const { header } = renderAt('/auth');

    const labels = await header.findAllByText('Sign In / Sign Up');
    for (const label of labels) expect(label.getAttribute('aria-current')).toBe('page');
    expect(header.queryByRole('link', { name: 'Sign In' })).toBeNull();
    expect(header.queryByRole('link', { name: 'Get Started' })).toBeNull();
  });

  it.each([
    [{ firstName: 'Ada', email: 'ada@example.com' }, 'Ada'],
    [{ firstName: null, email: 'ada@example.com' }, 'ada@example.com'],
    [{ firstName: '', email: null }, 'User'],
  ])('shows a signed-in user %o as %s, linking to /profile', async (fields, name) => {
    const { header, nav } = renderAt('/pricing', jsonResponse({ lastName: null, ...fields }));

    const chip = await header.findByRole('link', { name });
    expect(chip.getAttribute('href')).toBe('/profile');
    expect(nav().getByRole('link', { name: 'Create' })).toBeDefined();
    expect(header.queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  it('logs out by full-page navigation to /api/logout', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { header, user } = renderAt('/', jsonResponse({ firstName: 'Ada', email: 'ada@example.com' }));

    await user.click(await header.findByRole('button', { name: 'Logout' }));

    expect(assign).toHaveBeenCalledWith('/api/logout');
  });

  it.each([
    ['/', 'Home'],
    ['/pricing', 'Pricing'],
    ['/contact', 'Contact'],
  ])('marks %s as the current page', async (path, name) => {
    const { nav } = renderAt(path);

    await waitFor(() => expect(nav().getByRole('link', { name }).getAttribute('aria-current')).toBe('page'));
    const others = nav()
      .getAllByRole('link')
      .filter((link) => link.textContent !== name);
    for (const link of others) expect(link.getAttribute('aria-current')).toBeNull();
  });

  it('marks the profile chip on /profile', async () => {
    const { header } = renderAt('/profile', jsonResponse({ firstName: 'Ada', email: 'ada@example.com' }));

    const chip = await header.findByRole('link', { name: 'Ada' });
    await waitFor(() => expect(chip.getAttribute('aria-current')).toBe('page'));
  });

  it.each([
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
  ])('marks %s in the footer', async (path, name) => {
    renderAt(path);
    const footer = within(screen.getByRole('contentinfo'));

    await waitFor(() => expect(footer.getByRole('link', { name }).getAttribute('aria-current')).toBe('page'));
  });

  it('opens and closes the mobile menu', async () => {
    const { header, user } = renderAt('/pricing');
    const toggle = header.getByRole('button', { name: 'Open menu' });
    expect(header.queryByRole('navigation', { name: 'Mobile' })).toBeNull();

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const mobile = header.getByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).getByRole('link', { name: 'Pricing' })).toBeDefined();

    await user.keyboard('{Escape}');
    expect(header.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
  });
});

describe('footer', () => {
  it('has Quick Links, Legal and the copyright line of this year', async () => {
    renderAt('/');
    const footer = within(screen.getByRole('contentinfo'));

    const quick = within(footer.getByRole('navigation', { name: 'Quick Links' }));
    expect(quick.getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('/pricing');
    expect(quick.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/auth');
    const legal = within(footer.getByRole('navigation', { name: 'Legal' }));
    expect(legal.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(legal.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(footer.getByText(`© ${new Date().getFullYear()} Tunesmith. All rights reserved.`)).toBeDefined();
  });
});

describe('the site name', () => {
  const harbour = {
    name: 'Harbour Radio',
    description: 'Songs from the harbour, made to order.',
    supportEmail: 'help@harbour.example',
    contactEmail: 'hello@harbour.example',
  };

  it('names the site as Site Settings does, in the header, the footer and the tab title', async () => {
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/site': jsonResponse(harbour),
      'GET /api/public-tracks': jsonResponse([]),
    });
    renderApp('/pricing');
    const banner = screen.getByRole('banner');

    const header = within(banner);
    expect(await header.findByRole('link', { name: 'Harbour Radio' })).toBeDefined();
    await waitFor(() => expect(document.title).toBe('Pricing | Harbour Radio'));
    const footer = within(screen.getByRole('contentinfo'));
    expect(
      footer.getByText(`© ${new Date().getFullYear()} Harbour Radio. All rights reserved.`),
    ).toBeDefined();
    expect(footer.getByText('Songs from the harbour, made to order.')).toBeDefined();
    expect(banner.textContent).not.toContain('Tunesmith');
    expect(screen.getByRole('contentinfo').textContent).not.toContain('Tunesmith');
  });

  it('shows no page, and no name of its own, until the name is known', async () => {
    const site = deferredResponse(() => jsonResponse(harbour));
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/site': site.handler,
      'GET /api/public-tracks': jsonResponse([]),
    });
    renderApp('/pricing');

    expect(await screen.findByText('Loading page')).toBeDefined();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.getByRole('banner').textContent).not.toContain('Tunesmith');
    site.respond();

    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeDefined();
    expect(document.title).toBe('Pricing | Harbour Radio');
  });

  it('keeps its own name when the site settings cannot be read', async () => {
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/site': jsonResponse({ message: 'Service unavailable' }, 503),
      'GET /api/public-tracks': jsonResponse([]),
    });
    renderApp('/contact');

    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Tunesmith' })).toBeDefined();
    await waitFor(() => expect(document.title).toBe('Contact | Tunesmith'));
  });
});
