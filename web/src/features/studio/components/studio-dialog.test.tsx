import { screen, waitFor, within } from '@testing-library/react';
import { generationMessages } from '@tunesmith/shared/generations';
import type { EditKind, Track } from '@tunesmith/shared/tracks';
import { describe, expect, it, vi } from 'vitest';
import { myGenerationsQueryKey } from '@/lib/query-keys';
import { makeSubscriber, makeTrack, makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderWithProviders } from '@/testing/render';
import { StudioDialog } from './studio-dialog';

const parent = makeTrack({
  id: 'neon',
  title: 'Neon Nights',
  tags: 'synthwave, energetic',
  lyrics: '[verse]\nCity lights',
  duration: 90,
});

const made = (overrides: Partial<Track>) =>
  makeTrack({
    id: 'new-1',
    title: 'Neon Nights (extended)',
    status: 'pending',
    audioUrl: null,
    ...overrides,
  });

function renderDialog(
  kind: EditKind,
  {
    track = parent,
    user = makeSubscriber({ generationsUsedThisMonth: 2 }),
    routes = {},
  }: { track?: Track; user?: ReturnType<typeof makeUser>; routes?: Record<string, MockResponse> } = {},
) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': jsonResponse(user),
    'GET /api/my-generations': jsonResponse([track]),
    ...routes,
  });
  const onClose = vi.fn();
  const onStarted = vi.fn();
  const rendered = renderWithProviders(
    <StudioDialog kind={kind} track={track} onClose={onClose} onStarted={onStarted} />,
  );
  const posts = (path: string) =>
    fetchMock.mock.calls
      .filter(([input, init]) => String(input).endsWith(path) && init?.method === 'POST')
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
  return { ...rendered, fetchMock, onClose, onStarted, posts };
}

const dialog = async (name: string) => within(await screen.findByRole('dialog', { name }));
const alertDialog = async (name: string) => within(await screen.findByRole('alertdialog', { name }));

describe('the Extend dialog', () => {
  it("says what it costs from the user's plan and what it makes, following the seconds typed", async () => {
    const { user } = renderDialog('extend');
    const extend = await dialog('Extend');

    expect(
      await extend.findByText('Uses 1 of your 30 generations this week. You have 28 left.'),
    ).toBeDefined();
    const seconds = extend.getByLabelText('Seconds to add');
    expect(extend.getByText('From 5 to 150 seconds (a track is at most 240 seconds long).')).toBeDefined();
    await user.clear(seconds);
    await user.type(seconds, '35');
    expect(
      extend.getByText('A new track, 35 seconds longer, is made from this one. The original stays as it is.'),
    ).toBeDefined();
  });

  it('with none of the week’s left, says so and offers the plans instead of the action', async () => {
    const { user, posts } = renderDialog('extend', { user: makeUser({ generationsUsedThisMonth: 5 }) });
    const extend = await dialog('Extend');

    expect(
      await extend.findByText(
        'Uses 1 of your 5 generations this week. You have none left: your count starts again on Monday, January 8.',
      ),
    ).toBeDefined();
    expect(extend.queryByRole('button', { name: 'Extend' })).toBeNull();
    expect(extend.getByRole('link', { name: 'See Plans' }).getAttribute('href')).toBe('/pricing');
    await user.click(extend.getByRole('button', { name: 'Close' }));
    expect(posts('/api/generation/neon/extend')).toEqual([]);
  });

  it('refuses seconds beyond what the track has room for, or too few, naming the range its hint gives', async () => {
    const { user, posts } = renderDialog('extend');
    const extend = await dialog('Extend');
    const seconds = extend.getByLabelText('Seconds to add');
    const refusal = 'Extend by a whole number of seconds from 5 to 150.';

    for (const typed of ['151', '3', '12.5', '']) {
      await user.clear(seconds);
      if (typed) await user.type(seconds, typed);
      await user.click(extend.getByRole('button', { name: 'Extend' }));
      expect(await extend.findByText(refusal)).toBeDefined();
      expect(seconds.getAttribute('aria-invalid')).toBe('true');
    }
    expect(extend.getByText('From 5 to 150 seconds (a track is at most 240 seconds long).')).toBeDefined();
    expect(posts('/api/generation/neon/extend')).toEqual([]);
  });

  it('chooses where to add the music with the arrow keys, as a radio group does', async () => {
    const answer = made({ parentId: 'neon', edit: { kind: 'extend', seconds: 30, at: 'start' } });
    const { user, posts, onStarted } = renderDialog('extend', {
      routes: {
        'POST /api/generation/neon/extend': jsonResponse({ generationId: 'new-1', track: answer }, 201),
      },
    });
    const extend = await dialog('Extend');
    const where = extend.getByRole('radiogroup', { name: 'Where to add the new music' });
    const atEnd = within(where).getByRole('radio', { name: 'At the end' });
    expect(atEnd.getAttribute('aria-checked')).toBe('true');

    atEnd.focus();
    // Held, then let go: the option is chosen as focus reaches it, while the key is down.
    await user.keyboard('{ArrowRight>}');
    await user.keyboard('{/ArrowRight}');

    const atStart = within(where).getByRole('radio', { name: 'At the start' });
    expect(document.activeElement).toBe(atStart);
    expect(atStart.getAttribute('aria-checked')).toBe('true');
    expect(atEnd.getAttribute('aria-checked')).toBe('false');
    await user.click(extend.getByRole('button', { name: 'Extend' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalledOnce());
    expect(posts('/api/generation/neon/extend')).toEqual([{ seconds: 30, at: 'start' }]);
  });

  it('sends the seconds, the place and only the text the user changed, then starts the new track', async () => {
    const answer = made({ parentId: 'neon', edit: { kind: 'extend', seconds: 35, at: 'start' } });
    const { user, posts, onClose, onStarted, queryClient } = renderDialog('extend', {
      routes: {
        'POST /api/generation/neon/extend': jsonResponse({ generationId: 'new-1', track: answer }, 201),
      },
    });
    queryClient.setQueryData<Track[]>(myGenerationsQueryKey, [parent]);
    const extend = await dialog('Extend');
    expect((extend.getByLabelText('Tags') as HTMLInputElement).value).toBe('synthwave, energetic');
    expect((extend.getByLabelText('Lyrics') as HTMLTextAreaElement).value).toBe('[verse]\nCity lights');

    await user.clear(extend.getByLabelText('Seconds to add'));
    await user.type(extend.getByLabelText('Seconds to add'), '35');
    await user.click(extend.getByRole('radio', { name: 'At the start' }));
    await user.clear(extend.getByLabelText('Tags'));
    await user.type(extend.getByLabelText('Tags'), 'synthwave, outro');
    await user.click(extend.getByRole('button', { name: 'Extend' }));

    await waitFor(() => expect(onStarted).toHaveBeenCalledOnce());
    expect(posts('/api/generation/neon/extend')).toEqual([
      { seconds: 35, at: 'start', tags: 'synthwave, outro' },
    ]);
    expect(onStarted.mock.calls[0]?.[0]).toMatchObject({ id: 'new-1', status: 'pending' });
    expect(onClose).toHaveBeenCalled();
    expect((await findToast()).textContent).toContain('Extension started');
    // The library shows the new track at once, and follows it as it generates.
    await waitFor(() =>
      expect(queryClient.getQueryData<Track[]>(myGenerationsQueryKey)?.map((track) => track.id)).toContain(
        'new-1',
      ),
    );
  });

  it("shows the server's 400 message and keeps what was typed", async () => {
    const message = generationMessages.notCompleted;
    const { user, onClose } = renderDialog('extend', {
      routes: { 'POST /api/generation/neon/extend': jsonResponse({ message }, 400) },
    });
    const extend = await dialog('Extend');
    await user.clear(extend.getByLabelText('Seconds to add'));
    await user.type(extend.getByLabelText('Seconds to add'), '12');
    await user.click(extend.getByRole('button', { name: 'Extend' }));

    expect((await extend.findByRole('alert')).textContent).toBe(message);
    expect((extend.getByLabelText('Seconds to add') as HTMLInputElement).value).toBe('12');
    expect(onClose).not.toHaveBeenCalled();
    const toast = await findToast();
    expect(toast.textContent).toContain('Generation Failed');
    expect(toast.textContent).toContain(message);
  });

  it('says the quota is spent as the create form does (429), then offers the plans', async () => {
    const message =
      'You have used all 5 generations of your plan this week. Your quota resets on Monday, January 8.';
    let used = 4;
    const { user } = renderDialog('extend', {
      routes: {
        'GET /api/auth/user': () => jsonResponse(makeUser({ generationsUsedThisMonth: used })),
        'POST /api/generation/neon/extend': () => {
          used = 5;
          return jsonResponse({ message }, 429);
        },
      },
    });
    const extend = await dialog('Extend');
    await extend.findByText(/You have 1 left/);
    await user.click(extend.getByRole('button', { name: 'Extend' }));

    expect((await extend.findByRole('alert')).textContent).toBe(message);
    // The week's count is asked again: none left, so the plans are offered in place of Extend.
    expect((await extend.findByRole('link', { name: 'See Plans' })).getAttribute('href')).toBe('/pricing');
    expect(extend.queryByRole('button', { name: 'Extend' })).toBeNull();
  });

  it('offers no extension for a track already at the longest length, and no cost for one', async () => {
    renderDialog('extend', { track: { ...parent, duration: 238 } });
    const extend = await dialog('Extend');

    expect(extend.getByText('This track is already as long as a track can be (240 seconds).')).toBeDefined();
    expect(extend.queryByRole('button', { name: 'Extend' })).toBeNull();
    expect(extend.queryByText(/Uses 1 of your/)).toBeNull();
    expect(extend.queryByText(/is made from this one/)).toBeNull();
    expect(extend.getByRole('button', { name: 'Close' })).toBeDefined();
  });
});

describe('the Repaint section dialog', () => {
  it('sends the typed start and end with the default variance of 0.5', async () => {
    const answer = made({ id: 'new-2', edit: { kind: 'repaint', start: 10, end: 20.5, variance: 0.5 } });
    const { user, posts, onStarted } = renderDialog('repaint', {
      routes: {
        'POST /api/generation/neon/repaint': jsonResponse({ generationId: 'new-2', track: answer }, 201),
      },
    });
    const repaint = await dialog('Repaint section');
    expect(await repaint.findByText(/Uses 1 of your 30 generations this week/)).toBeDefined();

    await user.clear(repaint.getByLabelText('Start (seconds)'));
    await user.type(repaint.getByLabelText('Start (seconds)'), '10');
    await user.clear(repaint.getByLabelText('End (seconds)'));
    await user.type(repaint.getByLabelText('End (seconds)'), '20.5');
    // The typed times as typed: 20.5 is not rounded down to 0:20.
    expect(
      repaint.getByText(
        'A new track is made from this one with 0:10–0:20.5 played anew; the rest stays as it was. The original stays as it is.',
      ),
    ).toBeDefined();
    await user.click(repaint.getByRole('button', { name: 'Repaint' }));

    await waitFor(() => expect(onStarted).toHaveBeenCalledOnce());
    expect(posts('/api/generation/neon/repaint')).toEqual([{ start: 10, end: 20.5, variance: 0.5 }]);
    expect((await findToast()).textContent).toContain('Repaint started');
  });

  it('moves the variance with the keyboard and sends it', async () => {
    const answer = made({ id: 'new-3' });
    const { user, posts, onStarted } = renderDialog('repaint', {
      routes: {
        'POST /api/generation/neon/repaint': jsonResponse({ generationId: 'new-3', track: answer }, 201),
      },
    });
    const repaint = await dialog('Repaint section');
    const slider = repaint.getByRole('slider', { name: 'Variance' });
    expect(slider.getAttribute('aria-valuenow')).toBe('0.5');

    slider.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(slider.getAttribute('aria-valuenow')).toBe('0.6');
    await user.click(repaint.getByRole('button', { name: 'Repaint' }));

    await waitFor(() => expect(onStarted).toHaveBeenCalledOnce());
    expect(posts('/api/generation/neon/repaint')).toEqual([{ start: 22, end: 45, variance: 0.6 }]);
  });

  it('refuses a section outside the track, backwards or shorter than a second', async () => {
    const { user, posts } = renderDialog('repaint');
    const repaint = await dialog('Repaint section');
    const start = repaint.getByLabelText('Start (seconds)');
    const end = repaint.getByLabelText('End (seconds)');
    const submit = () => user.click(repaint.getByRole('button', { name: 'Repaint' }));
    const outside = 'The section must lie within the track (0 to 90 seconds).';
    expect(repaint.getByText('Anywhere from 0 to 90 seconds, at least 1 second long.')).toBeDefined();

    await user.clear(end);
    await user.type(end, '95');
    await submit();
    expect(await repaint.findByText(outside)).toBeDefined();

    // A start before the track names the same range as its hint, not a generic complaint.
    await user.clear(start);
    await user.type(start, '-1');
    await user.clear(end);
    await user.type(end, '10');
    await submit();
    expect(await repaint.findByText(outside)).toBeDefined();
    expect(start.getAttribute('aria-invalid')).toBe('true');

    await user.clear(start);
    await user.type(start, '40');
    await user.clear(end);
    await user.type(end, '30');
    await submit();
    expect(await repaint.findByText(generationMessages.sectionOrder)).toBeDefined();

    await user.clear(end);
    await user.type(end, '40.5');
    await submit();
    expect(await repaint.findByText(generationMessages.sectionTooShort)).toBeDefined();

    await user.clear(start);
    await submit();
    expect(await repaint.findByText(generationMessages.sectionTimeInvalid)).toBeDefined();
    expect(posts('/api/generation/neon/repaint')).toEqual([]);
  });

  it('sends changed lyrics, even emptied ones, and leaves the unchanged tags to the server', async () => {
    const { user, posts, onStarted } = renderDialog('repaint', {
      routes: {
        'POST /api/generation/neon/repaint': jsonResponse(
          { generationId: 'n', track: made({ id: 'n' }) },
          201,
        ),
      },
    });
    const repaint = await dialog('Repaint section');
    await user.clear(repaint.getByLabelText('Lyrics'));
    await user.click(repaint.getByRole('button', { name: 'Repaint' }));

    await waitFor(() => expect(onStarted).toHaveBeenCalledOnce());
    expect(posts('/api/generation/neon/repaint')).toEqual([
      { start: 22, end: 45, variance: 0.5, lyrics: '' },
    ]);
  });
});

describe('the Make variation dialog', () => {
  it('confirms what it makes and costs, then asks for a variation with an empty body', async () => {
    const answer = made({ id: 'new-4', title: 'Neon Nights (variation)', edit: { kind: 'variation' } });
    const { user, posts, onStarted } = renderDialog('variation', {
      routes: {
        'POST /api/generation/neon/variation': jsonResponse({ generationId: 'new-4', track: answer }, 201),
      },
    });
    const variation = await alertDialog('Make variation');
    expect(
      variation.getByText(
        'A new take of this track is made: the same tags, lyrics and length, with a different performance. The original stays as it is.',
      ),
    ).toBeDefined();
    expect(await variation.findByText(/Uses 1 of your 30 generations this week/)).toBeDefined();

    await user.click(variation.getByRole('button', { name: 'Make Variation' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalledOnce());
    expect(posts('/api/generation/neon/variation')).toEqual([{}]);
    expect((await findToast()).textContent).toContain('Variation started');
  });

  it("shows the server's refusal and stays open", async () => {
    const message = generationMessages.trackNotFound;
    const { user, onClose } = renderDialog('variation', {
      routes: { 'POST /api/generation/neon/variation': jsonResponse({ message }, 404) },
    });
    const variation = await alertDialog('Make variation');
    await user.click(variation.getByRole('button', { name: 'Make Variation' }));

    expect((await variation.findByRole('alert')).textContent).toBe(message);
    expect(onClose).not.toHaveBeenCalled();
  });
});
