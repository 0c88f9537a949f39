/**
 * The embedded provider's `fal-ai/demucs` (decision 044). A song this
 * provider made carries its render parameters (`tsmt`, synth.ts
 * `readWavMeta`): it is composed again and each voice rendered on its own,
 * through the same master chain (texture, low-pass, fades) and at the gain the
 * whole mix was normalised with, so the stems are the song's true parts and
 * sum back to it. Whether the render is the song is checked, not assumed: the
 * parts' sum must match the file within {@link OWN_SONG_RESIDUAL_DB}. Anything
 * else (uploads, restyles, extended or repainted songs, whose render
 * parameters do not describe every sample) gets an approximate split by
 * frequency bands whose parts still sum to the input, and says so.
 */
import type { EditSource } from './edit';
import {
  addCrackle,
  applyFades,
  masterLowPass,
  normalisingGain,
  type RenderMeta,
  type RenderPlan,
  renderHit,
  renderNote,
  SAMPLE_RATE,
  scoreSteps,
  styleFor,
} from './synth';

/** The stems Demucs's models separate into, as fal names them. */
export const STEM_NAMES_4 = ['vocals', 'drums', 'bass', 'other'] as const;
export const STEM_NAMES_6 = ['vocals', 'drums', 'bass', 'guitar', 'piano', 'other'] as const;
export type StemName = (typeof STEM_NAMES_6)[number];

/** How close (residual energy against the file's, in dB) a render must come to be the file's song. */
export const OWN_SONG_RESIDUAL_DB = -60;

export interface Separation {
  /** Each stem's two channels, at 48 kHz, the input's length. */
  stems: Partial<Record<StemName, [Float32Array, Float32Array]>>;
  /** `render`: the song's own voices; `bands`: an approximate split by frequency. */
  method: 'render' | 'bands';
}

/**
 * Which stem a note of the song belongs to, said honestly: the singer's notes
 * are vocals, the bass line bass; with six stems the plucked lead (a plucked
 * string) is guitar and the bell lead (a struck, keyed tone) piano; pads,
 * other leads and the texture are other. Drum hits are drums.
 */
function stemOfNote(note: { wave: string; part?: string }, six: boolean): StemName {
  if (note.wave === 'vocal') return 'vocals';
  if (note.part === 'bass') return 'bass';
  if (six && note.wave === 'pluck') return 'guitar';
  if (six && note.wave === 'bell') return 'piano';
  return 'other';
}

/** The plan a file's render parameters describe, `frames` long. */
export function planFromMeta(meta: RenderMeta, frames: number): RenderPlan {
  const base = styleFor(meta.tags, meta.seed);
  return {
    style: { ...base, bpm: meta.bpm, scale: [...meta.scale], swing: meta.swing },
    totalSamples: frames,
    seed: meta.seed,
    lyrics: meta.lyrics,
    root: meta.root,
    gridStart: meta.gridStart,
  };
}

const stereo = (n: number): [Float32Array, Float32Array] => [new Float32Array(n), new Float32Array(n)];

/**
 * Renders each voice of a plan apart, through the master chain the mix takes,
 * every part scaled by the gain that normalises their sum (as the mix was).
 */
export function* renderStemsSteps(
  plan: RenderPlan,
  names: readonly StemName[],
): Generator<void, Partial<Record<StemName, [Float32Array, Float32Array]>>, void> {
  const total = plan.totalSamples;
  const six = names.includes('guitar') || names.includes('piano');
  const { notes, hits, rng } = yield* scoreSteps(plan);
  const parts = new Map<StemName, [Float32Array, Float32Array]>();
  const partOf = (name: StemName) => {
    let part = parts.get(name);
    if (!part) {
      part = stereo(total);
      parts.set(name, part);
    }
    return part;
  };
  let count = 0;
  for (const n of notes) {
    const [l, r] = partOf(stemOfNote(n, six));
    renderNote(n, l, r, total);
    if (++count % 64 === 0) yield;
  }
  const [dl, dr] = partOf('drums');
  for (const h of hits) {
    renderHit(h, dl, dr, total);
    if (++count % 256 === 0) yield;
  }
  const [ol, or] = partOf('other');
  addCrackle(plan.style, rng, total, 0, ol, or);
  const mix = stereo(total);
  for (const [l, r] of parts.values()) {
    masterLowPass(plan.style, l, r);
    applyFades(l, r, plan.master);
    for (let i = 0; i < total; i++) {
      mix[0][i] = (mix[0][i] as number) + (l[i] as number);
      mix[1][i] = (mix[1][i] as number) + (r[i] as number);
    }
    yield;
  }
  const gain = normalisingGain(mix[0], mix[1], plan.master?.peak);
  const out: Partial<Record<StemName, [Float32Array, Float32Array]>> = {};
  for (const name of names) {
    const part = parts.get(name) ?? stereo(total);
    for (const channel of part) for (let i = 0; i < total; i++) channel[i] = (channel[i] as number) * gain;
    out[name] = part;
  }
  return out;
}

/** Residual energy of `a` against `b` (both stereo), in dB of `b`'s energy; -Infinity when equal. */
export function residualDb(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  let signal = 0;
  let residual = 0;
  for (let c = 0; c < b.length; c++) {
    const x = b[c] as Float32Array;
    const y = a[c] as Float32Array;
    for (let i = 0; i < x.length; i++) {
      const v = x[i] as number;
      const d = (y[i] ?? 0) - v;
      signal += v * v;
      residual += d * d;
    }
  }
  if (residual === 0) return Number.NEGATIVE_INFINITY;
  return 10 * Math.log10(residual / Math.max(signal, Number.MIN_VALUE));
}

/** The stems summed, channel by channel. */
export function sumStems(
  stems: Iterable<[Float32Array, Float32Array]>,
  frames: number,
): [Float32Array, Float32Array] {
  const sum = stereo(frames);
  for (const stem of stems)
    for (let c = 0; c < 2; c++) {
      const from = stem[c] as Float32Array;
      const to = sum[c] as Float32Array;
      for (let i = 0; i < frames; i++) to[i] = (to[i] as number) + (from[i] as number);
    }
  return sum;
}

/** A one-pole low-pass of a channel at `hz` (run twice: 12 dB an octave). */
function lowPass(channel: Float32Array, hz: number): Float32Array {
  const a = 1 - Math.exp((-2 * Math.PI * hz) / SAMPLE_RATE);
  const out = new Float32Array(channel.length);
  for (let pass = 0; pass < 2; pass++) {
    const from = pass === 0 ? channel : out;
    let y = 0;
    for (let i = 0; i < from.length; i++) {
      y += a * ((from[i] as number) - y);
      out[i] = y;
    }
  }
  return out;
}

const minus = (a: Float32Array, b: Float32Array) => a.map((v, i) => v - (b[i] as number));

/**
 * The approximate split: bass below 160 Hz, drums as the band above 6 kHz
 * (where cymbals and the snare's noise sit), vocals as the voice band of
 * 300 Hz to 3.4 kHz, other the rest, so the four sum to the input exactly.
 * Nothing here tells a guitar or a piano apart: asked for six, those two
 * come back silent.
 */
export function* bandSplitSteps(
  channels: readonly [Float32Array, Float32Array],
  names: readonly StemName[],
): Generator<void, Partial<Record<StemName, [Float32Array, Float32Array]>>, void> {
  const frames = channels[0].length;
  const split = channels.map((x) => {
    const bass = lowPass(x, 160);
    const rest = minus(x, bass);
    const drums = minus(rest, lowPass(rest, 6000));
    const mid = minus(rest, drums);
    const vocals = minus(lowPass(mid, 3400), lowPass(mid, 300));
    const other = minus(mid, vocals);
    return { bass, drums, vocals, other };
  });
  yield;
  const out: Partial<Record<StemName, [Float32Array, Float32Array]>> = {};
  for (const name of names) {
    const [l, r] = split;
    out[name] =
      name === 'guitar' || name === 'piano'
        ? stereo(frames)
        : [(l as (typeof split)[number])[name], (r as (typeof split)[number])[name]];
  }
  return out;
}

/**
 * Separates a decoded source into `names`: its true voices when it is this
 * provider's own song (checked), else the approximate split.
 */
export function* separateSteps(
  source: EditSource,
  names: readonly StemName[],
): Generator<void, Separation, void> {
  const frames = source.channels[0].length;
  if (source.meta) {
    const stems = yield* renderStemsSteps(planFromMeta(source.meta, frames), names);
    const sum = sumStems(Object.values(stems) as Array<[Float32Array, Float32Array]>, frames);
    if (residualDb(sum, source.channels) <= OWN_SONG_RESIDUAL_DB) return { stems, method: 'render' };
  }
  return { stems: yield* bandSplitSteps(source.channels, names), method: 'bands' };
}
