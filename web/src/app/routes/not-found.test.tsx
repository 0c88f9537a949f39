import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anonymous, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

describe('unknown paths', () => {
  it('shows 404 Page Not Found with the developer hint, inside the layout', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeDefined();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeDefined();
    expect(screen.getByRole('banner')).toBeDefined();
    expect(document.title).toBe('Page Not Found | Tunesmith');
  });

  it('links back home', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/public-tracks': jsonResponse([]) });
    const { router, user } = renderApp('/missing');

    await user.click(await screen.findByRole('link', { name: 'Go Home' }));

    await waitFor(() => expect(router.location.pathname).toBe('/'));
  });
});
