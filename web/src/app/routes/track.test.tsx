import { screen, waitFor, within } from '@testing-library/react';
import type { Track } from '@tunesmith/shared/tracks';
import { describe, expect, it, vi } from 'vitest';
import { makeTrack } from '@/testing/fixtures';
import { anonymous, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

function renderTrack(answer: Response, path = '/track/abc') {
  const fetchMock = mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/track/abc': answer });
  return { ...renderApp(path), fetchMock };
}

const track = (overrides: Partial<Track> = {}) =>
  jsonResponse(
    makeTrack({
      id: 'abc',
      title: 'Neon Nights',
      lyrics: '[verse]\nCity lights',
      createdAt: '2024-03-15T12:00:00.000Z',
      ...overrides,
    }),
  );

describe('track page', () => {
  it('shows a completed track with its details, lyrics and a player', async () => {
    renderTrack(track());

    expect(await screen.findByRole('heading', { level: 1, name: 'Neon Nights' })).toBeDefined();
    expect(screen.getByText('Completed')).toBeDefined();
    expect(screen.getByText('Public')).toBeDefined();
    const details = (term: string) =>
      screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(details('Tags')).toBe('synthwave, energetic');
    expect(details('Duration')).toBe('90 seconds');
    expect(details('Generation type')).toBe('text to music');
    expect(details('Created')).toBe('Mar 15, 2024');
    expect(
      screen.getByText(
        (_, element) => element?.tagName === 'P' && element.textContent === '[verse]\nCity lights',
      ),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
    expect(document.title).toBe('Neon Nights | Tunesmith');
  });

  it('calls a track without a title Untitled Track', async () => {
    renderTrack(track({ title: null }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Untitled Track' })).toBeDefined();
  });

  it('copies its full link with Share', async () => {
    const { user } = renderTrack(track());
    await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    await user.click(screen.getByRole('button', { name: 'Share' }));

    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/track/abc`);
    expect(within(await findToast()).getByText('Link Copied!')).toBeDefined();
  });

  it.each(['pending', 'generating'] as const)(
    'says the track is still generating while %s',
    async (status) => {
      renderTrack(track({ status, audioUrl: null, duration: null }));

      expect(await screen.findByText('Track is still generating...')).toBeDefined();
      expect(screen.queryByRole('button', { name: /^Play/ })).toBeNull();
    },
  );

  it('says the generation failed', async () => {
    renderTrack(track({ status: 'failed', audioUrl: null }));

    expect(await screen.findByText('Track generation failed')).toBeDefined();
    expect(screen.getByText('Failed')).toBeDefined();
    expect(screen.queryByRole('button', { name: /^Play/ })).toBeNull();
  });

  it('shows Track Not Found with a Go Home link for a missing or private track', async () => {
    const { router, user } = renderTrack(jsonResponse({ message: 'Track not found' }, 404));

    expect(await screen.findByRole('heading', { level: 1, name: 'Track Not Found' })).toBeDefined();
    expect(screen.getByText("The track you're looking for doesn't exist or has been removed.")).toBeDefined();
    await user.click(screen.getByRole('link', { name: 'Go Home' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('offers to try again when the track cannot be loaded', async () => {
    let calls = 0;
    mockFetch({
      'GET /api/auth/user': anonymous(),
      'GET /api/track/abc': () => {
        calls += 1;
        return calls === 1 ? new Response('', { status: 500 }) : track();
      },
    });
    const { user } = renderApp('/track/abc');

    expect(await screen.findByRole('heading', { name: 'This track could not be loaded' })).toBeDefined();
    await user.click(await screen.findByRole('button', { name: 'Try Again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Neon Nights' })).toBeDefined();
  });
});
