import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsMade, deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { CreatePage } from './create-page';

const written = '[verse]\nSalt in the air\n[chorus]\nWe ride';

/** The notification area, which loads with the first toast and sits above the dialog. */
async function notifications() {
  return within(await screen.findByRole('region', { name: 'Notifications (F8)', hidden: true }));
}

async function openHelper(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.click(screen.getByRole('button', { name: 'Lyrics helper' }));
  return within(await screen.findByRole('dialog', { name: 'Lyrics Helper' }));
}

describe('lyrics helper', () => {
  it('asks for a prompt before sending anything', async () => {
    const fetchMock = mockFetch({});
    const { user } = renderWithProviders(<CreatePage />);

    const dialog = await openHelper(user);
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));

    expect((await notifications()).findByText('Prompt required')).toBeDefined();
    expect((await notifications()).getByText('Please enter what your song is about.')).toBeDefined();
    // Nothing but the models the form offers is asked for.
    expect(callsMade(fetchMock).filter((call) => call !== 'GET /api/models')).toEqual([]);
  });

  it("opens with the form's duration, writes lyrics and puts them into the text form", async () => {
    let body: unknown;
    const answer = deferredResponse(() => jsonResponse({ lyrics: written }));
    mockFetch({
      'POST /api/generate-lyrics': async (request) => {
        body = await request.json();
        return answer.handler();
      },
    });
    const { user } = renderWithProviders(<CreatePage />);
    fireEvent.change(screen.getByRole('slider', { name: 'Duration' }), { target: { value: '90' } });

    const dialog = await openHelper(user);
    expect(dialog.getByLabelText('Duration (seconds)')).toHaveProperty('value', '90');
    await user.type(dialog.getByLabelText('What is your song about?'), 'a seaside road trip');
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));

    expect(await dialog.findByRole('button', { name: 'Generating...' })).toHaveProperty('disabled', true);
    await waitFor(() => expect(body).toEqual({ prompt: 'a seaside road trip', duration: 90 }));
    answer.respond();
    expect(await dialog.findByLabelText('Generated Lyrics')).toHaveProperty('value', written);

    await user.click(dialog.getByRole('button', { name: 'Use These Lyrics' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Lyrics (optional)')).toHaveProperty('value', written);
    expect((await notifications()).getByText('Lyrics added')).toBeDefined();
  });

  it('starts empty again after it closes', async () => {
    mockFetch({ 'POST /api/generate-lyrics': jsonResponse({ lyrics: written }) });
    const { user } = renderWithProviders(<CreatePage />);

    let dialog = await openHelper(user);
    await user.type(dialog.getByLabelText('What is your song about?'), 'rain');
    await user.clear(dialog.getByLabelText('Duration (seconds)'));
    await user.type(dialog.getByLabelText('Duration (seconds)'), '30');
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));
    await dialog.findByLabelText('Generated Lyrics');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    dialog = await openHelper(user);
    expect(dialog.getByLabelText('What is your song about?')).toHaveProperty('value', '');
    expect(dialog.getByLabelText('Duration (seconds)')).toHaveProperty('value', '60');
    expect(dialog.queryByLabelText('Generated Lyrics')).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Use These Lyrics' })).toBeNull();
    expect(screen.getByLabelText('Lyrics (optional)')).toHaveProperty('value', '');
  });

  it('closes with its Close button or Escape and gives focus back to the button that opened it', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<CreatePage />);
    const opener = screen.getByRole('button', { name: 'Lyrics helper' });

    let dialog = await openHelper(user);
    await user.type(dialog.getByLabelText('What is your song about?'), 'rain');
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));

    dialog = await openHelper(user);
    expect(dialog.getByLabelText('What is your song about?')).toHaveProperty('value', '');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('copies the lyrics, and says so when the clipboard refuses', async () => {
    mockFetch({ 'POST /api/generate-lyrics': jsonResponse({ lyrics: written }) });
    const { user } = renderWithProviders(<CreatePage />);

    const dialog = await openHelper(user);
    await user.type(dialog.getByLabelText('What is your song about?'), 'rain');
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));
    await dialog.findByLabelText('Generated Lyrics');

    await user.click(dialog.getByRole('button', { name: 'Copy' }));
    expect((await notifications()).findByText('Copied')).toBeDefined();
    expect(await navigator.clipboard.readText()).toBe(written);

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(dialog.getByRole('button', { name: 'Copy' }));
    expect((await notifications()).findByText('Copy failed')).toBeDefined();
    expect((await notifications()).getByText('Failed to copy lyrics to clipboard.')).toBeDefined();
  });

  it('says so when the lyrics cannot be written', async () => {
    mockFetch({ 'POST /api/generate-lyrics': jsonResponse({ message: 'boom' }, 500) });
    const { user } = renderWithProviders(<CreatePage />);

    const dialog = await openHelper(user);
    await user.type(dialog.getByLabelText('What is your song about?'), 'rain');
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));

    expect((await notifications()).findByText('Generation failed')).toBeDefined();
    expect((await notifications()).getByText('Failed to generate lyrics. Please try again.')).toBeDefined();
    expect(dialog.getByRole('button', { name: 'Generate Lyrics' })).toHaveProperty('disabled', false);
  });

  it('refuses a duration outside 5 to 240 seconds', async () => {
    const fetchMock = mockFetch({});
    const { user } = renderWithProviders(<CreatePage />);

    const dialog = await openHelper(user);
    await user.type(dialog.getByLabelText('What is your song about?'), 'rain');
    await user.clear(dialog.getByLabelText('Duration (seconds)'));
    await user.type(dialog.getByLabelText('Duration (seconds)'), '300');
    await user.click(dialog.getByRole('button', { name: 'Generate Lyrics' }));

    expect(dialog.getByText('Duration must be a whole number of seconds from 5 to 240.')).toBeDefined();
    // Nothing but the models the form offers is asked for.
    expect(callsMade(fetchMock).filter((call) => call !== 'GET /api/models')).toEqual([]);
  });
});
