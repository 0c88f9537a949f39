import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { TrackStems } from '@tunesmith/shared/stems';
import { describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeTrack, makeUser } from '@/testing/fixtures';
import { anonymous, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const stem = (name: string) => ({
  name,
  audioUrl: `https://cdn.test/stems/${name}.opus`,
  peaksUrl: null,
  sha256: 'b'.repeat(64),
  loudness: null,
});
const ready: TrackStems = {
  status: 'ready',
  set: '4',
  stems: ['vocals', 'drums', 'bass', 'other'].map(stem),
};

function renderTrackPage(
  stems: MockResponse,
  {
    user = makeSubscriber(),
    mine = ['abc'],
  }: { user?: ReturnType<typeof makeUser> | null; mine?: string[] } = {},
  routes: Record<string, MockResponse> = {},
) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': user ? jsonResponse(user) : anonymous(),
    'GET /api/track/abc': jsonResponse(makeTrack({ id: 'abc', title: 'Neon Nights', duration: 90 })),
    'GET /api/my-generations': jsonResponse(mine.map((id) => makeTrack({ id }))),
    'GET /api/track/abc/stems': stems,
    ...routes,
  });
  return { ...renderApp('/track/abc'), fetchMock };
}

const stemsCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/api/track/abc/stems')).length;

/** Waits until the page has asked about the stems and shown what it was told. */
async function stemsAnswered(fetchMock: ReturnType<typeof mockFetch>) {
  await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
  await waitFor(() => expect(stemsCalls(fetchMock)).toBeGreaterThan(0));
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('track page: stems', () => {
  it('shows nothing of stems for a track without them, nor where they cannot be asked about', async () => {
    const none = renderTrackPage(jsonResponse({ status: 'none', stems: [] }));
    await stemsAnswered(none.fetchMock);
    expect(screen.queryByRole('heading', { name: 'Stems' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Mute / })).toBeNull();
    cleanup();

    const unknown = renderTrackPage(jsonResponse({ message: 'Not found' }, 404));
    await stemsAnswered(unknown.fetchMock);
    expect(screen.queryByRole('heading', { name: 'Stems' })).toBeNull();
    // A refusal is not asked again.
    expect(stemsCalls(unknown.fetchMock)).toBe(1);
  });

  it('shows the owner that the stems are being separated, checks again, then shows the mixer', async () => {
    let answer: TrackStems = { status: 'processing', set: '4', stems: [] };
    const { fetchMock } = renderTrackPage(() => jsonResponse(answer));

    expect(await screen.findByText('Separating stems… They show here once they are ready.')).toBeDefined();
    answer = ready;
    // Checked again while processing (every 3 s), until they are ready.
    expect(await screen.findByRole('button', { name: 'Mute vocals' }, { timeout: 8_000 })).toBeDefined();
    expect(stemsCalls(fetchMock)).toBeGreaterThan(1);
    const stems = within(screen.getByRole('region', { name: 'Stems' }));
    for (const name of ['vocals', 'drums', 'bass', 'other']) {
      expect(stems.getByRole('button', { name: `Solo ${name}` })).toBeDefined();
    }
    expect(stems.getByRole('slider', { name: 'Drums volume' })).toBeDefined();
  });

  it('tells the owner honestly when the separation failed, and others nothing', async () => {
    const failed = jsonResponse({ status: 'failed', set: '4', stems: [] });
    renderTrackPage(failed);
    expect(
      await screen.findByText(
        'The stems could not be made. The generation it used was given back: you can ask again.',
      ),
    ).toBeDefined();
    cleanup();

    const visitor = renderTrackPage(jsonResponse({ status: 'failed', set: '4', stems: [] }), { user: null });
    await stemsAnswered(visitor.fetchMock);
    expect(screen.queryByText(/could not be made/)).toBeNull();
  });

  it('shows the stems and their mixer to a visitor, with no download', async () => {
    renderTrackPage(jsonResponse(ready), { user: null });
    expect(await screen.findByRole('button', { name: 'Mute vocals' })).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Stems' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Download stems' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Upgrade to Download Stems' })).toBeNull();
  });

  it("downloads the owner's stems as one zip on a plan with downloads", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user } = renderTrackPage(
      jsonResponse(ready),
      {},
      {
        'GET /api/generation/abc/stems/download': jsonResponse({
          url: 'https://storage.test/abc-stems.zip?sig',
          filename: 'Neon Nights stems.zip',
        }),
      },
    );
    const download = await screen.findByRole('button', { name: 'Download stems' });
    expect(download.getAttribute('aria-describedby')).toBe(
      screen.getByRole('heading', { level: 1, name: 'Neon Nights' }).getAttribute('id'),
    );
    await user.click(download);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://storage.test/abc-stems.zip?sig'));
  });

  it("says why the stems' download was refused", async () => {
    const { user } = renderTrackPage(
      jsonResponse(ready),
      {},
      {
        'GET /api/generation/abc/stems/download': jsonResponse(
          { message: 'Your plan does not include stem downloads' },
          403,
        ),
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Download stems' }));
    const toast = await findToast();
    expect(toast.textContent).toContain('Download Failed');
    expect(toast.textContent).toContain('Your plan does not include stem downloads');
  });

  it('offers an owner on the free plan the upgrade in place of Download stems', async () => {
    renderTrackPage(jsonResponse(ready), { user: makeUser() });
    const upgrade = await screen.findByRole('link', { name: 'Upgrade to Download Stems' });
    expect(upgrade.getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('button', { name: 'Download stems' })).toBeNull();
  });

  it("offers the owner Separate stems beside the studio's actions, and nobody else", async () => {
    const own = renderTrackPage(jsonResponse({ status: 'none', stems: [] }));
    const separate = await screen.findByRole('button', { name: 'Separate stems' });
    expect(separate.getAttribute('aria-describedby')).toBe(
      screen.getByRole('heading', { level: 1, name: 'Neon Nights' }).getAttribute('id'),
    );
    await stemsAnswered(own.fetchMock);
    cleanup();

    const visitor = renderTrackPage(jsonResponse({ status: 'none', stems: [] }), { user: null });
    await stemsAnswered(visitor.fetchMock);
    expect(screen.queryByRole('button', { name: 'Separate stems' })).toBeNull();
  });
});
