/**
 * A track's loudness as streaming services measure it (ITU-R BS.1770-4, the
 * measure EBU R128 uses): integrated loudness in LUFS and true peak in dBTP,
 * and the gain that brings the players' copy to -14 LUFS without pushing its
 * true peak past -1 dBTP.
 *
 * Integrated loudness: each channel K-weighted (the two biquads of BS.1770,
 * derived for the file's own sample rate), mean squares over 400 ms blocks
 * that overlap by 75 % (a new block every 100 ms), channels summed with their
 * weights (1 for left, right and centre, 1.41 for the surrounds, 0 for LFE),
 * then the blocks gated twice: at -70 LUFS (absolute) and at 10 LU below the
 * loudness of the blocks that passed the first gate (relative).
 *
 * True peak (BS.1770-4, Annex 2): the samples and the points between them,
 * found by oversampling 4× below 96 kHz (2× to 192 kHz) with a windowed-sinc
 * interpolator, as an absolute maximum in dB.
 *
 * One pass over the audio, 100 ms at a time, so memory does not grow with the
 * track's length; {@link loudnessSteps} lets a caller give other work a turn
 * between steps.
 */
import { STREAM_MAX_TRUE_PEAK_DBTP, STREAM_TARGET_LUFS } from '@tunesmith/shared/ownership';
import type { PcmSource } from './pcm';

export interface LoudnessMeasurement {
  /** Integrated loudness (LUFS); null when no 400 ms block is above -70 LUFS (silence, or shorter than a block). */
  integratedLufs: number | null;
  /** True peak (dBTP), never below {@link TRUE_PEAK_FLOOR_DBTP}. */
  truePeakDbtp: number;
}

/** What digital silence reads as (its true peak would be -∞, which no record can hold). */
export const TRUE_PEAK_FLOOR_DBTP = -120;

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
/** BS.1770's offset, so that a 997 Hz sine at 0 dBFS in one front channel reads -3.01 LUFS. */
const LOUDNESS_OFFSET = -0.691;

/** Biquad coefficients, a0 normalised to 1. */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * The two stages of BS.1770's K-weighting for `sampleRate`: a high shelf
 * (+4 dB above ~1.7 kHz, the head's effect) and a high pass (the RLB curve).
 * The analogue prototypes behind the standard's 48 kHz coefficients, mapped by
 * the bilinear transform, so 44.1 kHz and other rates weigh as 48 kHz does.
 */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  const shelfF0 = 1681.974450955533;
  const shelfGainDb = 3.999843853973347;
  const shelfQ = 0.7071752369554196;
  let k = Math.tan((Math.PI * shelfF0) / sampleRate);
  const vh = 10 ** (shelfGainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / shelfQ + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / shelfQ + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / shelfQ + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / shelfQ + k * k) / a0,
  };
  const passF0 = 38.13547087602444;
  const passQ = 0.5003270373238773;
  k = Math.tan((Math.PI * passF0) / sampleRate);
  a0 = 1 + k / passQ + k * k;
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / passQ + k * k) / a0,
  };
  return [shelf, highPass];
}

/** BS.1770's channel weights, by the WAV channel order (L, R, C, LFE, Ls, Rs, …). */
export function channelWeight(channel: number, channels: number): number {
  if (channels < 6) return channel < 3 ? 1 : 1.41;
  if (channel === 3) return 0;
  return channel < 3 ? 1 : 1.41;
}

/** Oversampling for the true peak: 4× below 96 kHz, 2× to 192 kHz, none above. */
export const oversamplingFactor = (sampleRate: number) =>
  sampleRate < 96_000 ? 4 : sampleRate < 192_000 ? 2 : 1;

/**
 * Input samples on each side of an interpolated point: 12 taps a phase, the length of ITU-R
 * BS.1770-4's reference interpolator (48 taps in 4 phases).
 */
const INTERPOLATION_HALF_TAPS = 6;

/** Modified Bessel function of the first kind, order 0 (series). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

/**
 * Taps that interpolate the points between samples: for phase p of `factor`,
 * the point p / factor after sample n is Σ taps[p][j] × x[n - H + 1 + j].
 * Kaiser-windowed sinc, each phase scaled to unit gain at DC.
 */
function interpolationTaps(factor: number): Float64Array[] {
  const half = INTERPOLATION_HALF_TAPS;
  const beta = 6;
  const phases: Float64Array[] = [];
  for (let p = 1; p < factor; p++) {
    const t = p / factor;
    const taps = new Float64Array(2 * half);
    let sum = 0;
    for (let j = 0; j < 2 * half; j++) {
      // Distance from the point to input sample n - half + 1 + j.
      const d = t + half - 1 - j;
      const sinc = d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d);
      const r = d / half;
      const window = Math.abs(r) >= 1 ? 0 : besselI0(beta * Math.sqrt(1 - r * r)) / besselI0(beta);
      taps[j] = sinc * window;
      sum += taps[j] as number;
    }
    for (let j = 0; j < taps.length; j++) taps[j] = (taps[j] as number) / sum;
    phases.push(taps);
  }
  return phases;
}

/** One channel's running state: filter memory, the interpolator's window, its peak. */
class ChannelMeter {
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  private z1 = 0;
  private z2 = 0;
  /** The interpolator's reach (2 × half taps) less one sample of the last step, then this step's samples. */
  private readonly window: Float64Array;
  private readonly reach = 2 * INTERPOLATION_HALF_TAPS;
  /** The most an interpolated point can exceed its window's largest sample by (Σ|taps| of a phase). */
  private readonly overshoot: number;
  peak = 0;

  constructor(
    private readonly stages: [Biquad, Biquad],
    private readonly taps: Float64Array[],
    step: number,
  ) {
    this.window = new Float64Array(this.reach - 1 + step);
    this.overshoot = Math.max(1, ...taps.map((row) => row.reduce((sum, t) => sum + Math.abs(t), 0)));
  }

  /** Filters `samples`, returns their K-weighted sum of squares, and follows the true peak. */
  feed(samples: Float32Array, count: number): number {
    const [s, h] = this.stages;
    let { x1, x2, y1, y2, z1, z2 } = this;
    let energy = 0;
    const window = this.window;
    const kept = this.reach - 1;
    let loudest = 0;
    for (let i = 0; i < kept; i++) {
      const m = Math.abs(window[i] as number);
      if (m > loudest) loudest = m;
    }
    for (let i = 0; i < count; i++) {
      const x = samples[i] as number;
      // Stage 1 (shelf) then stage 2 (high pass), direct form I.
      const y = s.b0 * x + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2;
      x2 = x1;
      x1 = x;
      const z = h.b0 * y + h.b1 * y1 + h.b2 * y2 - h.a1 * z1 - h.a2 * z2;
      y2 = y1;
      y1 = y;
      z2 = z1;
      z1 = z;
      energy += z * z;
      window[kept + i] = x;
      const m = x < 0 ? -x : x;
      if (m > loudest) loudest = m;
    }
    Object.assign(this, { x1, x2, y1, y2, z1, z2 });

    let peak = this.peak;
    // Points between samples can only beat the peak where the samples around them come close to it:
    // first for the whole step, then for each run of PEAK_RUN samples.
    if (loudest * this.overshoot > peak) {
      const taps = this.taps;
      const reach = this.reach;
      const overshoot = this.overshoot;
      for (let from = 0; from < count; from += PEAK_RUN) {
        const to = Math.min(count, from + PEAK_RUN);
        // The run's points and samples read window[from .. to - 1 + reach).
        let near = 0;
        for (let k = from; k < to - 1 + reach; k++) {
          const w = window[k] as number;
          const m = w < 0 ? -w : w;
          if (m > near) near = m;
        }
        if (near * overshoot <= peak) continue;
        for (let i = from; i < to; i++) {
          const x = window[kept + i] as number;
          const m = x < 0 ? -x : x;
          if (m > peak) peak = m;
          // The points after sample i - half + 1... reach back to i - reach + 1: window[i .. i + reach).
          for (let p = 0; p < taps.length; p++) {
            const row = taps[p] as Float64Array;
            let v = 0;
            for (let j = 0; j < reach; j++) v += (row[j] as number) * (window[i + j] as number);
            const a = v < 0 ? -v : v;
            if (a > peak) peak = a;
          }
        }
      }
      this.peak = peak;
    }
    window.copyWithin(0, count, count + kept);
    return energy;
  }
}

/** Samples whose interpolated points are skipped together when none of them can beat the peak so far. */
const PEAK_RUN = 32;

const lufs = (meanSquare: number) => LOUDNESS_OFFSET + 10 * Math.log10(meanSquare);

/**
 * Measures `source` one 100 ms step at a time (yielding after each), returning
 * the measurement at the end. See {@link measureLoudness}.
 */
export function* loudnessSteps(source: PcmSource): Generator<void, LoudnessMeasurement, void> {
  const { sampleRate, channels, frames } = source;
  const step = Math.max(1, Math.round(sampleRate / 10));
  const stages = kWeighting(sampleRate);
  const taps = interpolationTaps(oversamplingFactor(sampleRate));
  const meters = Array.from({ length: channels }, () => new ChannelMeter(stages, taps, step));
  const weights = Array.from({ length: channels }, (_, c) => channelWeight(c, channels));
  const buffer = new Float32Array(step);
  // Each channel's sample peak first: the true peak is at least that, so from the start the
  // interpolator skips every run of samples too far below it to reach it.
  for (let c = 0; c < channels; c++) {
    let loudest = 0;
    for (let start = 0; start < frames; start += step) {
      const view = start + step <= frames ? buffer : buffer.subarray(0, frames - start);
      source.read(c, start, view);
      for (let i = 0; i < view.length; i++) {
        const x = view[i] as number;
        const m = x < 0 ? -x : x;
        if (m > loudest) loudest = m;
      }
      yield;
    }
    (meters[c] as ChannelMeter).peak = loudest;
  }
  // Each 100 ms step's weighted mean square; a block is four steps in a row.
  const steps: number[] = [];
  // The interpolator runs half its taps behind, so the audio is followed by that much silence.
  const tail = INTERPOLATION_HALF_TAPS;
  for (let start = 0; start < frames + tail; start += step) {
    const count = Math.min(step, frames + tail - start);
    const inAudio = Math.max(0, Math.min(count, frames - start));
    let weighted = 0;
    for (let c = 0; c < channels; c++) {
      const view = count === step ? buffer : buffer.subarray(0, count);
      source.read(c, start, view);
      const energy = (meters[c] as ChannelMeter).feed(view, count);
      weighted += (weights[c] as number) * energy;
    }
    if (inAudio === step) steps.push(weighted / step);
    yield;
  }

  const blocks: number[] = [];
  for (let j = 0; j + 4 <= steps.length; j++)
    blocks.push(
      ((steps[j] as number) +
        (steps[j + 1] as number) +
        (steps[j + 2] as number) +
        (steps[j + 3] as number)) /
        4,
    );
  const aboveAbsolute = blocks.filter((z) => z > 0 && lufs(z) > ABSOLUTE_GATE_LUFS);
  let integratedLufs: number | null = null;
  if (aboveAbsolute.length > 0) {
    const relativeGate = lufs(mean(aboveAbsolute)) + RELATIVE_GATE_LU;
    const gated = aboveAbsolute.filter((z) => lufs(z) > relativeGate);
    integratedLufs = lufs(mean(gated));
  }
  const peak = Math.max(0, ...meters.map((m) => m.peak));
  const truePeakDbtp =
    peak > 0 ? Math.max(TRUE_PEAK_FLOOR_DBTP, 20 * Math.log10(peak)) : TRUE_PEAK_FLOOR_DBTP;
  return { integratedLufs, truePeakDbtp };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** {@link loudnessSteps} all at once. */
export function measureLoudness(source: PcmSource): LoudnessMeasurement {
  const steps = loudnessSteps(source);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The gain (dB) that brings the players' copy to -14 LUFS by gain alone,
 * lowered so its true peak stays at or below -1 dBTP: `min(-14 - I, -1 - TP)`.
 * Silence (no integrated loudness) gets 0 dB, capped the same way. Rounded
 * down to 0.01 dB, so the gain applied is the gain recorded and never more.
 */
export function streamGainDb(measurement: LoudnessMeasurement): number {
  const towardsTarget =
    measurement.integratedLufs === null ? 0 : STREAM_TARGET_LUFS - measurement.integratedLufs;
  const underPeak = STREAM_MAX_TRUE_PEAK_DBTP - measurement.truePeakDbtp;
  return Math.floor(Math.min(towardsTarget, underPeak) * 100) / 100;
}

const hundredths = (x: number) => Math.round(x * 100) / 100;

/** A track's loudness record: the measurement (to 0.01) and the stream's gain. */
export function loudnessRecord(measurement: LoudnessMeasurement): {
  integratedLufs: number | null;
  truePeakDbtp: number;
  streamGainDb: number;
} {
  return {
    integratedLufs: measurement.integratedLufs === null ? null : hundredths(measurement.integratedLufs),
    truePeakDbtp: hundredths(measurement.truePeakDbtp),
    streamGainDb: streamGainDb(measurement),
  };
}

/** `source` with every sample multiplied by `gainDb` (in dB), computed as it is read. */
export function withGain(source: PcmSource, gainDb: number): PcmSource {
  if (gainDb === 0) return source;
  const factor = 10 ** (gainDb / 20);
  const gained: GainedPcm = {
    sampleRate: source.sampleRate,
    channels: source.channels,
    frames: source.frames,
    source,
    gainDb,
    read(channel, start, into) {
      source.read(channel, start, into);
      for (let i = 0; i < into.length; i++) into[i] = (into[i] as number) * factor;
    },
  };
  return gained;
}

/** What {@link withGain} makes: it names its source and gain, so an encoder elsewhere can apply the gain itself. */
export interface GainedPcm extends PcmSource {
  readonly source: PcmSource;
  readonly gainDb: number;
}

/** The audio under any gain {@link withGain} put on it, and that gain (0 dB for audio without). */
export function gainOf(pcm: PcmSource): { source: PcmSource; gainDb: number } {
  const gained = pcm as Partial<GainedPcm>;
  return gained.source && typeof gained.gainDb === 'number'
    ? { source: gained.source, gainDb: gained.gainDb }
    : { source: pcm, gainDb: 0 };
}
