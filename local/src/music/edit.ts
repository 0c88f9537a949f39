/**
 * Extend (fal's audio-outpaint) and repaint (audio-inpaint) for the embedded
 * provider. The source's samples are kept exactly: extend adds new bars before
 * and/or after them, repaint replaces one section and crossfades it in and out.
 *
 * New material is the synthesiser's, in the source's tempo and key: a WAV this
 * provider wrote carries its render parameters (synth.ts `readWavMeta`), so the
 * new bars sit on the same bar grid with the same tempo, scale and tonic. For
 * any other audio the tonic is estimated from the samples and the tempo comes
 * from the tags, on a grid that starts with the file.
 */
import { type DecodedAudio, decodeAudio, estimateRoot } from './restyle';
import {
  barSamples,
  MAX_DURATION,
  type RenderMeta,
  type RenderPlan,
  readWavMeta,
  renderSteps,
  SAMPLE_RATE,
  type Style,
  type SungLyric,
  styleFor,
} from './synth';

/** Sung words moved by `seconds`. */
const shifted = (words: SungLyric[] | undefined, seconds: number): SungLyric[] =>
  (words ?? []).map(([text, start, end]) => [
    text,
    Math.round((start + seconds) * 1000) / 1000,
    Math.round((end + seconds) * 1000) / 1000,
  ]);

/** Longest source an edit accepts, in seconds. */
export const MAX_SOURCE_SECONDS = 2 * MAX_DURATION;
/** Length of each repaint crossfade (shorter for very short sections). */
export const REPAINT_FADE_SECONDS = 0.04;
/** Ramp that carries a non-silent source edge to the new material's silent edge. */
const SEAM_SECONDS = 0.01;
/** Fade of an extension at its start into the source (extend before). */
const LEAD_IN_FADE_SECONDS = 0.25;

/** Input an edit cannot use; `field` names the input at fault. */
export class AudioEditError extends Error {
  constructor(
    message: string,
    readonly field = 'audio_url',
  ) {
    super(message);
  }
}

export interface EditSource {
  /** Left and right at 48 kHz; a 16-bit WAV's samples as value/32767, so they encode back exactly. */
  channels: [Float32Array, Float32Array];
  /** The render parameters, when this provider wrote the file. */
  meta?: RenderMeta;
}

function resample(channel: Float32Array, ratio: number): Float32Array {
  if (ratio === 1) return channel;
  const out = new Float32Array(Math.round(channel.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const x = i * ratio;
    const k = Math.floor(x);
    const a = channel[k] ?? 0;
    const b = channel[k + 1] ?? a;
    out[i] = a + (b - a) * (x - k);
  }
  return out;
}

/** Stereo 48 kHz channels of decoded audio (mono is doubled; channels past two are left out). */
export function editChannels(audio: DecodedAudio): [Float32Array, Float32Array] {
  const scale = audio.pcmBits === 16 ? 32768 / 32767 : 1;
  const ratio = audio.sampleRate / SAMPLE_RATE;
  const pick = (c: Float32Array | undefined) => {
    const src = c ?? new Float32Array(0);
    const scaled = scale === 1 ? src : src.map((v) => v * scale);
    return resample(scaled, ratio);
  };
  const left = pick(audio.channels[0]);
  const right = audio.channels.length > 1 ? pick(audio.channels[1]) : left.slice();
  return [left, right];
}

/** Decodes the audio an edit works on (WAV or MP3), with its render parameters when it has them. */
export async function decodeSource(bytes: Uint8Array): Promise<EditSource> {
  const decoded = await decodeAudio(bytes);
  const channels = editChannels(decoded);
  const frames = channels[0].length;
  if (frames === 0) throw new AudioEditError('audio_url has no samples');
  if (frames > MAX_SOURCE_SECONDS * SAMPLE_RATE)
    throw new AudioEditError(`audio_url is longer than ${MAX_SOURCE_SECONDS} seconds`);
  const meta = decoded.sampleRate === SAMPLE_RATE ? readWavMeta(bytes) : undefined;
  return meta ? { channels, meta } : { channels };
}

export interface EditContext {
  style: Style;
  root: number;
  gridStart: number;
  /** 'render': tempo and key from the file's own parameters; 'estimate': key estimated, tempo from the tags. */
  basis: 'render' | 'estimate';
}

/** The style of new material for a source: the request's tags, the source's tempo, scale, swing and tonic. */
export function editContext(source: EditSource, tags: string, seed: number): EditContext {
  const style = styleFor(tags, seed);
  const meta = source.meta;
  if (meta) {
    return {
      style: { ...style, bpm: meta.bpm, scale: [...meta.scale], swing: meta.swing },
      root: meta.root,
      gridStart: meta.gridStart,
      basis: 'render',
    };
  }
  const [left, right] = source.channels;
  const mono = new Float32Array(left.length);
  for (let i = 0; i < mono.length; i++) mono[i] = ((left[i] as number) + (right[i] as number)) / 2;
  return { style, root: estimateRoot(mono), gridStart: 0, basis: 'estimate' };
}

/** The first bar line at or before sample 0 when bar lines fall at `line + k * bar`. */
function gridFrom(line: number, bar: number): number {
  const r = ((line % bar) + bar) % bar;
  return r === 0 ? 0 : r - bar;
}

function peakOf(channels: Float32Array[], from = 0, to = Number.POSITIVE_INFINITY): number {
  let peak = 0;
  for (const ch of channels) {
    const end = Math.min(ch.length, to);
    for (let i = from; i < end; i++) {
      const a = Math.abs(ch[i] as number);
      if (a > peak) peak = a;
    }
  }
  return peak;
}

function rmsOf(channels: Float32Array[], from: number, to: number): number {
  let sum = 0;
  let n = 0;
  for (const ch of channels) {
    for (let i = from; i < to; i++) sum += (ch[i] as number) ** 2;
    n += Math.max(0, to - from);
  }
  return n ? Math.sqrt(sum / n) : 0;
}

export interface EditResult {
  channels: [Float32Array, Float32Array];
  meta: RenderMeta;
  context: EditContext;
  /** The plans the new material was rendered from, each with the sample it lands at in the result. */
  renders: Array<{ plan: RenderPlan; at: number }>;
}

export interface OutpaintInput {
  tags: string;
  lyrics: string;
  seed: number;
  /** Seconds of new music before the source. */
  before: number;
  /** Seconds of new music after it. */
  after: number;
}

/**
 * Extends a song: `before` seconds of new bars, then the source's samples
 * unchanged, then `after` seconds. The new bars are one song with the source
 * (its bar grid, tempo and key); each joins the source through silence at the
 * seam (the source's own fade, or a 10 ms ramp when the source is not silent there).
 */
export function* outpaintSteps(source: EditSource, input: OutpaintInput): Generator<void, EditResult, void> {
  const context = editContext(source, input.tags, input.seed);
  const { style, root } = context;
  const [srcL, srcR] = source.channels;
  const n = srcL.length;
  const before = Math.max(0, Math.round(input.before * SAMPLE_RATE));
  const after = Math.max(0, Math.round(input.after * SAMPLE_RATE));
  const total = before + n + after;
  const gridStart = gridFrom(context.gridStart + before, barSamples(style.bpm));
  const sourcePeak = peakOf(source.channels);
  const peak = sourcePeak > 0.01 ? sourcePeak : 0.891;
  const plan = (window: { start: number; length: number }, master: RenderPlan['master']): RenderPlan => ({
    style,
    totalSamples: total,
    seed: input.seed >>> 0,
    lyrics: input.lyrics,
    root,
    gridStart,
    window,
    master: { ...master, peak },
  });
  const left = new Float32Array(total);
  const right = new Float32Array(total);
  left.set(srcL, before);
  right.set(srcR, before);
  const seam = Math.floor(SEAM_SECONDS * SAMPLE_RATE);
  const renders: EditResult['renders'] = [];
  const sinks: Record<'before' | 'after', { sung?: SungLyric[] }> = { before: {}, after: {} };
  if (before > 0) {
    const leadIn = plan({ start: 0, length: before }, { fadeOut: LEAD_IN_FADE_SECONDS });
    renders.push({ plan: leadIn, at: 0 });
    const [l, r] = (yield* renderSteps(leadIn, sinks.before)) as [Float32Array, Float32Array];
    // The lead-in ends silent; ramp it to the source's first sample.
    const ramp = Math.min(seam, before);
    for (let k = 0; k < ramp; k++) {
      const g = (ramp - k) / (ramp + 1);
      const i = before - 1 - k;
      l[i] = (l[i] as number) + (srcL[0] as number) * g;
      r[i] = (r[i] as number) + (srcR[0] as number) * g;
    }
    left.set(l, 0);
    right.set(r, 0);
  }
  if (after > 0) {
    const continuation = plan({ start: before + n, length: after }, {});
    renders.push({ plan: continuation, at: before + n });
    const [l, r] = (yield* renderSteps(continuation, sinks.after)) as [Float32Array, Float32Array];
    // The continuation starts silent; ramp from the source's last sample.
    const ramp = Math.min(seam, after);
    for (let k = 0; k < ramp; k++) {
      const g = (ramp - k) / (ramp + 1);
      l[k] = (l[k] as number) + (srcL[n - 1] as number) * g;
      r[k] = (r[k] as number) + (srcR[n - 1] as number) * g;
    }
    left.set(l, before + n);
    right.set(r, before + n);
  }
  return {
    channels: [left, right],
    meta: {
      v: 1,
      tags: input.tags,
      seed: input.seed >>> 0,
      lyrics: input.lyrics,
      bpm: style.bpm,
      scale: [...style.scale],
      swing: style.swing,
      root,
      gridStart,
      // What the whole file sings: the lead-in's words, the source's (as far as it says), the continuation's.
      sung: [
        ...shifted(sinks.before.sung, 0),
        ...shifted(source.meta?.sung, before / SAMPLE_RATE),
        ...shifted(sinks.after.sung, (before + n) / SAMPLE_RATE),
      ],
    },
    context,
    renders,
  };
}

export type TimeAnchor = 'start' | 'end';

export interface InpaintInput {
  tags: string;
  lyrics: string;
  seed: number;
  /** Seconds from `startFrom` (default the start; from the end counts back). */
  start: number;
  end: number;
  startFrom?: TimeAnchor;
  endFrom?: TimeAnchor;
  /** 0..1: 0 keeps the source, 1 is all new material. */
  variance: number;
}

/** The section [start, end) in samples, or an AudioEditError when it does not fit the source. */
export function sectionOf(frames: number, input: InpaintInput): { start: number; end: number } {
  const at = (seconds: number, from: TimeAnchor | undefined) =>
    Math.round((from === 'end' ? frames / SAMPLE_RATE - seconds : seconds) * SAMPLE_RATE);
  const start = Math.max(0, at(input.start, input.startFrom));
  const end = Math.min(frames, at(input.end, input.endFrom));
  if (start >= frames) throw new AudioEditError('start_time is past the end of the audio', 'start_time');
  if (end - start < Math.round(0.05 * SAMPLE_RATE))
    throw new AudioEditError('end_time must be after start_time, inside the audio', 'end_time');
  return { start, end };
}

/**
 * Repaints a section: new material (the source's tempo, key and bar grid, the
 * request's tags and seed, its chords starting elsewhere in the cycle) blended with the source by `variance`
 * (equal-power), matched to the section's loudness, then crossfaded in over
 * the section's first 40 ms and out over its last 40 ms (equal-power).
 * Every sample outside the section is the source's, unchanged.
 */
export function* inpaintSteps(source: EditSource, input: InpaintInput): Generator<void, EditResult, void> {
  const context = editContext(source, input.tags, input.seed);
  const { style, root, gridStart } = context;
  const [srcL, srcR] = source.channels;
  const n = srcL.length;
  const { start, end } = sectionOf(n, input);
  const length = end - start;
  const left = srcL.slice();
  const right = srcR.slice();
  const meta: RenderMeta = {
    v: 1,
    tags: input.tags,
    seed: input.seed >>> 0,
    lyrics: input.lyrics,
    bpm: style.bpm,
    scale: [...style.scale],
    swing: style.swing,
    root,
    gridStart,
    ...(source.meta?.sung ? { sung: source.meta.sung } : {}),
  };
  const variance = Math.min(1, Math.max(0, input.variance));
  if (variance === 0) return { channels: [left, right], meta, context, renders: [] };
  const plan: RenderPlan = {
    style,
    totalSamples: n,
    seed: input.seed >>> 0,
    lyrics: input.lyrics,
    root,
    gridStart,
    window: { start, length },
    master: { fadeIn: 0, fadeOut: 0 },
    retake: true,
  };
  const sink: { sung?: SungLyric[] } = {};
  const fresh = (yield* renderSteps(plan, sink)) as [Float32Array, Float32Array];
  // The section sings the new take's words; the rest what the source sang there.
  const from = start / SAMPLE_RATE;
  const to = end / SAMPLE_RATE;
  meta.sung = [
    ...(source.meta?.sung ?? []).filter(([, s]) => s < from),
    ...shifted(sink.sung, from),
    ...(source.meta?.sung ?? []).filter(([, s]) => s >= to),
  ];
  const section = [srcL.subarray(start, end), srcR.subarray(start, end)];
  const sourceRms = rmsOf(section, 0, length);
  const freshRms = rmsOf(fresh, 0, length);
  const level = sourceRms > 1e-4 && freshRms > 0 ? sourceRms / freshRms : 1;
  const keep = Math.cos((variance * Math.PI) / 2);
  const take = Math.sin((variance * Math.PI) / 2) * level;
  const painted = [0, 1].map((c) => {
    const src = section[c] as Float32Array;
    const add = fresh[c] as Float32Array;
    const out = new Float32Array(length);
    for (let i = 0; i < length; i++) out[i] = keep * (src[i] as number) + take * (add[i] as number);
    return out;
  }) as [Float32Array, Float32Array];
  // No louder than the source at its loudest (nor than -1 dBFS for a silent source).
  const sourcePeak = peakOf(source.channels);
  const limit = sourcePeak > 0.01 ? sourcePeak : 0.891;
  const paintedPeak = peakOf(painted);
  if (paintedPeak > limit)
    for (const ch of painted)
      for (let i = 0; i < length; i++) ch[i] = (ch[i] as number) * (limit / paintedPeak);
  yield;
  const fade = Math.max(1, Math.min(Math.round(REPAINT_FADE_SECONDS * SAMPLE_RATE), Math.floor(length / 4)));
  const outs = [left, right];
  for (let c = 0; c < 2; c++) {
    const src = section[c] as Float32Array;
    const paint = painted[c] as Float32Array;
    const out = outs[c] as Float32Array;
    for (let i = 0; i < length; i++) {
      const edge = Math.min(i, length - 1 - i);
      if (edge >= fade) out[start + i] = paint[i] as number;
      else {
        const phi = ((edge + 0.5) / fade) * (Math.PI / 2);
        out[start + i] = (src[i] as number) * Math.cos(phi) + (paint[i] as number) * Math.sin(phi);
      }
    }
  }
  return { channels: [left, right], meta, context, renders: [{ plan, at: start }] };
}

/** Reads fal-style times: "start" or "end" (anything else is the start). */
export const anchor = (value: unknown): TimeAnchor => (value === 'end' ? 'end' : 'start');

/** Decodes and extends in one go (tests and scripts). */
export async function outpaint(bytes: Uint8Array, input: OutpaintInput): Promise<EditResult> {
  const steps = outpaintSteps(await decodeSource(bytes), input);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Decodes and repaints in one go (tests and scripts). */
export async function inpaint(bytes: Uint8Array, input: InpaintInput): Promise<EditResult> {
  const steps = inpaintSteps(await decodeSource(bytes), input);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
