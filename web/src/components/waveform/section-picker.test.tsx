import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaveSurferOptions } from 'wavesurfer.js';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { clearPeaksCache } from './peaks';
import { SectionPicker, type SectionPickerProps } from './section-picker';

/** wavesurfer.js and its Regions plugin cannot draw in happy-dom: stand-ins record what the picker asks. */
const fake = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => void;
  const emitter = () => {
    const handlers = new Map<string, Handler[]>();
    return {
      on(event: string, handler: Handler) {
        handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      },
      emit(event: string, ...args: unknown[]) {
        for (const handler of handlers.get(event) ?? []) handler(...args);
      },
    };
  };
  const makeRegion = (params: { start: number; end: number; minLength?: number }) => ({
    ...params,
    setOptions: vi.fn(function (
      this: { start: number; end: number },
      options: { start: number; end: number },
    ) {
      Object.assign(this, options);
    }),
    remove: vi.fn(),
  });
  type FakeRegion = ReturnType<typeof makeRegion>;
  const state = {
    wavesurfers: [] as Array<
      ReturnType<typeof emitter> & { options: WaveSurferOptions; destroy: () => void }
    >,
    plugins: [] as Array<
      ReturnType<typeof emitter> & {
        regions: FakeRegion[];
        addRegion: (params: { start: number; end: number }) => FakeRegion;
        enableDragSelection: ReturnType<typeof vi.fn>;
      }
    >,
    makeRegion,
  };
  return {
    state,
    createWaveSurfer: (options: WaveSurferOptions) => {
      const instance = { ...emitter(), options, destroy: vi.fn() };
      state.wavesurfers.push(instance);
      return instance;
    },
    createRegions: () => {
      const events = emitter();
      const plugin = {
        ...events,
        regions: [] as FakeRegion[],
        addRegion(params: { start: number; end: number }) {
          const region = makeRegion(params);
          plugin.regions.push(region);
          events.emit('region-created', region);
          return region;
        },
        enableDragSelection: vi.fn(),
      };
      state.plugins.push(plugin);
      return plugin;
    },
  };
});
vi.mock('wavesurfer.js', () => ({ default: { create: fake.createWaveSurfer } }));
vi.mock('wavesurfer.js/plugins/regions', () => ({ default: { create: fake.createRegions } }));

const peaksFile = {
  version: 2,
  channels: 1,
  sample_rate: 44_100,
  samples_per_pixel: 2205,
  bits: 8,
  length: 2,
  data: [-64, 64, -128, 127],
};
const peaksUrl = 'https://cdn.test/tracks/t1.peaks.json?Signature=one';

/** The dialog's side: it keeps the section in state, as the repaint dialog does. */
function Harness({
  initial = { start: 12, end: 25 },
  onChange,
  ...props
}: Partial<SectionPickerProps> & { initial?: { start: number; end: number } }) {
  const [section, setSection] = useState(initial);
  return (
    <>
      <SectionPicker
        peaksUrl={peaksUrl}
        src="https://cdn.test/a.opus"
        duration={200}
        title="Neon Nights"
        {...props}
        start={section.start}
        end={section.end}
        onChange={(next) => {
          onChange?.(next);
          setSection(next);
        }}
      />
      <button type="button" onClick={() => setSection({ start: 40, end: 55.5 })}>
        Type 40 to 55.5
      </button>
      <button type="button" onClick={() => setSection({ start: 60, end: 50 })}>
        Type 60 to 50
      </button>
    </>
  );
}

async function readyWaveform() {
  await waitFor(() => expect(fake.state.wavesurfers).toHaveLength(1));
  const wavesurfer = fake.state.wavesurfers[0];
  const regions = fake.state.plugins[0];
  if (!wavesurfer || !regions) throw new Error('no waveform');
  act(() => wavesurfer.emit('ready'));
  const region = regions.regions[0];
  if (!region) throw new Error('no region');
  return { wavesurfer, regions, region };
}

describe('SectionPicker', () => {
  beforeEach(() => {
    fake.state.wavesurfers.length = 0;
    fake.state.plugins.length = 0;
    clearPeaksCache();
  });

  it('names the waveform and says the section in words', () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    render(<Harness />);

    const figure = screen.getByRole('figure', {
      name: 'Waveform of Neon Nights: drag across it to choose the section',
    });
    expect(figure.getAttribute('aria-describedby')).toBe(
      screen.getByText('Section: 0:12 to 0:25 (13 seconds)').id,
    );
  });

  it('draws the section as a region at least a second long and lets a drag across the waveform make a new one', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    render(<Harness />);

    const { wavesurfer, regions, region } = await readyWaveform();

    expect(wavesurfer.options.peaks).toHaveLength(2);
    expect(wavesurfer.options.duration).toBe(200);
    expect(wavesurfer.options.media).toBe(document.querySelector('audio'));
    expect(wavesurfer.options.url).toBeUndefined();
    expect(region).toMatchObject({ start: 12, end: 25, minLength: 1 });
    expect(regions.enableDragSelection).toHaveBeenCalledWith(expect.objectContaining({ minLength: 1 }));
  });

  it('replaces the region with a new drag and reports it at least a second long', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const { regions, region } = await readyWaveform();

    const drawn = fake.state.makeRegion({ start: 30.04, end: 30.3 });
    act(() => regions.emit('region-created', drawn));

    expect(region.remove).toHaveBeenCalled();
    expect(onChange).toHaveBeenLastCalledWith({ start: 30, end: 31 });
    expect(drawn).toMatchObject({ start: 30, end: 31 });
    expect(screen.getByText('Section: 0:30 to 0:31 (1 second)')).toBeDefined();
  });

  it('reports a dragged or resized region clamped to the track', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const { regions, region } = await readyWaveform();

    region.start = 180.26;
    region.end = 203;
    act(() => regions.emit('region-updated', region));

    expect(onChange).toHaveBeenLastCalledWith({ start: 180.3, end: 200 });
    expect(screen.getByText('Section: 3:00.3 to 3:20 (19.7 seconds)')).toBeDefined();
  });

  it('moves the region to typed values and leaves it while they are mid-edit', async () => {
    mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse(peaksFile) });
    const user = userEvent.setup();
    render(<Harness />);
    const { region } = await readyWaveform();

    await user.click(screen.getByRole('button', { name: 'Type 40 to 55.5' }));
    expect(region).toMatchObject({ start: 40, end: 55.5 });
    expect(screen.getByText('Section: 0:40 to 0:55.5 (15.5 seconds)')).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Type 60 to 50' }));
    expect(region).toMatchObject({ start: 40, end: 55.5 });
    expect(screen.getByText('Choose a section within the track.')).toBeDefined();
  });

  it('shows the section as a plain bar, with no waveform, when there are no peaks or they fail', async () => {
    const fetchMock = mockFetch({ 'GET /tracks/t1.peaks.json': jsonResponse({ message: 'Forbidden' }, 403) });
    const { unmount } = render(<Harness peaksUrl={null} />);
    expect(screen.getByText('Section: 0:12 to 0:25 (13 seconds)')).toBeDefined();
    expect(fetchMock).not.toHaveBeenCalled();
    unmount();

    render(<Harness />);
    const bar = () => document.querySelector('.bg-fuchsia-500\\/70');
    // The bar stands in while the waveform's code loads, leaves for the waveform, and comes back when the peaks fail.
    await waitFor(() => expect(bar()).toBeNull());
    await waitFor(() => expect(bar()).not.toBeNull());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fake.state.wavesurfers).toHaveLength(0);
  });

  it('plays the section from its start and stops at its end', async () => {
    mockFetch({});
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async function (
      this: HTMLMediaElement,
    ) {
      this.dispatchEvent(new Event('play'));
    });
    const paused = vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockReturnValue(false);
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
      this: HTMLMediaElement,
    ) {
      paused.mockReturnValue(true);
      this.dispatchEvent(new Event('pause'));
    });
    const user = userEvent.setup();
    render(<Harness peaksUrl={null} />);
    const audio = document.querySelector('audio') as HTMLAudioElement;

    await user.click(screen.getByRole('button', { name: 'Play section' }));
    expect(play).toHaveBeenCalledTimes(1);
    expect(audio.currentTime).toBe(12);
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDefined();

    act(() => {
      audio.currentTime = 24;
    });
    fireEvent(audio, new Event('timeupdate'));
    expect(pause).not.toHaveBeenCalled();

    act(() => {
      audio.currentTime = 25.1;
    });
    fireEvent(audio, new Event('timeupdate'));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Play section' })).toBeDefined();
  });
});
