import { screen, waitFor, within } from '@testing-library/react';
import type { Track } from '@tunesmith/shared/tracks';
import { describe, expect, it } from 'vitest';
import { makeSubscriber, makeTrack } from '@/testing/fixtures';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { StudioActions } from './studio-actions';
import { StudioMenu } from './studio-menu';

function renderMenu(track: Track, Entry: typeof StudioMenu = StudioMenu) {
  mockFetch({ 'GET /api/auth/user': jsonResponse(makeSubscriber()) });
  return renderWithProviders(<Entry track={track} />);
}

describe("the library card's More menu", () => {
  it('offers Extend, Repaint section, Make variation and Separate stems, each opening its dialog', async () => {
    const { user } = renderMenu(makeTrack({ id: 'neon' }));

    await user.click(screen.getByRole('button', { name: 'More' }));
    const menu = within(await screen.findByRole('menu'));
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Extend',
      'Repaint section',
      'Make variation',
      'Separate stems',
    ]);

    await user.click(menu.getByRole('menuitem', { name: 'Repaint section' }));
    expect(await screen.findByRole('dialog', { name: 'Repaint section' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens from the keyboard and gives focus back to More when the dialog closes', async () => {
    const { user } = renderMenu(makeTrack({ id: 'neon' }));
    const more = screen.getByRole('button', { name: 'More' });

    more.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    // The menu opens with its first item, Extend, focused.
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Extend' });
    expect(within(dialog).getByLabelText('Seconds to add')).toBeDefined();
    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(more));
  });

  it.each(['pending', 'generating', 'failed'] as const)('is not offered for a %s track', (status) => {
    renderMenu(makeTrack({ id: 'neon', status, audioUrl: null }));

    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
  });
});

describe("the track page's studio buttons", () => {
  it('opens the Make variation confirmation', async () => {
    const { user } = renderMenu(makeTrack({ id: 'neon' }), StudioActions);

    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Extend',
      'Repaint section',
      'Make variation',
      'Separate stems',
    ]);
    await user.click(screen.getByRole('button', { name: 'Make variation' }));
    expect(await screen.findByRole('alertdialog', { name: 'Make variation' })).toBeDefined();
  });

  it('are not offered until the track is completed', () => {
    renderMenu(makeTrack({ id: 'neon', status: 'generating', audioUrl: null }), StudioActions);

    expect(screen.queryByRole('button')).toBeNull();
  });
});
