import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { STATUS_POLL_INTERVAL_MS, UNAUTHORIZED_REDIRECT_MS } from '@tunesmith/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import { userQueryKey } from '@/lib/auth';
import { dismissToast } from '@/lib/toast';
import { makeSubscriber, makeUser } from '@/testing/fixtures';
import { callsMade, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { CreatePage } from './create-page';

const quota = "You've used all 5 generations for this week. Upgrade your plan to create more.";

function renderPage() {
  return renderWithProviders(<CreatePage />, {
    userEvent: {
      advanceTimers: (ms) => {
        if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
      },
    },
  });
}

function notifications() {
  return within(screen.getByRole('region', { name: 'Notifications (F8)' }));
}

/** Answers each status check with the next status; the last one repeats. */
function statusSequence(...statuses: string[]) {
  let call = 0;
  return () => {
    const status = statuses[Math.min(call++, statuses.length - 1)];
    return jsonResponse({
      status,
      audioUrl: status === 'completed' ? 'https://cdn.test/gen-1.wav' : null,
      duration: status === 'completed' ? 60 : null,
      tags: 'pop, upbeat',
      type: 'text-to-music',
      license: status === 'completed' ? commercialLicense : null,
    });
  };
}

const commercialLicense = {
  commercialUse: true,
  summary: 'Commercial use allowed: you may use this track in ads, products and paid content.',
  termsUrl: 'http://localhost/terms#license',
};

const statusCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes('/status')).length;

/** How often the library list has been marked for a refresh so far. */
const libraryRefreshes = (invalidate: { mock: { calls: unknown[][] } }) =>
  invalidate.mock.calls.filter(
    ([filters]) => JSON.stringify(filters) === JSON.stringify({ queryKey: ['my-generations'] }),
  ).length;

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function startGeneration(user: ReturnType<typeof renderPage>['user']) {
  await user.type(screen.getByLabelText('Genre Tags'), 'pop, upbeat');
  vi.useFakeTimers();
  await user.click(screen.getByRole('button', { name: 'Generate Music' }));
}

describe('create page', () => {
  it('has the three tabs, Text to Music selected; the library tab shows what the page is given', async () => {
    const createFirst = vi.fn();
    const { user } = renderWithProviders(
      <CreatePage
        library={(actions) => (
          <button
            type="button"
            onClick={() => {
              createFirst();
              actions.createFirst();
            }}
          >
            Library stand-in
          </button>
        )}
      />,
    );

    const tabs = within(screen.getByRole('tablist', { name: 'Create' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Text to Music', 'Audio to Music', 'My Library']);
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');

    await user.click(screen.getByRole('tab', { name: 'Audio to Music' }));
    expect(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Upload Audio' })).toBeDefined();

    await user.click(screen.getByRole('tab', { name: 'My Library' }));
    await user.click(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Library stand-in' }));

    expect(createFirst).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('tab', { name: 'Text to Music' }).getAttribute('aria-selected')).toBe('true');
  });

  it('adds a popular tag once, whatever its case in the list', async () => {
    const { user } = renderPage();
    const tags = screen.getByLabelText('Genre Tags');

    await user.type(tags, 'Pop, dreamy');
    await user.click(screen.getByRole('button', { name: 'pop' }));
    expect(tags).toHaveProperty('value', 'Pop, dreamy');

    await user.click(screen.getByRole('button', { name: 'synthwave' }));
    await user.click(screen.getByRole('button', { name: 'synthwave' }));
    expect(tags).toHaveProperty('value', 'Pop, dreamy, synthwave');
    expect(screen.getByRole('button', { name: 'synthwave' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the ten popular tags and the duration default of 1:00', () => {
    renderPage();

    const chips = within(screen.getByRole('list', { name: 'Popular tags' })).getAllByRole('button');
    expect(chips.map((chip) => chip.textContent)).toEqual([
      'female singer',
      'male singer',
      'pop',
      'electronic',
      'hip hop',
      'ad jingle',
      'synthwave',
      'lo-fi',
      'energetic',
      'upbeat',
    ]);
    const slider = screen.getByRole('slider', { name: 'Duration' });
    expect(slider).toHaveProperty('value', '60');
    expect(slider.getAttribute('min')).toBe('5');
    expect(slider.getAttribute('max')).toBe('240');
    expect(screen.getByText('1:00 (60 seconds)')).toBeDefined();
    expect(screen.getByText('Leave empty for an instrumental track.')).toBeDefined();
    expect(screen.getByRole('radio', { name: 'Public' }).getAttribute('aria-checked')).toBe('true');
  });

  it('asks for tags before sending anything', async () => {
    const fetchMock = mockFetch({});
    const { user } = renderPage();

    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    expect(await notifications().findByText('Missing Tags')).toBeDefined();
    expect(notifications().getByText('Please enter at least one genre tag.')).toBeDefined();
    // Nothing but the models the form offers is asked for.
    expect(callsMade(fetchMock).filter((call) => call !== 'GET /api/models')).toEqual([]);
  });

  it('sends tags, instrumental lyrics, the default duration and public visibility', async () => {
    let body: unknown;
    mockFetch({
      'POST /api/generate-text-to-music': async (request) => {
        body = await request.json();
        return jsonResponse({ generationId: 'gen-1' }, 201);
      },
      'GET /api/generation/gen-1/status': statusSequence('pending'),
    });
    const { user } = renderPage();

    await user.type(screen.getByLabelText('Genre Tags'), ' pop ,, upbeat ');
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    await waitFor(() =>
      expect(body).toEqual({
        tags: 'pop, upbeat',
        lyrics: '',
        instrumental: false,
        duration: 60,
        visibility: 'public',
      }),
    );
  });

  it('keeps Private off on the free plan, says why and links to the plans', async () => {
    let body: unknown;
    mockFetch({
      'GET /api/auth/user': jsonResponse(makeUser({ planStatus: 'free' })),
      'POST /api/generate-text-to-music': async (request) => {
        body = await request.json();
        return jsonResponse({ generationId: 'gen-1' }, 201);
      },
    });
    const { user } = renderPage();

    const reason = await screen.findByText('Private tracks need a paid plan.');
    const group = screen.getByRole('radiogroup', { name: 'Visibility' });
    expect(group.getAttribute('aria-describedby')).toBe(reason.id);
    expect(within(group).getByRole('radio', { name: 'Private' })).toHaveProperty('disabled', true);
    expect(within(reason).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');

    await user.click(within(group).getByRole('radio', { name: 'Private' }));
    await user.type(screen.getByLabelText('Genre Tags'), 'lo-fi');
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    await waitFor(() => expect(body).toMatchObject({ visibility: 'public' }));
  });

  it('offers Private on a paid plan', async () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeSubscriber()) });
    const { queryClient } = renderPage();

    await waitFor(() =>
      expect(queryClient.getQueryData(userQueryKey)).toMatchObject({ planStatus: 'active' }),
    );
    expect(screen.getByRole('radio', { name: 'Private' })).toHaveProperty('disabled', false);
    expect(screen.queryByText('Private tracks need a paid plan.')).toBeNull();
  });

  it('sends the title, lyrics, chosen duration and private visibility', async () => {
    let body: unknown;
    mockFetch({
      'POST /api/generate-text-to-music': async (request) => {
        body = await request.json();
        return jsonResponse({ generationId: 'gen-1' }, 201);
      },
    });
    const { user } = renderPage();

    await user.type(screen.getByLabelText('Genre Tags'), 'lo-fi');
    await user.type(screen.getByLabelText('Lyrics (optional)'), 'Rain on the window');
    await user.type(screen.getByLabelText('Title (optional)'), '  Rainy Day ');
    fireEvent.change(screen.getByRole('slider', { name: 'Duration' }), { target: { value: '62' } });
    expect(screen.getByText('1:02 (62 seconds)')).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'Private' }));
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    await waitFor(() =>
      expect(body).toEqual({
        tags: 'lo-fi',
        lyrics: 'Rain on the window',
        instrumental: false,
        duration: 62,
        title: 'Rainy Day',
        visibility: 'private',
      }),
    );
  });

  it('sends the tempo and key chosen, offering all 24 keys with flat names beside sharps', async () => {
    let body: unknown;
    mockFetch({
      'POST /api/generate-text-to-music': async (request) => {
        body = await request.json();
        return jsonResponse({ generationId: 'gen-1' }, 201);
      },
    });
    const { user } = renderPage();

    const key = screen.getByRole('combobox', { name: 'Key (optional)' });
    const options = within(key).getAllByRole('option');
    expect(options).toHaveLength(25);
    expect(options[0]?.textContent).toBe('Any key');
    expect(within(key).getByRole('option', { name: 'D♯ / E♭ major' })).toHaveProperty('value', 'D# major');
    await user.type(screen.getByLabelText('Genre Tags'), 'synthwave');
    await user.type(screen.getByRole('spinbutton', { name: 'Tempo in BPM (optional)' }), '124');
    await user.selectOptions(key, 'A minor');
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    await waitFor(() => expect(body).toMatchObject({ tags: 'synthwave', bpm: 124, key: 'A minor' }));
  });

  it('says what a tempo must be before sending one out of range', async () => {
    const fetchMock = mockFetch({});
    const { user } = renderPage();

    await user.type(screen.getByLabelText('Genre Tags'), 'rock');
    await user.type(screen.getByRole('spinbutton', { name: 'Tempo in BPM (optional)' }), '300');
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    expect(
      await notifications().findByText('Tempo must be a whole number of BPM from 40 to 240.'),
    ).toBeDefined();
    expect(callsMade(fetchMock).filter((call) => call.includes('generate'))).toEqual([]);
  });

  it('makes an instrumental with the switch beside the lyrics, keeping the typed lyrics for later', async () => {
    const bodies: unknown[] = [];
    mockFetch({
      'POST /api/generate-text-to-music': async (request) => {
        bodies.push(await request.json());
        return jsonResponse({ generationId: `gen-${bodies.length}` }, 201);
      },
    });
    const { user } = renderPage();
    await user.type(screen.getByLabelText('Genre Tags'), 'ambient');
    const lyrics = screen.getByLabelText('Lyrics (optional)');
    await user.type(lyrics, 'Rain on the window');

    const instrumental = screen.getByRole('switch', { name: 'Instrumental' });
    expect(instrumental.getAttribute('aria-checked')).toBe('false');
    await user.click(instrumental);

    expect(instrumental.getAttribute('aria-checked')).toBe('true');
    expect(lyrics).toHaveProperty('disabled', true);
    expect(lyrics).toHaveProperty('value', 'Rain on the window');
    expect(screen.getByRole('button', { name: 'Lyrics helper' })).toHaveProperty('disabled', true);
    expect(screen.getByText('Instrumental: the track has no vocals, and these lyrics are not sent.').id).toBe(
      lyrics.getAttribute('aria-describedby'),
    );
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));
    await waitFor(() => expect(bodies[0]).toMatchObject({ tags: 'ambient', lyrics: '', instrumental: true }));

    // The same label turns it off again: the lyrics are back and sent.
    await user.click(screen.getByText('Instrumental', { selector: 'label' }));
    expect(instrumental.getAttribute('aria-checked')).toBe('false');
    expect(lyrics).toHaveProperty('disabled', false);
    expect(screen.getByRole('button', { name: 'Lyrics helper' })).toHaveProperty('disabled', false);
    expect(screen.getByText('Leave empty for an instrumental track.')).toBeDefined();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Generate Music' })).toHaveProperty('disabled', false),
    );
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));
    await waitFor(() =>
      expect(bodies[1]).toMatchObject({ lyrics: 'Rain on the window', instrumental: false }),
    );
  });

  it('polls every 3 s until completed, then celebrates, shows the track and refreshes the library', async () => {
    const fetchMock = mockFetch({
      'GET /api/auth/user': jsonResponse(makeSubscriber()),
      'POST /api/generate-text-to-music': jsonResponse({ generationId: 'gen-1' }, 201),
      'GET /api/generation/gen-1/status': statusSequence('pending', 'generating', 'completed'),
    });
    const { user, queryClient } = renderPage();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');

    await startGeneration(user);

    expect(await screen.findByRole('button', { name: 'Generating...' })).toHaveProperty('disabled', true);
    expect(screen.getByText('Generating... usually 30-60 seconds')).toBeDefined();
    expect(statusCalls(fetchMock)).toBe(0);

    await advance(STATUS_POLL_INTERVAL_MS - 1);
    expect(statusCalls(fetchMock)).toBe(0);
    await advance(1);
    expect(statusCalls(fetchMock)).toBe(1);
    await advance(STATUS_POLL_INTERVAL_MS);
    expect(statusCalls(fetchMock)).toBe(2);
    expect(screen.getByText('Generating... usually 30-60 seconds').parentElement?.textContent).toMatch(
      /Elapsed 0:06 · Status: Generating$/,
    );
    expect(screen.queryByText('Music Generated!')).toBeNull();
    // The start already refreshed the library (to show the pending track); the completion must again.
    const refreshesBeforeCompletion = libraryRefreshes(invalidate);
    expect(refreshesBeforeCompletion).toBe(1);

    await advance(STATUS_POLL_INTERVAL_MS);
    expect(statusCalls(fetchMock)).toBe(3);
    expect(notifications().getByText('Music Generated!')).toBeDefined();
    expect(libraryRefreshes(invalidate)).toBe(refreshesBeforeCompletion + 1);
    expect(screen.getByRole('button', { name: 'Play Untitled Track' })).toBeDefined();
    expect(
      await within(screen.getByRole('region', { name: 'Your Track' })).findByRole('button', {
        name: 'Download',
      }),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Music' })).toHaveProperty('disabled', false);

    await advance(STATUS_POLL_INTERVAL_MS * 3);
    expect(statusCalls(fetchMock)).toBe(3);

    // The download dialog states the license the status answer gave the finished track.
    await user.click(
      within(screen.getByRole('region', { name: 'Your Track' })).getByRole('button', { name: 'Download' }),
    );
    expect(
      within(await screen.findByRole('dialog', { name: 'Download Track' })).getByText(
        commercialLicense.summary,
        {
          exact: false,
        },
      ),
    ).toBeDefined();
  });

  it('plays the finished track at once and offers Download once its download is prepared', async () => {
    const answers = [false, false, true];
    let call = 0;
    const fetchMock = mockFetch({
      'GET /api/auth/user': jsonResponse(makeSubscriber()),
      'POST /api/generate-text-to-music': jsonResponse({ generationId: 'gen-1' }, 201),
      'GET /api/generation/gen-1/status': () =>
        jsonResponse({
          status: 'completed',
          audioUrl: 'https://cdn.test/gen-1.opus',
          duration: 60,
          tags: 'pop, upbeat',
          type: 'text-to-music',
          license: commercialLicense,
          downloadReady: answers[Math.min(call++, answers.length - 1)],
        }),
    });
    const { user } = renderPage();
    await startGeneration(user);
    await advance(STATUS_POLL_INTERVAL_MS);
    const yourTrack = within(screen.getByRole('region', { name: 'Your Track' }));
    // Playable now; where Download will be, the page says the download is being prepared.
    expect(yourTrack.getByRole('button', { name: 'Play Untitled Track' })).toBeDefined();
    expect((await yourTrack.findByRole('status')).textContent).toBe('The download is being prepared');
    expect(yourTrack.queryByRole('button', { name: 'Download' })).toBeNull();

    await advance(STATUS_POLL_INTERVAL_MS);
    expect(statusCalls(fetchMock)).toBe(2);
    expect(yourTrack.queryByRole('button', { name: 'Download' })).toBeNull();
    await advance(STATUS_POLL_INTERVAL_MS);
    expect(statusCalls(fetchMock)).toBe(3);
    expect(await yourTrack.findByRole('button', { name: 'Download' })).toBeDefined();
    expect(yourTrack.queryByText('The download is being prepared')).toBeNull();
    // Ready: no more checks.
    await advance(STATUS_POLL_INTERVAL_MS * 3);
    expect(statusCalls(fetchMock)).toBe(3);
  });

  it('stops with the spec toast when the generation fails', async () => {
    const fetchMock = mockFetch({
      'POST /api/generate-text-to-music': jsonResponse({ generationId: 'gen-1' }, 201),
      'GET /api/generation/gen-1/status': statusSequence('generating', 'failed'),
    });
    const { user } = renderPage();

    await startGeneration(user);
    await screen.findByRole('button', { name: 'Generating...' });
    await advance(STATUS_POLL_INTERVAL_MS * 2);

    expect(notifications().getByText('Generation Failed')).toBeDefined();
    expect(
      notifications().getByText('There was an error generating your music. Please try again.'),
    ).toBeDefined();
    await advance(STATUS_POLL_INTERVAL_MS * 2);
    expect(statusCalls(fetchMock)).toBe(2);
    expect(screen.getByRole('button', { name: 'Generate Music' })).toHaveProperty('disabled', false);
  });

  it('keeps saying the generation failed under the form after the toast is gone, until the next start', async () => {
    mockFetch({
      'POST /api/generate-text-to-music': jsonResponse({ generationId: 'gen-1' }, 201),
      'GET /api/generation/gen-1/status': statusSequence('failed'),
    });
    const { user } = renderPage();
    const form = () => within(screen.getByRole('tabpanel'));

    await startGeneration(user);
    await screen.findByRole('button', { name: 'Generating...' });
    await advance(STATUS_POLL_INTERVAL_MS);
    act(() => dismissToast());

    const failed = form().getByText('There was an error generating your music. Please try again.');
    expect(failed.closest('[role="status"]')?.textContent).toBe(
      'Generation FailedThere was an error generating your music. Please try again.',
    );

    await user.click(screen.getByRole('button', { name: 'Generate Music' }));
    await screen.findByRole('button', { name: 'Generating...' });
    expect(form().queryByText('There was an error generating your music. Please try again.')).toBeNull();
    expect(form().getByText('Generating... usually 30-60 seconds')).toBeDefined();
  });

  it("shows the server's message when the start is refused, such as the weekly quota", async () => {
    mockFetch({ 'POST /api/generate-text-to-music': jsonResponse({ message: quota }, 429) });
    const { user } = renderPage();

    await user.type(screen.getByLabelText('Genre Tags'), 'pop');
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    expect(await notifications().findByText(quota)).toBeDefined();
    expect(notifications().getByText('Generation Failed')).toBeDefined();
    expect(screen.queryByText('Generating... usually 30-60 seconds')).toBeNull();
  });

  it('shows the generic start failure for a server error', async () => {
    mockFetch({ 'POST /api/generate-text-to-music': jsonResponse({ message: 'boom' }, 500) });
    const { user } = renderPage();

    await user.type(screen.getByLabelText('Genre Tags'), 'pop');
    await user.click(screen.getByRole('button', { name: 'Generate Music' }));

    expect(
      await notifications().findByText('Failed to start music generation. Please try again.'),
    ).toBeDefined();
  });

  it('goes to /auth 0.5 s after a poll says the session has ended', async () => {
    mockFetch({
      'POST /api/generate-text-to-music': jsonResponse({ generationId: 'gen-1' }, 201),
      'GET /api/generation/gen-1/status': jsonResponse({ message: 'Unauthorized' }, 401),
    });
    const { user, router } = renderPage();

    await startGeneration(user);
    await screen.findByRole('button', { name: 'Generating...' });
    await advance(STATUS_POLL_INTERVAL_MS);

    expect(notifications().getByText('Unauthorized')).toBeDefined();
    await advance(UNAUTHORIZED_REDIRECT_MS - 1);
    expect(router.location.pathname).toBe('/');
    await advance(1);
    expect(router.location.pathname).toBe('/auth');
  });

  it('stops with an error toast when a status check fails otherwise', async () => {
    const fetchMock = mockFetch({
      'POST /api/generate-text-to-music': jsonResponse({ generationId: 'gen-1' }, 201),
      'GET /api/generation/gen-1/status': jsonResponse({ message: 'boom' }, 500),
    });
    const { user } = renderPage();

    await startGeneration(user);
    await screen.findByRole('button', { name: 'Generating...' });
    await advance(STATUS_POLL_INTERVAL_MS);

    expect(notifications().getByText('Error')).toBeDefined();
    expect(notifications().getByText('Failed to check generation status.')).toBeDefined();
    await advance(STATUS_POLL_INTERVAL_MS * 2);
    expect(statusCalls(fetchMock)).toBe(1);
    expect(screen.getByRole('button', { name: 'Generate Music' })).toHaveProperty('disabled', false);
  });
});
