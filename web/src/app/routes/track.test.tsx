import type { QueryClient } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import { DIGITAL_SOURCE_TYPE, type Provenance } from '@tunesmith/shared/ownership';
import type { Track } from '@tunesmith/shared/tracks';
import { describe, expect, it, vi } from 'vitest';
import { provenanceFileName } from '@/features/track/components/about-track';
import { myGenerationsQueryKey, trackQueryKey } from '@/lib/query-keys';
import { makeSubscriber, makeTrack, makeUser } from '@/testing/fixtures';
import {
  anonymous,
  deferredResponse,
  jsonResponse,
  type MockResponse,
  mockFetch,
} from '@/testing/mock-fetch';
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

  it('shows the tempo and key measured from the audio, a dash before, and nothing while generating', async () => {
    renderTrack(track({ analysis: { bpm: 96, key: 'F# minor', confidence: 0.7 } }));

    const term = await screen.findByText('Tempo and key', { selector: 'dt' });
    expect(term.nextElementSibling?.textContent).toBe('96 BPM · F# minor');
    cleanup();

    renderTrack(track());
    const unmeasured = await screen.findByText('Tempo and key', { selector: 'dt' });
    expect(unmeasured.nextElementSibling?.textContent).toBe('—');
    cleanup();

    renderTrack(track({ status: 'generating', audioUrl: null }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Neon Nights' })).toBeDefined();
    expect(screen.queryByText('Tempo and key')).toBeNull();
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

    await waitFor(() => expect(router.location.pathname).toBe('/'));
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

describe('track page: the studio and the family', () => {
  function renderOwn(
    overrides: Partial<Track>,
    {
      mine = ['abc'],
      user = makeSubscriber(),
    }: { mine?: string[]; user?: ReturnType<typeof makeSubscriber> | null } = {},
    routes: Record<string, MockResponse> = {},
  ) {
    const fetchMock = mockFetch({
      'GET /api/auth/user': user ? jsonResponse(user) : anonymous(),
      'GET /api/track/abc': track(overrides),
      'GET /api/my-generations': jsonResponse(mine.map((id) => makeTrack({ id }))),
      ...routes,
    });
    return { ...renderApp('/track/abc'), fetchMock };
  }
  const studioButtons = () =>
    ['Extend', 'Repaint section', 'Make variation'].filter((name) => screen.queryByRole('button', { name }));

  it("offers the owner Extend, Repaint section and Make variation, described by the track's title", async () => {
    renderOwn({});

    const extend = await screen.findByRole('button', { name: 'Extend' });
    expect(studioButtons()).toEqual(['Extend', 'Repaint section', 'Make variation']);
    expect(extend.getAttribute('aria-describedby')).toBe(
      screen.getByRole('heading', { level: 1, name: 'Neon Nights' }).getAttribute('id'),
    );
  });

  it('offers nothing to a signed-in user who does not own the track, or to a visitor', async () => {
    // Loaded ahead, so buttons that were wrongly offered would show at once.
    await import('@/features/studio/components/studio-actions');
    const { queryClient } = renderOwn({}, { mine: ['other'] });
    await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
    // The library has answered, without this track in it.
    await waitFor(() => expect(queryClient.getQueryData(myGenerationsQueryKey)).toHaveLength(1));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(studioButtons()).toEqual([]);
    cleanup();

    const visitor = renderOwn({}, { user: null });
    await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
    expect(studioButtons()).toEqual([]);
    expect(
      visitor.fetchMock.mock.calls.some(([input]) => String(input).endsWith('/api/my-generations')),
    ).toBe(false);
  });

  it("offers nothing on the owner's track until it is completed", async () => {
    const { queryClient } = renderOwn({ status: 'generating', audioUrl: null });
    await screen.findByText('Track is still generating...');
    await waitFor(() => expect(queryClient.getQueryData(myGenerationsQueryKey)).toHaveLength(1));

    expect(studioButtons()).toEqual([]);
  });

  it("opens the new version's page once the server has started it", async () => {
    const made = makeTrack({
      id: 'var-1',
      title: 'Neon Nights (variation)',
      status: 'pending',
      audioUrl: null,
    });
    const { router } = renderOwn(
      {},
      {},
      {
        'POST /api/generation/abc/variation': jsonResponse({ generationId: 'var-1', track: made }, 201),
        'GET /api/track/var-1': jsonResponse({
          ...made,
          parentId: 'abc',
          edit: { kind: 'variation' },
          family: { parent: { id: 'abc', title: 'Neon Nights', deleted: false }, children: [] },
        }),
      },
    );
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Make variation' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Make variation' });
    await user.click(within(confirm).getByRole('button', { name: 'Make Variation' }));

    await waitFor(() => expect(router.location.pathname).toBe('/track/var-1'));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Neon Nights (variation)' });
    // The page that made it is gone: the new page's heading has focus, not the page's body.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('Track is still generating...')).toBeDefined();
    const from = screen.getByRole('link', { name: 'Neon Nights' });
    expect(from.getAttribute('href')).toBe('/track/abc');
    expect(from.parentElement?.textContent).toBe('Variation of Neon Nights');
  });

  it('names the parent it was made from and lists the versions made from it, each by a name of its own', async () => {
    renderOwn(
      {
        parentId: 'root',
        edit: { kind: 'extend', seconds: 30, at: 'end' },
        family: {
          parent: { id: 'root', title: 'First Light', deleted: false },
          children: [
            { id: 'c1', title: 'Neon Nights', kind: 'variation', status: 'completed' },
            { id: 'c2', title: 'Neon Nights', kind: 'repaint', status: 'completed' },
            { id: 'c3', title: 'Neon Nights', kind: 'variation', status: 'failed' },
            { id: 'c4', title: null, kind: 'variation', status: 'generating' },
          ],
        },
      },
      { user: null },
    );

    const parent = await screen.findByRole('link', { name: 'First Light' });
    expect(parent.getAttribute('href')).toBe('/track/root');
    expect(parent.parentElement?.textContent).toBe('Extended from First Light');
    const children = within(screen.getByRole('list', { name: 'Made from this track' }));
    // Versions share their parent's title: each link still says which one it is, and how it went.
    const links = children.getAllByRole('link');
    expect(links.map((link) => link.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Neon Nights (Variation 1)',
      'Neon Nights (Repaint)',
      'Neon Nights (Variation 2) Failed',
      'Untitled Track (Variation 3) Generating',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/track/c1',
      '/track/c2',
      '/track/c3',
      '/track/c4',
    ]);
    expect(children.getByRole('link', { name: /Variation 2.*Failed/ })).toBeDefined();
  });

  it("offers the owner Download with the track's license, as the library does", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { fetchMock } = renderOwn(
      {
        license: {
          commercialUse: false,
          summary: 'Personal, non-commercial use.',
          termsUrl: 'https://tunesmith.test/terms#license',
        },
      },
      {},
      {
        'GET /api/generation/abc/download': jsonResponse({
          url: 'https://storage.test/abc.wav?sig',
          filename: 'Neon Nights.wav',
        }),
      },
    );
    const user = userEvent.setup();

    const download = await screen.findByRole('button', { name: 'Download' });
    expect(download.getAttribute('aria-describedby')).toBe(
      screen.getByRole('heading', { level: 1, name: 'Neon Nights' }).getAttribute('id'),
    );
    await user.click(download);
    const dialog = within(await screen.findByRole('dialog', { name: 'Download Track' }));
    expect(dialog.getByText(/Personal, non-commercial use\./)).toBeDefined();
    await user.click(dialog.getByRole('button', { name: 'Download WAV' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://storage.test/abc.wav?sig'));
    expect(
      fetchMock.mock.calls.some(([input]) => String(input).includes('/api/generation/abc/download')),
    ).toBe(true);
    assign.mockRestore();
  });

  it('offers an owner on the free plan Upgrade to Download, and nobody else either', async () => {
    renderOwn({}, { user: makeUser({ generationsUsedThisMonth: 0 }) });

    const upgrade = await screen.findByRole('link', { name: 'Upgrade to Download' });
    expect(upgrade.getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    cleanup();

    const { queryClient } = renderOwn({}, { mine: ['other'] });
    await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
    await waitFor(() => expect(queryClient.getQueryData(myGenerationsQueryKey)).toHaveLength(1));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Upgrade to Download' })).toBeNull();
  });

  it('says a deleted parent is deleted, without a link', async () => {
    renderOwn(
      {
        parentId: 'gone',
        edit: { kind: 'repaint', start: 1, end: 4, variance: 0.5 },
        family: { parent: { id: 'gone', title: null, deleted: true }, children: [] },
      },
      { user: null },
    );

    expect(await screen.findByText('Repainted from')).toBeDefined();
    expect(screen.getByText('a deleted track')).toBeDefined();
    expect(screen.queryByRole('link', { name: /deleted/ })).toBeNull();
  });
});

describe('track page: About this track', () => {
  const record = (overrides: Partial<Provenance> = {}): Provenance => ({
    trackId: 'abc',
    createdAt: '2024-03-15T12:00:00.000Z',
    aiGenerated: true,
    digitalSourceType: DIGITAL_SOURCE_TYPE,
    provider: 'fal.ai',
    model: 'ACE-Step',
    endpoint: 'fal-ai/ace-step',
    seed: 4242,
    parameters: {
      tags: 'synthwave, energetic',
      lyrics: '[verse]\nCity lights',
      duration: 90,
      instrumental: false,
    },
    inputs: [],
    parentId: null,
    audioSha256: 'ab'.repeat(32),
    plan: 'Premium',
    license: {
      commercialUse: true,
      summary: 'Commercial use allowed: you may use this track in ads, products and paid content.',
      termsUrl: 'http://localhost/terms#license',
    },
    ...overrides,
  });

  function renderAbout({
    provenance = jsonResponse(record()),
    owner = false,
    overrides = {},
  }: {
    provenance?: MockResponse;
    owner?: boolean;
    overrides?: Partial<Track>;
  } = {}) {
    const fetchMock = mockFetch({
      'GET /api/auth/user': owner ? jsonResponse(makeSubscriber()) : anonymous(),
      'GET /api/track/abc': track(overrides),
      'GET /api/track/abc/provenance': provenance,
      'GET /api/my-generations': jsonResponse(owner ? [makeTrack({ id: 'abc' })] : []),
    });
    return { ...renderApp('/track/abc'), fetchMock };
  }

  const about = async () =>
    within(
      (await screen.findByRole('heading', { level: 2, name: 'About this track' })).closest(
        'section',
      ) as HTMLElement,
    );
  const value = (section: ReturnType<typeof within>, term: string) =>
    section.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

  it('says the track was generated by AI, with its model, endpoint, seed, date made and license linked to the terms', async () => {
    renderAbout({
      provenance: jsonResponse({
        ...record({ model: 'CassetteAI', endpoint: 'CassetteAI/music-generator' }),
        modelId: 'cassetteai',
        modelTerms: 'https://fal.ai/models/cassetteai/music-generator',
      }),
    });

    await screen.findByText('This track was generated by AI.');
    const section = await about();
    expect(value(section, 'Model')).toBe('CassetteAI on fal.ai · Model terms');
    expect(section.getByRole('link', { name: 'Model terms' }).getAttribute('href')).toBe(
      'https://fal.ai/models/cassetteai/music-generator',
    );
    expect(value(section, 'Endpoint')).toBe('CassetteAI/music-generator');
    expect(value(section, 'Seed')).toBe('4242');
    expect(value(section, 'Date made')).toBe('Mar 15, 2024');
    expect(value(section, 'License')).toContain(
      'Commercial use allowed: you may use this track in ads, products and paid content.',
    );
    expect(section.getByRole('link', { name: 'License terms' }).getAttribute('href')).toBe('/terms#license');
    // Only the owner downloads the record.
    expect(section.queryByRole('link', { name: 'Download provenance (JSON)' })).toBeNull();
  });

  it('links a record from before models were recorded to ACE-Step’s terms', async () => {
    renderAbout();

    await screen.findByText('This track was generated by AI.');
    const section = await about();
    expect(value(section, 'Endpoint')).toBe('fal-ai/ace-step');
    expect(value(section, 'Model')).toBe('ACE-Step on fal.ai · Model terms');
    expect(section.getByRole('link', { name: 'Model terms' }).getAttribute('href')).toBe(
      'https://fal.ai/models/fal-ai/ace-step',
    );
  });

  it('holds its place with a skeleton while the record loads', async () => {
    const pending = deferredResponse(() => jsonResponse(record()));
    renderAbout({ provenance: pending.handler });
    const section = await about();

    expect(section.getByRole('status').textContent).toBe('Loading details about this track');
    expect(section.getByRole('heading', { level: 2 }).closest('section')?.getAttribute('aria-busy')).toBe(
      'true',
    );
    pending.respond();

    expect(await screen.findByText('This track was generated by AI.')).toBeDefined();
    const loaded = await about();
    expect(loaded.queryByRole('status')).toBeNull();
    expect(loaded.getByRole('heading', { level: 2 }).closest('section')?.hasAttribute('aria-busy')).toBe(
      false,
    );
  });

  it('says the seed comes when a track still generating is finished', async () => {
    renderAbout({
      provenance: jsonResponse(record({ seed: null })),
      overrides: { status: 'generating', audioUrl: null },
    });

    await screen.findByText('This track was generated by AI.');
    const section = await about();
    expect(value(section, 'Seed')).toBe('Known when the track is finished');
  });

  it('says when the record could not be loaded, and Try Again loads it', async () => {
    let calls = 0;
    renderAbout({
      provenance: () => (++calls === 1 ? jsonResponse({ message: 'boom' }, 500) : jsonResponse(record())),
    });
    const user = userEvent.setup();

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Details about this track could not be loaded.',
    );
    await user.click((await about()).getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByText('This track was generated by AI.')).toBeDefined();
  });

  it('lets the owner download the record as <title>-provenance.json', async () => {
    renderAbout({ owner: true });

    const link = await screen.findByRole('link', { name: 'Download provenance (JSON)' });

    expect(link.getAttribute('download')).toBe('Neon Nights-provenance.json');
    const href = link.getAttribute('href') ?? '';
    expect(href.startsWith('data:application/json')).toBe(true);
    expect(JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)))).toEqual(record());
  });
});

describe('provenanceFileName', () => {
  it('names the file after the title made safe for a file system, or the id without a title', () => {
    expect(provenanceFileName({ id: 'abc', title: 'AC/DC: "Live"?' })).toBe('AC-DC- -Live--provenance.json');
    expect(provenanceFileName({ id: 'abc', title: null })).toBe('abc-provenance.json');
    expect(provenanceFileName({ id: 'abc', title: ' / ' })).toBe('--provenance.json');
  });
});
