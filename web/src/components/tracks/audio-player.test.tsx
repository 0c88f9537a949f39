import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer } from './audio-player';

function mockMedia({ duration = 125 }: { duration?: number } = {}) {
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockReturnValue(duration);
  return { play, pause };
}

function audioElement() {
  const audio = document.querySelector('audio');
  if (!audio) throw new Error('no audio element');
  return audio;
}

describe('audio player', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
  });

  it('toggles between play and pause', async () => {
    const { play, pause } = mockMedia();
    const user = userEvent.setup();
    render(<AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" />);

    await user.click(screen.getByRole('button', { name: 'Play Neon Nights' }));
    expect(play).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Pause Neon Nights' }));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
  });

  it('stays paused when the browser refuses to play', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(new Error('NotAllowedError'));
    const user = userEvent.setup();
    render(<AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" />);

    await user.click(screen.getByRole('button', { name: 'Play Neon Nights' }));

    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
  });

  it('returns to paused when playback ends', async () => {
    mockMedia();
    const user = userEvent.setup();
    render(<AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" />);
    await user.click(screen.getByRole('button', { name: 'Play Neon Nights' }));

    fireEvent(audioElement(), new Event('ended'));

    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
  });

  it('shows elapsed and total time as m:ss once metadata loads', () => {
    mockMedia({ duration: 125 });
    render(<AudioPlayer src="https://cdn.test/a.wav" />);
    expect(screen.getAllByText('0:00')).toHaveLength(2);

    fireEvent(audioElement(), new Event('loadedmetadata'));
    act(() => {
      audioElement().currentTime = 65;
    });
    fireEvent(audioElement(), new Event('timeupdate'));

    expect(screen.getByText('1:05')).toBeDefined();
    expect(screen.getByText('2:05')).toBeDefined();
    const slider = screen.getByRole('slider', { name: 'Seek track' });
    expect(slider.getAttribute('max')).toBe('125');
    expect(slider.getAttribute('step')).toBe('1');
    expect(slider.getAttribute('aria-valuetext')).toBe('1:05 of 2:05');
  });

  it('uses 100 as the slider maximum while the duration is unknown', () => {
    mockMedia({ duration: Number.NaN });
    render(<AudioPlayer src="https://cdn.test/a.wav" />);
    fireEvent(audioElement(), new Event('loadedmetadata'));

    expect(screen.getByRole('slider').getAttribute('max')).toBe('100');
  });

  it('uses a known track duration before metadata loads', () => {
    mockMedia({ duration: Number.NaN });
    render(<AudioPlayer src="https://cdn.test/a.wav" duration={30} />);

    expect(screen.getByRole('slider').getAttribute('max')).toBe('30');
    expect(screen.getByText('0:30')).toBeDefined();
  });

  it('seeks the audio with the slider', () => {
    mockMedia({ duration: 125 });
    render(<AudioPlayer src="https://cdn.test/a.wav" />);
    fireEvent(audioElement(), new Event('loadedmetadata'));

    fireEvent.change(screen.getByRole('slider'), { target: { value: '42' } });

    expect(audioElement().currentTime).toBe(42);
    expect(screen.getByText('0:42')).toBeDefined();
  });

  it('pauses the other players when one starts', async () => {
    // Media elements that keep their own paused state and fire play and pause, as a browser's do.
    const paused = new WeakMap<HTMLMediaElement, boolean>();
    vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (
      this: HTMLMediaElement,
    ) {
      return paused.get(this) ?? true;
    });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async function (this: HTMLMediaElement) {
      paused.set(this, false);
      this.dispatchEvent(new Event('play'));
    });
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
      this: HTMLMediaElement,
    ) {
      if (paused.get(this) === false) {
        paused.set(this, true);
        this.dispatchEvent(new Event('pause'));
      }
    });
    const user = userEvent.setup();
    render(
      <>
        <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" />
        <AudioPlayer src="https://cdn.test/b.wav" title="Slow Rain" />
        <AudioPlayer src="https://cdn.test/c.wav" title="Low Tide" />
      </>,
    );
    const [first, second, third] = Array.from(document.querySelectorAll('audio'));

    await user.click(screen.getByRole('button', { name: 'Play Neon Nights' }));
    expect(first?.paused).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Play Slow Rain' }));

    expect(first?.paused).toBe(true);
    expect(second?.paused).toBe(false);
    expect(third?.paused).toBe(true);
    expect(pause.mock.contexts).toEqual([first]);
    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Pause Slow Rain' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Play Low Tide' })).toBeDefined();
  });

  it('starts again paused at 0:00 when the source changes', async () => {
    mockMedia({ duration: 125 });
    const user = userEvent.setup();
    const { rerender } = render(<AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" />);
    fireEvent(audioElement(), new Event('loadedmetadata'));
    await user.click(screen.getByRole('button', { name: 'Play Neon Nights' }));
    fireEvent.change(screen.getByRole('slider'), { target: { value: '42' } });

    rerender(<AudioPlayer src="https://cdn.test/b.wav" title="Neon Nights" />);

    expect(screen.getByRole('button', { name: 'Play Neon Nights' })).toBeDefined();
    expect(screen.getByRole('slider').getAttribute('aria-valuetext')).toBe('0:00 of 0:00');
  });
});
