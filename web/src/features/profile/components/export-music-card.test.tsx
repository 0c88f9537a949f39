import { act, screen, waitFor, within } from '@testing-library/react';
import { ownershipMessages, type UserExport } from '@tunesmith/shared/ownership';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse } from '@/testing/mock-fetch';
import { renderAppAs } from '@/testing/render';
import { EXPORT_POLL_MS } from '../api/export-music';
import { DOWNLOAD_ALL, exportProgress } from './export-music-card';

const preparing = (tracksDone: number, tracksTotal: number | null): UserExport => ({
  exportId: 'exp-1',
  status: 'preparing',
  createdAt: '2026-05-01T10:00:00.000Z',
  tracksDone,
  tracksTotal,
});
const ready: UserExport = {
  exportId: 'exp-1',
  status: 'ready',
  createdAt: '2026-05-01T10:00:00.000Z',
  tracksDone: 40,
  tracksTotal: 40,
  url: 'https://site.example/exports/user-1/exp-1.zip?Signature=abc',
  size: 123_400_000,
  expiresAt: '2026-05-02T10:00:00.000Z',
};

/** The profile with the export answers given; `latest` is what GET /api/user/export says. */
function renderProfile(latest: MockResponse, routes: Record<string, MockResponse> = {}) {
  return renderAppAs('/profile', makeUser(), { 'GET /api/user/export': latest, ...routes });
}

async function exportCard() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Your Music' });
  return within(heading.closest('[role="region"]') as HTMLElement);
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('Download all my music', () => {
  beforeAll(async () => {
    // Load the page's code first: module loading takes real time.
    await import('@/app/routes/profile');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says how far an export got: "12 of 40 tracks", and counting before the total is known', () => {
    expect(exportProgress(preparing(12, 40))).toBe('12 of 40 tracks');
    expect(exportProgress(preparing(0, 1))).toBe('0 of 1 track');
    expect(exportProgress(preparing(0, null))).toBe('Counting your tracks…');
  });

  it('starts an export, shows its progress as it goes, then the link with its size and end', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [preparing(0, null), preparing(12, 40), ready];
    let reads = 0;
    const { user, calls } = renderProfile(jsonResponse({ export: null }), {
      'POST /api/user/export': jsonResponse({ exportId: 'exp-1' }, 202),
      'GET /api/user/export/exp-1': () => jsonResponse(answers[Math.min(reads++, answers.length - 1)]),
    });

    const card = await exportCard();
    await user.click(await card.findByRole('button', { name: DOWNLOAD_ALL }));

    expect(calls('POST', '/api/user/export')).toHaveLength(1);
    const status = await card.findByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(card.getByText(ownershipMessages.exportStarted)).toBeDefined();
    expect(card.queryByRole('button', { name: DOWNLOAD_ALL })).toBeNull();

    await advance(EXPORT_POLL_MS);
    await waitFor(() => expect(card.getByRole('status').textContent).toBe('12 of 40 tracks'));
    const progress = card.getByRole('progressbar', { name: 'Preparing your music' });
    expect(progress.getAttribute('aria-valuenow')).toBe('12');
    expect(progress.getAttribute('aria-valuemax')).toBe('40');

    await advance(EXPORT_POLL_MS);
    const link = await card.findByRole('link', { name: 'Download Zip (123 MB)' });
    expect(link.getAttribute('href')).toBe(ready.url);
    expect(card.getByText(ownershipMessages.exportReady)).toBeDefined();
    expect(card.getByText(/The link works until May 2, 2026/)).toBeDefined();
    // Ready: no more polling.
    const readsWhenReady = reads;
    await advance(EXPORT_POLL_MS * 3);
    expect(reads).toBe(readsWhenReady);
  });

  it('picks up an export that is being prepared after a reload', async () => {
    renderProfile(jsonResponse({ export: preparing(3, 9) }));

    const card = await exportCard();

    expect((await card.findByRole('status')).textContent).toBe('3 of 9 tracks');
    expect(card.queryByRole('button', { name: DOWNLOAD_ALL })).toBeNull();
  });

  it('shows the link of a ready export, with a way to prepare a new one', async () => {
    renderProfile(jsonResponse({ export: ready }));

    const card = await exportCard();

    expect(await card.findByRole('link', { name: 'Download Zip (123 MB)' })).toBeDefined();
    expect(card.getByRole('button', { name: 'Prepare a New Export' })).toBeDefined();
  });

  it('says a failed export failed, at once, and lets the user start again', async () => {
    renderProfile(jsonResponse({ export: { ...ready, status: 'failed', url: undefined } }));

    const card = await exportCard();

    expect((await card.findByRole('alert')).textContent).toBe(ownershipMessages.exportFailed);
    expect(card.getByRole('button', { name: DOWNLOAD_ALL })).toBeDefined();
  });

  it('says when the last link has expired', async () => {
    renderProfile(jsonResponse({ export: { ...ready, url: undefined } }));

    const card = await exportCard();

    expect(await card.findByText(/The link to your last export has expired/)).toBeDefined();
    expect(card.queryByRole('link', { name: /Download Zip/ })).toBeNull();
    expect(card.getByRole('button', { name: DOWNLOAD_ALL })).toBeDefined();
  });

  it('shows, beside it, the export another tab is preparing, and no error once that export is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let latest: { export: UserExport | null } = { export: null };
    let byId = preparing(5, 20);
    const { user } = renderProfile(() => jsonResponse(latest), {
      'POST /api/user/export': () => {
        latest = { export: preparing(5, 20) };
        return jsonResponse({ message: ownershipMessages.exportRunning }, 409);
      },
      'GET /api/user/export/exp-1': () => jsonResponse(byId),
    });

    const card = await exportCard();
    await user.click(await card.findByRole('button', { name: DOWNLOAD_ALL }));

    expect((await card.findByRole('status')).textContent).toBe('5 of 20 tracks');
    expect(card.getByText(ownershipMessages.exportRunning)).toBeDefined();
    expect(card.queryByRole('alert')).toBeNull();

    byId = ready;
    await advance(EXPORT_POLL_MS);
    expect(await card.findByRole('link', { name: 'Download Zip (123 MB)' })).toBeDefined();
    expect(card.queryByText(ownershipMessages.exportRunning)).toBeNull();
    expect(card.queryByRole('alert')).toBeNull();
  });

  it('keeps focus on the card as the button pressed gives way to the progress', async () => {
    const { user } = renderProfile(jsonResponse({ export: null }), {
      'POST /api/user/export': jsonResponse({ exportId: 'exp-1' }, 202),
      'GET /api/user/export/exp-1': jsonResponse(preparing(0, null)),
    });

    const card = await exportCard();
    await user.click(await card.findByRole('button', { name: DOWNLOAD_ALL }));

    await card.findByRole('progressbar', { name: 'Preparing your music' });
    expect(document.activeElement).toBe(card.getByRole('heading', { level: 2, name: 'Your Music' }));
  });

  it('offers to try again when the exports cannot be read', async () => {
    let fail = true;
    const { user } = renderProfile(() =>
      fail ? jsonResponse({ message: 'Service unavailable' }, 503) : jsonResponse({ export: ready }),
    );

    const card = await exportCard();
    const retry = await card.findByRole('button', { name: 'Try Again' }, { timeout: 5000 });
    fail = false;
    await user.click(retry);

    expect(await card.findByRole('link', { name: /Download Zip/ })).toBeDefined();
  });
});
