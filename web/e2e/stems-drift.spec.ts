import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser';

/**
 * The mixer's drift, measured in Chromium's Web Audio: the live mixer's own
 * graph code (`src/features/stems/mixer/graph.ts`, and the gains of `mix.ts`),
 * bundled as it is, renders generated stems in an OfflineAudioContext. Each
 * stem is silent but for clicks at times known to the sample; where the clicks
 * land in the rendered output says where each stem was against the context's
 * clock (the output's frame n is context time n / rate), past 4 minutes of
 * playback, from the start, from a seek made before playing and from one made
 * while playing (the context suspended there, as the live mixer starts its
 * stems again on a seek). Rendering offline takes seconds, not the 4 minutes.
 */

const RATE = 8_000;
/** The most a stem may be off, from the clock or from another stem: 10 ms. */
const TOLERANCE_SECONDS = 0.01;
const STEMS = ['vocals', 'drums', 'bass', 'guitar', 'piano', 'other'];
const STEM_SECONDS = 250;
/** Each stem's clicks: one early, and one past 4:00 (a fifth of a second apart, stem by stem, to tell them apart). */
const clickTimes = (stem: number) => [5 + stem * 0.2, 240 + stem * 0.2];

let browser: Browser;
let page: Page;

/** graph.ts and mix.ts as one script that puts their exports on `window.mixer`. */
async function mixerScript(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: fileURLToPath(new URL('./stems-drift-entry.ts', import.meta.url)),
        formats: ['iife'],
        name: 'mixer',
      },
    },
  })) as Rollup.RollupOutput[];
  const chunk = output[0]?.output.find((file) => file.type === 'chunk');
  if (chunk?.type !== 'chunk') throw new Error('The mixer was not bundled');
  return chunk.code;
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.addScriptTag({ content: await mixerScript() });
});

afterAll(async () => {
  await browser?.close();
});

interface Render {
  /** The context time the stems start at, and from where in their audio. */
  when: number;
  offset: number;
  /** A seek while playing: at context time `at`, the stems start again from `to`. */
  seek?: { at: number; to: number };
  /** Each stem's mute, solo and volume. */
  controls?: { muted: boolean; solo: boolean; volume: number }[];
  seconds: number;
}

/** Renders the stems through the mixer's graph; answers every click found: its frame and height. */
function render(setup: Render): Promise<{ frame: number; height: number }[]> {
  return page.evaluate(
    async ({ setup, stems, rate, stemSeconds, clicks }) => {
      const { buildMixerGraph, startStems, stopStems, setStemGains, stemGains } = (
        window as unknown as { mixer: typeof import('./stems-drift-entry') }
      ).mixer;
      const context = new OfflineAudioContext(1, Math.round(setup.seconds * rate), rate);
      const buffers = clicks.map((times) => {
        const buffer = context.createBuffer(1, stemSeconds * rate, rate);
        const data = buffer.getChannelData(0);
        for (const time of times) data[Math.round(time * rate)] = 1;
        return buffer;
      });
      const graph = buildMixerGraph(context, buffers);
      const controls = setup.controls ?? stems.map(() => ({ muted: false, solo: false, volume: 1 }));
      setStemGains(graph, stemGains(controls), true, 0);
      let sources = startStems(graph, setup.when, setup.offset);
      const { seek } = setup;
      if (seek) {
        void context.suspend(seek.at).then(() => {
          stopStems(sources);
          sources = startStems(graph, context.currentTime, seek.to);
          void context.resume();
        });
      }
      const output = (await context.startRendering()).getChannelData(0);
      const found: { frame: number; height: number }[] = [];
      for (let frame = 0; frame < output.length; frame++) {
        const height = output[frame] ?? 0;
        if (Math.abs(height) > 0.01) found.push({ frame, height });
      }
      return found;
    },
    {
      setup,
      stems: STEMS,
      rate: RATE,
      stemSeconds: STEM_SECONDS,
      clicks: STEMS.map((_, i) => clickTimes(i)),
    },
  );
}

/**
 * Where each stem's click past 4:00 of playback landed against where the clock says it should
 * (seconds; positive is late), given where the stems were started in the audio and when.
 */
function lateness(found: { frame: number }[], start: { when: number; offset: number }) {
  return STEMS.map((_, stem) => {
    const late = clickTimes(stem)[1] as number;
    const expected = start.when + (late - start.offset);
    const nearest = found
      .map(({ frame }) => frame / RATE - expected)
      .reduce((best, error) => (Math.abs(error) < Math.abs(best) ? error : best), Number.POSITIVE_INFINITY);
    return nearest;
  });
}

function expectInStep(errors: number[]) {
  for (const error of errors) expect(Math.abs(error)).toBeLessThanOrEqual(TOLERANCE_SECONDS);
  expect(Math.max(...errors) - Math.min(...errors)).toBeLessThanOrEqual(TOLERANCE_SECONDS);
}

describe('the mixer keeps its stems together', () => {
  it('has every stem within 10 ms of the clock and of each other after 4 minutes from the start', async () => {
    const found = await render({ when: 0, offset: 0, seconds: 242 });
    // Every click of every stem, early and late, and nothing else.
    expect(found).toHaveLength(STEMS.length * 2);
    expectInStep(lateness(found, { when: 0, offset: 0 }));
  });

  it('keeps them together from a seek made before playing', async () => {
    const found = await render({ when: 0.25, offset: 180, seconds: 62 });
    expect(found).toHaveLength(STEMS.length);
    expectInStep(lateness(found, { when: 0.25, offset: 180 }));
  });

  it('keeps them together from a seek made while playing', async () => {
    const found = await render({ when: 0, offset: 0, seek: { at: 30, to: 200 }, seconds: 72 });
    // The early clicks before the seek, then the late ones from where the seek took the stems.
    expect(found).toHaveLength(STEMS.length * 2);
    expectInStep(lateness(found, { when: 30, offset: 200 }));
  });

  it('sounds only the soloed stem, not a muted one, each at its volume', async () => {
    const controls = STEMS.map((name) => ({ muted: false, solo: name === 'vocals', volume: 1 }));
    const soloed = await render({ when: 0, offset: 235, seconds: 7, controls });
    expect(soloed).toHaveLength(1);
    expectInStep([lateness(soloed, { when: 0, offset: 235 })[0] as number]);

    const mixed = STEMS.map((name) => ({
      muted: name === 'drums',
      solo: false,
      volume: name === 'bass' ? 0.5 : 1,
    }));
    const heights = (await render({ when: 0, offset: 235, seconds: 7, controls: mixed })).map((click) =>
      Number(click.height.toFixed(3)),
    );
    // Vocals, bass at half, guitar, piano, other; no drums.
    expect(heights).toEqual([1, 0.5, 1, 1, 1]);
  });
});
