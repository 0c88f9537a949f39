import { act, screen, waitFor, within } from '@testing-library/react';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { callsMade, deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { CreatePage } from './create-page';
import type { UploadAudioDialogProps } from './upload-audio-dialog';

// The dialog (Uppy and the two upload calls) is tested on its own; here it uploads at a click.
vi.mock('./upload-audio-dialog', () => ({
  UploadAudioDialog: ({ onUploaded }: UploadAudioDialogProps) => (
    <button
      type="button"
      onClick={() => onUploaded({ objectPath: 'uploads/user-1/abc.wav', fileName: 'my-song.wav' })}
    >
      Upload Audio
    </button>
  ),
}));

function notifications() {
  return within(screen.getByRole('region', { name: 'Notifications (F8)' }));
}

/** The visible tab panel: both forms stay mounted once visited. */
function panel() {
  return within(screen.getByRole('tabpanel'));
}

async function renderAudioTab() {
  const rendered = renderWithProviders(<CreatePage />, {
    userEvent: {
      advanceTimers: (ms) => {
        if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
      },
    },
  });
  await rendered.user.click(screen.getByRole('tab', { name: 'Audio to Music' }));
  return rendered;
}

describe('audio to music form', () => {
  it('has the upload, tags with chips, lyrics, optional title and public visibility', async () => {
    await renderAudioTab();

    expect(panel().getByRole('button', { name: 'Upload Audio' })).toBeDefined();
    expect(panel().getByText('No audio file uploaded yet.')).toBeDefined();
    expect(panel().getByLabelText('Genre Tags')).toBeDefined();
    expect(panel().getByLabelText('Lyrics (optional)')).toBeDefined();
    expect(panel().getByLabelText('Title (optional)')).toBeDefined();
    expect(panel().getByRole('radio', { name: 'Public' }).getAttribute('aria-checked')).toBe('true');
    expect(panel().queryByRole('slider')).toBeNull();
  });

  it('adds a popular tag once', async () => {
    const { user } = await renderAudioTab();

    await user.click(panel().getByRole('button', { name: 'lo-fi' }));
    await user.click(panel().getByRole('button', { name: 'lo-fi' }));
    await user.click(panel().getByRole('button', { name: 'pop' }));

    expect(panel().getByLabelText('Genre Tags')).toHaveProperty('value', 'lo-fi, pop');
  });

  it('asks for tags first, sending nothing', async () => {
    const fetchMock = mockFetch({});
    const { user } = await renderAudioTab();

    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    expect(await notifications().findByText('Missing Tags')).toBeDefined();
    expect(notifications().getByText('Please enter at least one genre tag.')).toBeDefined();
    // Nothing but the models the form offers is asked for.
    expect(callsMade(fetchMock).filter((call) => call !== 'GET /api/models')).toEqual([]);
  });

  it('asks for an uploaded audio file, sending nothing', async () => {
    const fetchMock = mockFetch({});
    const { user } = await renderAudioTab();

    await user.type(panel().getByLabelText('Genre Tags'), 'jazz');
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    expect(await notifications().findByText('Missing Audio File')).toBeDefined();
    expect(notifications().getByText('Please upload an audio file first.')).toBeDefined();
    // Nothing but the models the form offers is asked for.
    expect(callsMade(fetchMock).filter((call) => call !== 'GET /api/models')).toEqual([]);
  });

  it('shows the uploaded file and sends its objectPath as inputAudioUrl with the form', async () => {
    let body: unknown;
    mockFetch({
      'POST /api/generate-audio-to-music': async (request) => {
        body = await request.json();
        return jsonResponse({ generationId: 'gen-2' }, 201);
      },
    });
    const { user } = await renderAudioTab();

    await user.click(panel().getByRole('button', { name: 'Upload Audio' }));
    expect(panel().getByText('my-song.wav')).toBeDefined();
    await user.type(panel().getByLabelText('Genre Tags'), ' jazz , ');
    await user.type(panel().getByLabelText('Lyrics (optional)'), 'Blue notes');
    await user.type(panel().getByLabelText('Title (optional)'), ' Jazzed ');
    await user.click(panel().getByRole('radio', { name: 'Private' }));
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    await waitFor(() =>
      expect(body).toEqual({
        tags: 'jazz',
        lyrics: 'Blue notes',
        inputAudioUrl: 'uploads/user-1/abc.wav',
        title: 'Jazzed',
        visibility: 'private',
      }),
    );
  });

  it('polls every 3 s until completed, celebrates and refreshes the library', async () => {
    let checks = 0;
    mockFetch({
      'GET /api/auth/user': jsonResponse(makeUser()),
      'POST /api/generate-audio-to-music': jsonResponse({ generationId: 'gen-2' }, 201),
      'GET /api/generation/gen-2/status': () => {
        checks += 1;
        const done = checks >= 2;
        return jsonResponse({
          status: done ? 'completed' : 'generating',
          audioUrl: done ? 'https://cdn.test/gen-2.wav' : null,
          duration: done ? 30 : null,
          tags: 'jazz',
          type: 'audio-to-music',
        });
      },
    });
    const { user, queryClient } = await renderAudioTab();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');

    await user.click(panel().getByRole('button', { name: 'Upload Audio' }));
    await user.type(panel().getByLabelText('Genre Tags'), 'jazz');
    vi.useFakeTimers();
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));
    await screen.findByRole('button', { name: 'Generating...' });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    });
    expect(checks).toBe(1);
    expect(notifications().queryByText('Music Generated!')).toBeNull();
    // The start already refreshed the library (to show the pending track); the completion must again.
    const refreshes = () =>
      invalidate.mock.calls.filter(
        ([filters]) => JSON.stringify(filters) === JSON.stringify({ queryKey: ['my-generations'] }),
      ).length;
    const refreshesBeforeCompletion = refreshes();
    expect(refreshesBeforeCompletion).toBe(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    });

    expect(checks).toBe(2);
    expect(notifications().getByText('Music Generated!')).toBeDefined();
    expect(panel().getByText('Remix')).toBeDefined();
    expect(refreshes()).toBe(refreshesBeforeCompletion + 1);
  });

  it("shows the server's message when the start is refused", async () => {
    const quota = 'You have used all 5 generations of your plan this week.';
    mockFetch({ 'POST /api/generate-audio-to-music': jsonResponse({ message: quota }, 429) });
    const { user } = await renderAudioTab();

    await user.click(panel().getByRole('button', { name: 'Upload Audio' }));
    await user.type(panel().getByLabelText('Genre Tags'), 'jazz');
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    expect(await notifications().findByText(quota)).toBeDefined();
    expect(notifications().getByText('Generation Failed')).toBeDefined();
  });

  it('opens the lyrics helper with 60 seconds and puts the lyrics into this form only', async () => {
    let body: unknown;
    const answer = deferredResponse(() => jsonResponse({ lyrics: '[verse]\nNew words' }));
    mockFetch({
      'POST /api/generate-lyrics': async (request) => {
        body = await request.json();
        return answer.handler();
      },
    });
    const { user } = await renderAudioTab();

    await user.click(panel().getByRole('button', { name: 'Lyrics helper' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Lyrics Helper' }));
    expect(dialog.getByLabelText('Duration (seconds)')).toHaveProperty('value', '60');
    await user.type(dialog.getByLabelText('What is your song about?'), 'a rainy city');
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));
    answer.respond();
    await user.click(await dialog.findByRole('button', { name: 'Use These Lyrics' }));

    expect(body).toEqual({ prompt: 'a rainy city', duration: 60 });
    expect(panel().getByLabelText('Lyrics (optional)')).toHaveProperty('value', '[verse]\nNew words');
    await user.click(screen.getByRole('tab', { name: 'Text to Music' }));
    expect(panel().getByLabelText('Lyrics (optional)')).toHaveProperty('value', '');
  });

  it('keeps the form when the user looks at another tab and comes back', async () => {
    const { user } = await renderAudioTab();

    await user.click(panel().getByRole('button', { name: 'Upload Audio' }));
    await user.type(panel().getByLabelText('Genre Tags'), 'jazz');
    await user.click(screen.getByRole('tab', { name: 'Text to Music' }));
    await user.click(screen.getByRole('tab', { name: 'Audio to Music' }));

    expect(panel().getByLabelText('Genre Tags')).toHaveProperty('value', 'jazz');
    expect(panel().getByText('my-song.wav')).toBeDefined();
  });
});
