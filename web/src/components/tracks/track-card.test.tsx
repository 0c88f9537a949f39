import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeTrack } from '@/testing/fixtures';
import { findToast, renderWithProviders } from '@/testing/render';
import { TrackCard } from './track-card';

/** Replaces the clipboard; call after user-event's setup, which installs its own. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}

describe('track card', () => {
  it('shows title, AI Generated Music subtitle, tags, duration and type label for text-to-music', () => {
    renderWithProviders(<TrackCard track={makeTrack({ duration: 90.4 })} />);

    expect(screen.getByRole('heading', { name: 'Neon Nights' })).toBeDefined();
    expect(screen.getByText('AI Generated Music')).toBeDefined();
    expect(screen.getByText('synthwave, energetic')).toBeDefined();
    expect(screen.getByText('90s')).toBeDefined();
    expect(screen.getByText('Text to Music')).toBeDefined();
  });

  it('shows Remix and the spaced type label for other types', () => {
    renderWithProviders(<TrackCard track={makeTrack({ type: 'audio-to-music' })} />);

    expect(screen.getByText('Remix')).toBeDefined();
    expect(screen.getByText('Audio to Music')).toBeDefined();
  });

  it('calls a track without a title Untitled Track', () => {
    renderWithProviders(<TrackCard track={makeTrack({ title: null })} />);

    expect(screen.getByRole('heading', { name: 'Untitled Track' })).toBeDefined();
  });

  it('shows a player only when the track has audio', () => {
    const { unmount } = renderWithProviders(<TrackCard track={makeTrack()} />);
    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
    unmount();

    renderWithProviders(<TrackCard track={makeTrack({ audioUrl: null })} />);
    expect(screen.queryByRole('button', { name: /^Play/ })).toBeNull();
  });

  it('copies the full track link and confirms', async () => {
    const { user } = renderWithProviders(<TrackCard track={makeTrack({ id: 'abc123' })} />);
    const writeText = stubClipboard(async () => undefined);

    await user.click(screen.getByRole('button', { name: 'Share Neon Nights' }));

    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/track/abc123`);
    const toast = await findToast();
    expect(within(toast).getByText('Link Copied!')).toBeDefined();
    expect(within(toast).getByText('Track link has been copied to your clipboard.')).toBeDefined();
    expect(toast.dataset.variant).toBe('default');
  });

  it('shows a destructive toast when copying fails', async () => {
    const { user } = renderWithProviders(<TrackCard track={makeTrack()} />);
    stubClipboard(async () => {
      throw new Error('denied');
    });

    await user.click(screen.getByRole('button', { name: 'Share Neon Nights' }));

    const toast = await findToast();
    expect(within(toast).getByText('Share Failed')).toBeDefined();
    expect(within(toast).getByText('Failed to copy link to clipboard.')).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
  });
});
