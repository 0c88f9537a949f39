import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BackgroundVideo } from './background-video';

function mockReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion'),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

describe('background video', () => {
  it('paints the backdrop first and attaches a muted looping video once the page has loaded and settled', async () => {
    mockReducedMotion(false);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.useFakeTimers();
    expect(document.readyState).toBe('complete');
    const { container } = render(<BackgroundVideo />);

    expect(container.querySelector('video')).toBeNull();
    // The page's start-up has the phone to itself: a second after load there is still no video.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(container.querySelector('video')).toBeNull();
    expect(container.querySelector('[class*="background-blurred"]')).not.toBeNull();

    await act(async () => {
      await vi.runAllTimersAsync();
    });

    const video = container.querySelector('video');
    expect(video?.getAttribute('src')).toBe('/media/background.webm');
    expect(video?.muted).toBe(true);
    expect(video?.loop).toBe(true);
    expect(video?.hasAttribute('playsinline')).toBe(true);
    expect(video?.getAttribute('aria-hidden')).toBe('true');
    expect(container.firstElementChild?.getAttribute('aria-hidden')).toBe('true');
  });

  it('never attaches the video when the user prefers reduced motion', async () => {
    mockReducedMotion(true);
    vi.useFakeTimers();
    const { container } = render(<BackgroundVideo />);

    await act(async () => {
      await vi.runAllTimersAsync();
    });

    expect(container.querySelector('video')).toBeNull();
  });
});
