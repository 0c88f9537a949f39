import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaveSurferOptions } from 'wavesurfer.js';
import { clearPeaksCache } from '@/components/waveform/peaks';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { holdIntersections, revealObserved } from '@/testing/viewport';
import { AudioPlayer } from './audio-player';

/** wavesurfer.js cannot draw in happy-dom: a stand-in records what the player asks of it. */
const wavesurfer = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => void;
  const instances: Array<{
    options: WaveSurferOptions;
    emit(event: string): void;
    destroy: () => void;
  }> = [];
  return {
    instances,
    create: (options: WaveSurferOptions) => {
      const handlers = new Map<string, Handler[]>();
      const instance = {
        options,
        on(event: string, handler: Handler) {
          handlers.set(event, [...(handlers.get(event) ?? []), handler]);
        },
        emit(event: string) {
          for (const handler of handlers.get(event) ?? []) handler();
        },
        destroy: vi.fn(),
      };
      instances.push(instance);
      return instance;
    },
  };
});
vi.mock('wavesurfer.js', () => ({ default: { create: wavesurfer.create } }));

const peaksFile = {
  version: 2,
  channels: 1,
  sample_rate: 44_100,
  samples_per_pixel: 2205,
  bits: 8,
  length: 4,
  data: [-64, 64, -128, 127, -32, 32, 0, 0],
};
const peaksUrl = 'https://cdn.test/tracks/t1.peaks.json?Signature=one';

function audioElement() {
  const audio = document.querySelector('audio');
  if (!audio) throw new Error('no audio element');
  return audio;
}

/** The waveform's slider (a div), as opposed to the plain range input. */
const waveformSlider = () => document.querySelector<HTMLElement>('div[role="slider"]');

async function drawnWaveform() {
  await waitFor(() => expect(wavesurfer.instances).toHaveLength(1));
  const instance = wavesurfer.instances[0];
  if (!instance) throw new Error('no waveform');
  act(() => instance.emit('ready'));
  return instance;
}

describe('audio player with a waveform', () => {
  beforeEach(() => {
    wavesurfer.instances.length = 0;
    clearPeaksCache();
    vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockReturnValue(125);
  });

  it('keeps the plain seek slider and loads no waveform without peaks', () => {
    const fetchMock = mockFetch({});
    render(<AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={null} />);

    const slider = screen.getByRole('slider', { name: 'Seek Neon Nights' });
    expect(slider.tagName).toBe('INPUT');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(wavesurfer.instances).toHaveLength(0);
  });

  it('draws the peaks over the player’s own audio element and then replaces the slider', async () => {
    const fetchMock = mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    // Until the waveform is drawn, the plain slider seeks.
    expect(document.querySelector('input[type="range"]')).not.toBeNull();

    const instance = await drawnWaveform();

    expect(fetchMock.mock.calls[0]?.[0]).toBe(peaksUrl);
    expect(instance.options.media).toBe(audioElement());
    expect(instance.options.url).toBeUndefined();
    expect(instance.options.duration).toBe(125);
    expect(instance.options.peaks).toEqual([
      [0.5, 127 / 128, 0.25, 0],
      [-0.5, -1, -0.25, 0],
    ]);
    expect(instance.options.container).toBe(waveformSlider());
    expect(document.querySelector('input[type="range"]')).toBeNull();
    const slider = screen.getByRole('slider', { name: 'Seek Neon Nights' });
    expect(slider.getAttribute('aria-valuetext')).toBe('0:00 of 2:05');
    expect(slider.getAttribute('aria-valuemax')).toBe('125');
  });

  it('fetches and draws nothing until the player comes near the screen', async () => {
    holdIntersections();
    const fetchMock = mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    // Off screen, the plain slider seeks and no peaks are fetched.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(wavesurfer.instances).toHaveLength(0);
    expect(screen.getByRole('slider', { name: 'Seek Neon Nights' }).tagName).toBe('INPUT');

    revealObserved();

    await drawnWaveform();
    expect(fetchMock.mock.calls[0]?.[0]).toBe(peaksUrl);
    expect(document.querySelector('input[type="range"]')).toBeNull();
  });

  it('seeks with the arrow keys, Home and End, and says the time', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    const user = userEvent.setup();
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    await drawnWaveform();
    const slider = screen.getByRole('slider', { name: 'Seek Neon Nights' });
    slider.focus();

    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(audioElement().currentTime).toBe(10);
    expect(slider.getAttribute('aria-valuetext')).toBe('0:10 of 2:05');
    expect(slider.getAttribute('aria-valuenow')).toBe('10');

    await user.keyboard('{ArrowLeft}');
    expect(audioElement().currentTime).toBe(5);

    await user.keyboard('{End}');
    expect(audioElement().currentTime).toBe(125);
    expect(slider.getAttribute('aria-valuetext')).toBe('2:05 of 2:05');

    await user.keyboard('{Home}');
    expect(audioElement().currentTime).toBe(0);
  });

  it('stays at the end after End, where the audio is, and the keys go on from there', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    const user = userEvent.setup();
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    await drawnWaveform();
    const slider = screen.getByRole('slider', { name: 'Seek Neon Nights' });
    slider.focus();

    await user.keyboard('{End}');
    // A seek to the end ends the audio: the browser says so, as it does when a track plays out.
    fireEvent(audioElement(), new Event('ended'));
    expect(slider.getAttribute('aria-valuetext')).toBe('2:05 of 2:05');

    await user.keyboard('{ArrowRight}');
    expect(audioElement().currentTime).toBe(125);
    expect(slider.getAttribute('aria-valuetext')).toBe('2:05 of 2:05');

    await user.keyboard('{ArrowLeft}');
    expect(audioElement().currentTime).toBe(120);
    expect(slider.getAttribute('aria-valuetext')).toBe('2:00 of 2:05');
  });

  it('follows the audio when a click on the waveform seeks it', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    await drawnWaveform();

    // wavesurfer sets the media element's time on a click; the element starts seeking there.
    act(() => {
      audioElement().currentTime = 65;
    });
    fireEvent(audioElement(), new Event('seeking'));

    expect(screen.getByRole('slider').getAttribute('aria-valuetext')).toBe('1:05 of 2:05');
  });

  it.each([
    ['cannot be fetched', () => jsonResponse({ message: 'Forbidden' }, 403)],
    ['are not audiowaveform JSON', () => jsonResponse({ ...peaksFile, version: 1 })],
  ])('keeps the plain slider when the peaks %s', async (_case, answer) => {
    mockFetch({ 'GET /tracks/t1.peaks.json': answer });
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );

    await waitFor(() => expect(waveformSlider()).not.toBeNull());
    await waitFor(() => expect(waveformSlider()).toBeNull());

    const slider = screen.getByRole('slider', { name: 'Seek Neon Nights' });
    expect(slider.tagName).toBe('INPUT');
    fireEvent.change(slider, { target: { value: '42' } });
    expect(audioElement().currentTime).toBe(42);
    expect(wavesurfer.instances).toHaveLength(0);
  });

  it('keeps the plain slider when the waveform reports an error', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    await waitFor(() => expect(wavesurfer.instances).toHaveLength(1));

    act(() => wavesurfer.instances[0]?.emit('error'));

    expect(screen.getByRole('slider', { name: 'Seek Neon Nights' }).tagName).toBe('INPUT');
    expect(waveformSlider()).toBeNull();
    expect(wavesurfer.instances[0]?.destroy).toHaveBeenCalled();
  });

  it('keeps the drawn waveform when the link is signed again', async () => {
    const fetchMock = mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    const { rerender } = render(
      <AudioPlayer src="https://cdn.test/a.wav" title="Neon Nights" duration={125} peaksUrl={peaksUrl} />,
    );
    const instance = await drawnWaveform();

    rerender(
      <AudioPlayer
        src="https://cdn.test/a.wav"
        title="Neon Nights"
        duration={125}
        peaksUrl="https://cdn.test/tracks/t1.peaks.json?Signature=two"
      />,
    );

    expect(document.querySelector('input[type="range"]')).toBeNull();
    expect(instance.destroy).not.toHaveBeenCalled();
    expect(wavesurfer.instances).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
