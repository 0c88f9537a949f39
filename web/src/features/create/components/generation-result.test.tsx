import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderWithProviders } from '@/testing/render';
import { GenerationResult } from './generation-result';

const commercial = {
  commercialUse: true,
  summary: 'Commercial use allowed: you may use this track in ads, products and paid content.',
  termsUrl: 'http://localhost/terms#license',
};

const finished = {
  id: 'gen-1',
  title: 'Neon Nights',
  tags: 'synthwave',
  duration: 60,
  type: 'text-to-music',
  audioUrl: 'https://cdn.test/gen-1.wav',
  license: commercial,
  downloadReady: true,
};

function renderResult({
  planStatus,
  download,
  license = commercial,
}: {
  planStatus: 'free' | 'active';
  download?: MockResponse;
  license?: typeof commercial | null;
}) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': jsonResponse(planStatus === 'active' ? makeSubscriber() : makeUser()),
    ...(download ? { 'GET /api/generation/gen-1/download': download } : {}),
  });
  const rendered = renderWithProviders(
    <GenerationResult
      state={{ phase: 'completed', track: { ...finished, license } }}
      elapsedSeconds={42}
      duration={60}
    />,
  );
  return { ...rendered, fetchMock };
}

const yourTrack = () => within(screen.getByRole('region', { name: 'Your Track' }));

/** Download, then Download WAV in the dialog that states the license. */
async function downloadWav(user: ReturnType<typeof renderResult>['user']) {
  await user.click(await yourTrack().findByRole('button', { name: 'Download' }));
  await user.click(
    within(await screen.findByRole('dialog', { name: 'Download Track' })).getByRole('button', {
      name: 'Download WAV',
    }),
  );
}

describe('the finished track on the Create page', () => {
  it('plays at once and says the download is being prepared until it is there, with no Download to press', async () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeSubscriber()) });
    renderWithProviders(
      <GenerationResult
        state={{ phase: 'completed', track: { ...finished, downloadReady: false } }}
        elapsedSeconds={42}
        duration={60}
      />,
    );
    expect((await yourTrack().findByRole('status')).textContent).toBe('The download is being prepared');
    expect(yourTrack().queryByRole('button', { name: 'Download' })).toBeNull();
    // The player is there meanwhile.
    expect(yourTrack().getAllByRole('button', { name: /^play/i }).length).toBeGreaterThan(0);
  });

  it('downloads as ai-music-{timestamp}.wav by going to the link the server gives', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { fetchMock, user } = renderResult({
      planStatus: 'active',
      download: jsonResponse({ url: 'https://storage.test/gen-1.wav?sig', filename: 'ai-music-1.wav' }),
    });

    const before = Date.now();
    await downloadWav(user);

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://storage.test/gen-1.wav?sig'));
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/download'));
    const url = new URL(String(call?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/api/generation/gen-1/download');
    const name = url.searchParams.get('name') ?? '';
    expect(name).toMatch(/^ai-music-\d+$/);
    // The stamp is the moment of the click, not of the page's first render.
    expect(Number(name.slice('ai-music-'.length))).toBeGreaterThanOrEqual(before);
    expect(screen.queryByRole('link', { name: 'Upgrade to Download' })).toBeNull();
  });

  it('offers Upgrade to Download (to /pricing) on the free plan instead of Download', async () => {
    const { router, user } = renderResult({ planStatus: 'free' });

    await user.click(await yourTrack().findByRole('link', { name: 'Upgrade to Download' }));

    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    await waitFor(() => expect(router.location.pathname).toBe('/pricing'));
  });

  it("says why when the server refuses the download (403 gives the server's message)", async () => {
    const refusal = 'Downloads need a paid plan. Upgrade to download your tracks.';
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user } = renderResult({
      planStatus: 'active',
      download: jsonResponse({ message: refusal }, 403),
    });

    await downloadWav(user);

    const text = (await findToast()).textContent ?? '';
    expect(text).toContain('Download Failed');
    expect(text).toContain(refusal);
    expect(assign).not.toHaveBeenCalled();
  });

  it('says Download Failed with the general text when the download fails otherwise', async () => {
    const { user } = renderResult({
      planStatus: 'active',
      download: jsonResponse({ message: 'boom' }, 500),
    });

    await downloadWav(user);

    const text = (await findToast()).textContent ?? '';
    expect(text).toContain('Download Failed');
    expect(text).toContain('Failed to download the track.');
    expect(text).not.toContain('boom');
  });
});

describe('the download dialog', () => {
  it('states the track’s license with a link to the terms before anything is fetched', async () => {
    const { fetchMock, user } = renderResult({ planStatus: 'active' });

    await user.click(await yourTrack().findByRole('button', { name: 'Download' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Download Track' }));
    expect(dialog.getByText('Neon Nights')).toBeDefined();
    expect(dialog.getByText(commercial.summary, { exact: false })).toBeDefined();
    expect(dialog.getByRole('link', { name: 'License terms' }).getAttribute('href')).toBe('/terms#license');
    const wav = dialog.getByRole('button', { name: 'Download WAV' });
    expect(document.getElementById(wav.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      commercial.summary,
    );
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/download'))).toBe(false);
  });

  it('says personal use for a track made before licenses were recorded', async () => {
    const { user } = renderResult({ planStatus: 'active', license: null });

    await user.click(await yourTrack().findByRole('button', { name: 'Download' }));

    expect(
      within(await screen.findByRole('dialog', { name: 'Download Track' })).getByText(
        'Personal, non-commercial use only.',
        { exact: false },
      ),
    ).toBeDefined();
  });

  it('closes on Cancel without downloading, and gives focus back to Download', async () => {
    const { fetchMock, user } = renderResult({ planStatus: 'active' });
    const download = await yourTrack().findByRole('button', { name: 'Download' });

    await user.click(download);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Download Track' })).getByRole('button', {
        name: 'Cancel',
      }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(download);
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/download'))).toBe(false);
  });
});

describe('a running generation', () => {
  const running = { phase: 'running', id: 'gen-1', status: 'generating', startedAt: 0 } as const;

  it('tells the usual wait for the requested length', () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeUser()) });
    const { rerender } = renderWithProviders(
      <GenerationResult state={running} elapsedSeconds={5} duration={30} />,
    );
    expect(screen.getByRole('status').textContent).toContain('Generating... usually 30-60 seconds');
    rerender(<GenerationResult state={running} elapsedSeconds={5} duration={240} />);
    expect(screen.getByRole('status').textContent).toContain('Generating... usually 1-3 minutes');
  });

  it('says it is taking longer once the usual wait has passed, instead of repeating it', () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeUser()) });
    renderWithProviders(<GenerationResult state={running} elapsedSeconds={75} duration={30} />);
    const status = screen.getByRole('status').textContent ?? '';
    expect(status).toContain('taking longer than usual, still working on it');
    expect(status).not.toContain('usually 30-60 seconds');
    expect(status).toContain('Elapsed 1:15');
  });
});
