import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import { describe, expect, it, vi } from 'vitest';
import { trackQueryKey } from '@/lib/query-keys';
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

const trackCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/api/track/abc')).length;

/** Lets the page check the track `times` more times (fake timers), and shows what the last check read. */
async function poll(queryClient: QueryClient, times = 1) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS * times);
  });
  await waitFor(() => expect(queryClient.getQueryState(trackQueryKey('abc'))?.fetchStatus).toBe('idle'));
  // The query tells the page on a zero-delay timer, which fake timers run a moment later.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(50);
  });
}

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
    expect(details('Generation type')).toBe('Text to Music');
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

  it('keeps a generating track on screen when a check fails, takes the next one, then stops checking', async () => {
    vi.useFakeTimers();
    // What the next check answers; any check made while the page first loads gets the first answer.
    let answer = () => track({ status: 'generating', audioUrl: null });
    const fetchMock = mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/track/abc': () => answer() });
    const { queryClient } = renderApp('/track/abc');
    expect(await screen.findByText('Track is still generating...')).toBeDefined();

    answer = () => new Response('', { status: 500 });
    await poll(queryClient);
    expect(screen.queryByRole('heading', { name: 'This track could not be loaded' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Neon Nights' })).toBeDefined();
    expect(screen.getByText('Track is still generating...')).toBeDefined();

    answer = () => track();
    await poll(queryClient);
    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
    const checks = trackCalls(fetchMock);
    await poll(queryClient, 3);
    expect(trackCalls(fetchMock)).toBe(checks);
  });

  it('shows Track Not Found when a generating track is deleted or made private meanwhile', async () => {
    vi.useFakeTimers();
    let answer = () => track({ status: 'pending', audioUrl: null });
    const fetchMock = mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/track/abc': () => answer() });
    const { queryClient } = renderApp('/track/abc');
    expect(await screen.findByText('Track is still generating...')).toBeDefined();

    answer = () => jsonResponse({ message: 'Track not found' }, 404);
    await poll(queryClient);
    expect(screen.getByRole('heading', { level: 1, name: 'Track Not Found' })).toBeDefined();
    const checks = trackCalls(fetchMock);
    await poll(queryClient, 3);
    expect(trackCalls(fetchMock)).toBe(checks);
  });

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
