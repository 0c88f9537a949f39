import { act, screen, waitFor, within } from '@testing-library/react';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import { describe, expect, it, vi } from 'vitest';
import { FIRST_SESSION_KEY } from '@/lib/first-sign-in';
import { makeSubscriber, makeTrack, makeUser } from '@/testing/fixtures';
import { anonymous, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderWithProviders } from '@/testing/render';
import { recordLocalStorage } from '@/testing/storage';
import { VERSIONS_LAYOUT_KEY } from '../hooks/use-versions-layout';
import { MusicLibrary } from './music-library';

const library: Track[] = [
  makeTrack({
    id: 'neon',
    title: 'Neon Nights',
    tags: 'synthwave, energetic',
    lyrics: `[verse]\n${'la '.repeat(50)}END`,
    license: {
      commercialUse: false,
      summary: 'Personal, non-commercial use only.',
      termsUrl: 'http://localhost/terms#license',
    },
  }),
  makeTrack({
    id: 'rain',
    title: 'Rainy Day',
    tags: 'lo-fi, chill',
    visibility: 'private',
    type: 'audio-to-music',
  }),
  makeTrack({ id: 'wip', title: 'Work in Progress', tags: 'rock', status: 'generating', audioUrl: null }),
  makeTrack({ id: 'queued', title: null, tags: 'jazz', status: 'pending', audioUrl: null, duration: null }),
  makeTrack({ id: 'broken', title: 'Broken', tags: 'pop', status: 'failed', audioUrl: null }),
];

function renderLibrary(
  {
    tracks = library,
    user = makeSubscriber(),
    routes = {},
  }: {
    tracks?: Track[];
    user?: ReturnType<typeof makeUser> | null;
    routes?: Record<string, MockResponse>;
  } = {},
  options: Parameters<typeof renderWithProviders>[1] = {},
) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': user ? jsonResponse(user) : anonymous(),
    'GET /api/my-generations': jsonResponse(tracks),
    ...routes,
  });
  const onCreateFirst = vi.fn();
  const rendered = renderWithProviders(<MusicLibrary onCreateFirst={onCreateFirst} />, options);
  return { ...rendered, fetchMock, onCreateFirst };
}

const card = (name: string) => within(screen.getByRole('article', { name }));
const cardTitles = () =>
  screen.queryAllByRole('article').map((article) => article.querySelector('h3')?.textContent);
const listCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/api/my-generations')).length;

async function toastText() {
  const toast = await findToast();
  return { toast, text: toast.textContent ?? '' };
}

describe('my music library', () => {
  it('shows Access Denied to a visitor and asks for nothing', async () => {
    const { fetchMock } = renderLibrary({ user: null });

    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeDefined();
    expect(screen.getByText('Please log in to view your library.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');
    expect(listCalls(fetchMock)).toBe(0);
  });

  it('welcomes a user in the session of their first sign-in without "back"', async () => {
    window.sessionStorage.setItem(FIRST_SESSION_KEY, 'user-1');
    try {
      renderLibrary({ user: makeSubscriber({ id: 'user-1' }) });

      expect(
        await screen.findByText(/^Welcome, Ada! Here are all the tracks you have created\.$/),
      ).toBeDefined();
      expect(screen.queryByText(/Welcome back/)).toBeNull();
    } finally {
      window.sessionStorage.clear();
    }
  });

  it('welcomes the user and counts total, completed, public and private tracks', async () => {
    renderLibrary();

    expect(await screen.findByText(/Welcome back, Ada!/)).toBeDefined();
    const counter = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    await screen.findByText('Total Tracks');
    expect(counter('Total Tracks')).toBe('5');
    expect(counter('Completed')).toBe('2');
    expect(counter('Public')).toBe('4');
    expect(counter('Private')).toBe('1');
    expect(cardTitles()).toEqual([
      'Neon Nights',
      'Rainy Day',
      'Work in Progress',
      'Untitled Track',
      'Broken',
    ]);
  });

  it("shows a track's tempo and key on its card once they are measured", async () => {
    renderLibrary({
      tracks: [
        makeTrack({
          id: 'neon',
          title: 'Neon Nights',
          analysis: { bpm: 120, key: 'A minor', confidence: 0.8 },
        }),
        makeTrack({ id: 'rain', title: 'Rainy Day' }),
      ],
    });

    await screen.findByRole('article', { name: 'Neon Nights' });
    const tempoAndKey = card('Neon Nights').getByText('Tempo and key', { selector: 'dt' });
    expect(tempoAndKey.nextElementSibling?.textContent).toBe('120 BPM · A minor');
    expect(card('Rainy Day').queryByText('Tempo and key')).toBeNull();
  });

  it("names each track's model on its card, a track from before the choice as ACE-Step", async () => {
    renderLibrary({
      tracks: [
        makeTrack({ id: 'tape', title: 'Tape Loop', model: 'cassetteai' }),
        makeTrack({ id: 'old', title: 'Old Song' }),
      ],
    });

    await screen.findByRole('article', { name: 'Tape Loop' });
    const model = (name: string) =>
      card(name).getByText('Model', { selector: 'dt' }).nextElementSibling?.textContent;
    expect(model('Tape Loop')).toBe('CassetteAI');
    expect(model('Old Song')).toBe('ACE-Step');
  });

  it('searches titles and tags, whatever the case', async () => {
    const { user } = renderLibrary();
    const search = await screen.findByLabelText('Search tracks');

    await user.type(search, 'RAINY');
    expect(cardTitles()).toEqual(['Rainy Day']);

    await user.clear(search);
    await user.type(search, 'jazz');
    expect(cardTitles()).toEqual(['Untitled Track']);
    expect(screen.getByRole('status').textContent).toBe('Showing 1 of 5 tracks');
  });

  it('filters by status, type and visibility, and clears the filters', async () => {
    const { user } = renderLibrary();
    await screen.findByLabelText('Status');

    const status = screen.getByLabelText('Status');
    expect([...status.querySelectorAll('option')].map((option) => option.value)).toEqual([
      'all',
      'completed',
      'generating',
      'pending',
      'failed',
    ]);
    await user.selectOptions(status, 'completed');
    expect(cardTitles()).toEqual(['Neon Nights', 'Rainy Day']);
    await user.selectOptions(screen.getByLabelText('Type'), 'audio-to-music');
    expect(cardTitles()).toEqual(['Rainy Day']);
    await user.selectOptions(screen.getByLabelText('Visibility'), 'public');
    expect(cardTitles()).toEqual([]);
    expect(screen.getByText('No tracks match your search or filters.')).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(cardTitles()).toHaveLength(5);

    await user.selectOptions(screen.getByLabelText('Status'), 'pending');
    expect(cardTitles()).toEqual(['Untitled Track']);
    await user.selectOptions(screen.getByLabelText('Status'), 'failed');
    expect(cardTitles()).toEqual(['Broken']);
  });

  it('colours the status: green completed, blue generating, red failed, grey otherwise', async () => {
    renderLibrary();
    await screen.findByRole('article', { name: 'Neon Nights' });

    const tone = (name: string) =>
      screen.getByRole('article', { name }).querySelector('[data-tone]')?.getAttribute('data-tone');
    expect(tone('Neon Nights')).toBe('green');
    expect(tone('Work in Progress')).toBe('blue');
    expect(tone('Broken')).toBe('red');
    expect(tone('Untitled Track')).toBe('grey');
    expect(card('Work in Progress').getByText('Generating')).toBeDefined();
  });

  it('previews lyrics cut at 100 characters and plays tracks that have audio', async () => {
    renderLibrary();
    await screen.findByRole('article', { name: 'Neon Nights' });

    const lyrics = library[0]?.lyrics ?? '';
    const preview = `${lyrics.slice(0, 100)}...`;
    expect(
      card('Neon Nights').getByText(
        (_, element) => element?.tagName === 'P' && element.textContent === preview,
      ),
    ).toBeDefined();
    expect(card('Neon Nights').getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
    expect(card('Work in Progress').queryByRole('button', { name: /^Play/ })).toBeNull();
  });

  it('renames a track with Enter, sending the title and the current visibility', async () => {
    let body: unknown;
    const { user } = renderLibrary({
      routes: {
        'PATCH /api/generation/rain/visibility': async (request) => {
          body = await request.json();
          return jsonResponse({ ...library[1], title: 'Stormy Day' });
        },
      },
    });
    await screen.findByRole('article', { name: 'Rainy Day' });

    await user.click(card('Rainy Day').getByRole('button', { name: 'Rename' }));
    const input = screen.getByRole('textbox', { name: 'Track title' });
    expect(document.activeElement).toBe(input);
    await user.clear(input);
    await user.type(input, '  Stormy Day {Enter}');

    expect((await toastText()).text).toContain('Track updated');
    expect(body).toEqual({ title: 'Stormy Day', visibility: 'private' });
    expect(await screen.findByRole('article', { name: 'Stormy Day' })).toBeDefined();
    expect(screen.queryByRole('textbox', { name: 'Track title' })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Rename');
  });

  it('cancels a rename with Escape, sending nothing', async () => {
    const { user, fetchMock } = renderLibrary();
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Rename' }));
    await user.type(screen.getByRole('textbox', { name: 'Track title' }), ' Remixed{Escape}');

    expect(screen.queryByRole('textbox', { name: 'Track title' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Neon Nights' })).toBeDefined();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('refuses an empty title without calling the server', async () => {
    const { user, fetchMock } = renderLibrary();
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Rename' }));
    await user.clear(screen.getByRole('textbox', { name: 'Track title' }));
    await user.keyboard('{Enter}');

    const { text } = await toastText();
    expect(text).toContain('Update failed');
    expect(text).toContain('Title cannot be empty.');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('says Could not update track title. when a rename fails', async () => {
    const { user } = renderLibrary({
      routes: { 'PATCH /api/generation/neon/visibility': jsonResponse({ message: 'boom' }, 500) },
    });
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Rename' }));
    await user.type(screen.getByRole('textbox', { name: 'Track title' }), ' 2{Enter}');

    const { text, toast } = await toastText();
    expect(text).toContain('Update failed');
    expect(text).toContain('Could not update track title.');
    expect(toast.dataset.variant).toBe('destructive');
  });

  it('toggles visibility, sending the current title with it', async () => {
    const bodies: unknown[] = [];
    const { user } = renderLibrary({
      routes: {
        'PATCH /api/generation/neon/visibility': async (request) => {
          const body = (await request.json()) as { visibility: string };
          bodies.push(body);
          return jsonResponse({ ...library[0], visibility: body.visibility });
        },
        'PATCH /api/generation/queued/visibility': async (request) => {
          bodies.push(await request.json());
          return jsonResponse({ ...library[3], visibility: 'private' });
        },
      },
    });
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Make Private' }));
    expect(await card('Neon Nights').findByRole('button', { name: 'Make Public' })).toBeDefined();
    expect(card('Neon Nights').getByText('Private')).toBeDefined();
    await user.click(card('Untitled Track').getByRole('button', { name: 'Make Private' }));

    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies).toEqual([
      { title: 'Neon Nights', visibility: 'private' },
      { title: 'Untitled Track', visibility: 'private' },
    ]);
    expect((await toastText()).text).toContain('Track updated');
  });

  it("shows the server's reason when private tracks need a paid plan", async () => {
    const reason = 'Private tracks need a paid plan. Upgrade to keep tracks private.';
    // The plan the page knows allows it (the button is offered); the server has the last word.
    const { user } = renderLibrary({
      user: makeSubscriber(),
      routes: { 'PATCH /api/generation/neon/visibility': jsonResponse({ message: reason }, 402) },
    });
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Make Private' }));

    const { text } = await toastText();
    expect(text).toContain('Update failed');
    expect(text).toContain(reason);
    expect(card('Neon Nights').getByRole('button', { name: 'Make Private' })).toBeDefined();
  });

  it('offers Upgrade to Make Private (to /pricing) on the free plan, and still Make Public for a private track', async () => {
    const { router, user, fetchMock } = renderLibrary({ user: makeUser({ planStatus: 'free' }) });
    await screen.findByRole('article', { name: 'Neon Nights' });

    expect(screen.queryByRole('button', { name: 'Make Private' })).toBeNull();
    const upgrade = card('Neon Nights').getByRole('link', { name: 'Upgrade to Make Private' });
    expect(upgrade.className).toBe(
      card('Neon Nights').getByRole('link', { name: 'Upgrade to Download' }).className,
    );
    expect(card('Rainy Day').getByRole('button', { name: 'Make Public' })).toBeDefined();
    await user.click(upgrade);

    await waitFor(() => expect(router.location.pathname).toBe('/pricing'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it("describes each card's actions by the card's title", async () => {
    const described = (element: HTMLElement) => {
      const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
      return ids.map((id) => document.getElementById(id)?.textContent).join(' ');
    };
    const { user } = renderLibrary({ user: makeUser({ planStatus: 'free' }) });
    await screen.findByRole('article', { name: 'Neon Nights' });

    for (const name of ['Neon Nights', 'Rainy Day', 'Untitled Track']) {
      expect(described(card(name).getByRole('button', { name: 'Delete' }))).toBe(name);
      expect(described(card(name).getByRole('button', { name: 'Rename' }))).toBe(name);
    }
    expect(described(card('Neon Nights').getByRole('link', { name: 'Upgrade to Make Private' }))).toBe(
      'Neon Nights',
    );
    expect(described(card('Neon Nights').getByRole('link', { name: 'Upgrade to Download' }))).toBe(
      'Neon Nights',
    );
    expect(described(card('Rainy Day').getByRole('button', { name: 'Make Public' }))).toBe('Rainy Day');
    // The visible names stay short: the title is the description, not part of the name.
    expect(card('Rainy Day').getByRole('button', { name: 'Delete' }).textContent).toBe('Delete');
    // While the title is edited, the actions still point at the (hidden) title heading.
    await user.click(card('Rainy Day').getByRole('button', { name: 'Rename' }));
    expect(described(card('Rainy Day').getByRole('button', { name: 'Delete' }))).toBe('Rainy Day');
  });

  it('describes the Download button of a paid plan by the card title', async () => {
    renderLibrary();
    await screen.findByRole('article', { name: 'Neon Nights' });

    const download = card('Neon Nights').getByRole('button', { name: 'Download' });
    const id = download.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(id)?.textContent).toBe('Neon Nights');
    expect(
      document.getElementById(
        card('Neon Nights').getByRole('button', { name: 'Make Private' }).getAttribute('aria-describedby') ??
          '',
      )?.textContent,
    ).toBe('Neon Nights');
  });

  it('says Could not update track visibility. when a toggle fails', async () => {
    const { user } = renderLibrary({
      routes: { 'PATCH /api/generation/neon/visibility': jsonResponse({ message: 'boom' }, 500) },
    });
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Make Private' }));

    expect((await toastText()).text).toContain('Could not update track visibility.');
  });

  it('downloads a completed track on a paid plan by going to the link the server gives', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { user } = renderLibrary({
      routes: {
        'GET /api/generation/neon/download': jsonResponse({
          url: 'https://storage.test/neon.wav?sig',
          filename: 'Neon Nights.wav',
        }),
      },
    });
    await screen.findByRole('article', { name: 'Neon Nights' });

    expect(card('Work in Progress').queryByRole('button', { name: 'Download' })).toBeNull();
    await user.click(card('Neon Nights').getByRole('button', { name: 'Download' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Download Track' }));
    expect(dialog.getByText('Neon Nights')).toBeDefined();
    expect(dialog.getByText('Personal, non-commercial use only.', { exact: false })).toBeDefined();
    await user.click(dialog.getByRole('button', { name: 'Download WAV' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://storage.test/neon.wav?sig'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('link', { name: 'Upgrade to Download' })).toBeNull();
  });

  it('says Download Failed when the download cannot start', async () => {
    const { user } = renderLibrary({
      routes: { 'GET /api/generation/neon/download': jsonResponse({ message: 'boom' }, 500) },
    });
    await screen.findByRole('article', { name: 'Neon Nights' });

    await user.click(card('Neon Nights').getByRole('button', { name: 'Download' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Download Track' })).getByRole('button', {
        name: 'Download WAV',
      }),
    );

    const { text } = await toastText();
    expect(text).toContain('Download Failed');
    expect(text).toContain('Failed to download the track.');
  });

  it('offers Upgrade to Download (to /pricing) on the free plan instead of Download', async () => {
    const { router, user } = renderLibrary({ user: makeUser({ planStatus: 'free' }) });
    await screen.findByRole('article', { name: 'Neon Nights' });

    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    await user.click(card('Neon Nights').getByRole('link', { name: 'Upgrade to Download' }));

    await waitFor(() => expect(router.location.pathname).toBe('/pricing'));
  });

  it("copies the track's full link to share it", async () => {
    const { user } = renderLibrary();
    await screen.findByRole('article', { name: 'Rainy Day' });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    await user.click(card('Rainy Day').getByRole('button', { name: 'Share' }));

    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/track/rain`);
    const { text } = await toastText();
    expect(text).toContain('Link Copied!');
    expect(text).toContain('Track link has been copied to your clipboard.');
  });

  it('deletes only after confirmation', async () => {
    let deletes = 0;
    const { user } = renderLibrary({
      routes: {
        'DELETE /api/generation/rain': () => {
          deletes += 1;
          return new Response(null, { status: 204 });
        },
      },
    });
    await screen.findByRole('article', { name: 'Rainy Day' });

    await user.click(card('Rainy Day').getByRole('button', { name: 'Delete' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Delete this track?' }));
    expect(dialog.getByText(/"Rainy Day" and its audio will be deleted permanently/)).toBeDefined();
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletes).toBe(0);

    await user.click(card('Rainy Day').getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Track' }));

    expect((await toastText()).text).toContain('Track deleted');
    expect(deletes).toBe(1);
    expect(screen.queryByRole('article', { name: 'Rainy Day' })).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement?.textContent).toBe('My Music Library');
  });

  it('says Delete failed and keeps the track when deleting fails', async () => {
    const { user } = renderLibrary({
      routes: { 'DELETE /api/generation/rain': jsonResponse({ message: 'boom' }, 500) },
    });
    await screen.findByRole('article', { name: 'Rainy Day' });

    await user.click(card('Rainy Day').getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Track' }));

    const { text } = await toastText();
    expect(text).toContain('Delete failed');
    expect(text).toContain('Could not delete track. Please try again.');
    expect(screen.getByRole('article', { name: 'Rainy Day' })).toBeDefined();
  });

  it('offers Create First Track when the library is empty', async () => {
    const { user, onCreateFirst } = renderLibrary({ tracks: [] });

    await user.click(await screen.findByRole('button', { name: 'Create First Track' }));

    expect(onCreateFirst).toHaveBeenCalledTimes(1);
    expect(screen.queryByLabelText('Search tracks')).toBeNull();
  });

  it('keeps the tracks and an open title edit when a refresh fails, and takes the next refresh', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const wip = (status: Track['status']) => [makeTrack({ id: 'wip', title: 'Work in Progress', status })];
    const { user } = renderLibrary(
      {
        routes: {
          'GET /api/my-generations': () => {
            calls += 1;
            if (calls === 2) return jsonResponse({ message: 'boom' }, 500);
            return jsonResponse(wip(calls === 1 ? 'generating' : 'completed'));
          },
        },
      },
      { userEvent: { advanceTimers: (ms) => vi.advanceTimersByTime(ms) } },
    );
    await screen.findByRole('article', { name: 'Work in Progress' });
    await user.click(card('Work in Progress').getByRole('button', { name: 'Rename' }));
    await user.type(screen.getByRole('textbox', { name: 'Track title' }), ' 2');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    });
    expect(calls).toBe(2);
    expect(screen.queryByText('Your library could not be loaded.')).toBeNull();
    expect(screen.getByRole('article', { name: 'Work in Progress' })).toBeDefined();
    expect(screen.getByRole('textbox', { name: 'Track title' })).toHaveProperty(
      'value',
      'Work in Progress 2',
    );

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    });
    expect(calls).toBe(3);
    expect(card('Work in Progress').getByText('Completed')).toBeDefined();
  });

  it('shows the error with Try Again when the library cannot be loaded at all', async () => {
    let calls = 0;
    const { user } = renderLibrary({
      routes: {
        'GET /api/my-generations': () => {
          calls += 1;
          return calls === 1 ? jsonResponse({ message: 'boom' }, 500) : jsonResponse(library);
        },
      },
    });

    expect(await screen.findByText('Your library could not be loaded.')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByRole('article', { name: 'Neon Nights' })).toBeDefined();
  });

  it('refreshes every 3 s while a track is pending or generating, and stops when none is', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const { fetchMock } = renderLibrary({
      routes: {
        'GET /api/my-generations': () => {
          calls += 1;
          const status = calls < 2 ? 'generating' : 'completed';
          return jsonResponse([makeTrack({ id: 'wip', title: 'Work in Progress', status })]);
        },
      },
    });
    await screen.findByRole('article', { name: 'Work in Progress' });
    expect(calls).toBe(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    });
    expect(calls).toBe(2);
    expect(card('Work in Progress').getByText('Completed')).toBeDefined();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS * 3);
    });
    expect(listCalls(fetchMock)).toBe(2);
  });
});

describe('a track whose download is being prepared', () => {
  it('plays, says its download is being prepared in place of Download, and offers Download once it is there', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const { fetchMock } = renderLibrary({
      routes: {
        'GET /api/my-generations': () => {
          calls += 1;
          return jsonResponse([makeTrack({ id: 'fresh', title: 'Fresh Take', downloadReady: calls > 1 })]);
        },
      },
    });
    await screen.findByRole('article', { name: 'Fresh Take' });
    expect(card('Fresh Take').getByRole('button', { name: 'Play Fresh Take' })).toBeDefined();
    expect(card('Fresh Take').getByRole('status').textContent).toBe('The download is being prepared');
    expect(card('Fresh Take').queryByRole('button', { name: 'Download' })).toBeNull();

    // The list is checked again while a download is being prepared ...
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    });
    expect(calls).toBe(2);
    expect(card('Fresh Take').getByRole('button', { name: 'Download' })).toBeDefined();
    expect(card('Fresh Take').queryByText('The download is being prepared')).toBeNull();
    // ... and no more once it is there.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS * 3);
    });
    expect(listCalls(fetchMock)).toBe(2);
  });
});

describe('versions in the library', () => {
  // Newest first: a repaint of an extension of Neon Nights, another track, the extension, Neon Nights.
  const family: Track[] = [
    makeTrack({
      id: 'neon-rep',
      title: 'Neon Nights (repainted)',
      parentId: 'neon-ext',
      edit: { kind: 'repaint', start: 10, end: 20, variance: 0.5 },
      visibility: 'private',
    }),
    makeTrack({ id: 'rain', title: 'Rainy Day', tags: 'lo-fi, chill' }),
    makeTrack({
      id: 'neon-ext',
      title: 'Neon Nights (extended)',
      parentId: 'neon',
      edit: { kind: 'extend', seconds: 30, at: 'end' },
    }),
    makeTrack({ id: 'orphan', title: 'Orphan Take', parentId: 'deleted-one', edit: { kind: 'variation' } }),
    makeTrack({ id: 'neon', title: 'Neon Nights' }),
  ];

  it('groups versions under their first track, says how each was made, and keeps the counts', async () => {
    renderLibrary({ tracks: family });

    const versions = await screen.findByRole('list', { name: '2 versions of Neon Nights' });
    expect(
      within(versions)
        .getAllByRole('article')
        .map((article) => article.querySelector('h3')?.textContent),
    ).toEqual(['Neon Nights (repainted)', 'Neon Nights (extended)']);
    expect(card('Neon Nights (repainted)').getByText('Repainted 0:10–0:20')).toBeDefined();
    expect(card('Neon Nights (extended)').getByText('Extended by 30 s at the end')).toBeDefined();
    // A version whose parent was deleted stands on its own.
    expect(card('Orphan Take').getByText('Variation')).toBeDefined();
    expect(cardTitles()).toEqual([
      'Neon Nights',
      'Neon Nights (repainted)',
      'Neon Nights (extended)',
      'Rainy Day',
      'Orphan Take',
    ]);
    expect(screen.getByText('Showing 5 of 5 tracks')).toBeDefined();
    const counter = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(counter('Total Tracks')).toBe('5');
    expect(counter('Private')).toBe('1');
  });

  it('filters within groups: a version shows under its root even when the root does not match', async () => {
    const { user } = renderLibrary({ tracks: family });
    await screen.findByRole('list', { name: '2 versions of Neon Nights' });

    await user.selectOptions(screen.getByLabelText('Visibility'), 'private');

    expect(await screen.findByRole('list', { name: '1 version of Neon Nights' })).toBeDefined();
    expect(cardTitles()).toEqual(['Neon Nights (repainted)']);
    expect(screen.getByText('Showing 1 of 5 tracks')).toBeDefined();
  });

  it('shows versions flat when asked, and remembers it on this device', async () => {
    const storage = recordLocalStorage();
    const { user, unmount } = renderLibrary({ tracks: family });
    await screen.findByRole('list', { name: '2 versions of Neon Nights' });

    await user.click(screen.getByRole('switch', { name: 'Show versions flat' }));

    expect(screen.queryByRole('list', { name: '2 versions of Neon Nights' })).toBeNull();
    expect(cardTitles()).toEqual([
      'Neon Nights (repainted)',
      'Rainy Day',
      'Neon Nights (extended)',
      'Orphan Take',
      'Neon Nights',
    ]);
    expect(storage.data.get(VERSIONS_LAYOUT_KEY)).toBe('flat');

    unmount();
    renderLibrary({ tracks: family });
    const flat = await screen.findByRole('switch', { name: 'Show versions flat' });
    expect(flat.getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByRole('list', { name: '2 versions of Neon Nights' })).toBeNull();
  });

  it('offers the grouping switch only when the library has versions', async () => {
    renderLibrary();

    await screen.findByRole('article', { name: 'Neon Nights' });
    expect(screen.queryByRole('switch', { name: 'Show versions flat' })).toBeNull();
  });

  it("puts the page's extra actions on each card, described by the card's title", async () => {
    mockFetch({
      'GET /api/auth/user': jsonResponse(makeSubscriber()),
      'GET /api/my-generations': jsonResponse(library),
    });
    renderWithProviders(
      <MusicLibrary
        onCreateFirst={() => {}}
        trackActions={(track, describedBy) => (
          <button type="button" aria-describedby={describedBy}>
            Studio {track.id}
          </button>
        )}
      />,
    );

    await screen.findByRole('article', { name: 'Rainy Day' });
    const studio = card('Rainy Day').getByRole('button', { name: 'Studio rain' });
    expect(studio.getAttribute('aria-describedby')).toBe(
      screen.getByRole('heading', { name: 'Rainy Day' }).getAttribute('id'),
    );
    expect(screen.getAllByRole('button', { name: /^Studio / })).toHaveLength(library.length);
  });
});
