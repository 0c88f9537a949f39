import type { PcmSource } from './pcm';

/**
 * Taps on each side of an output sample, in samples of the lower of the two
 * rates. With the Kaiser window below the filter is down 60 dB about 1.6 kHz
 * past the lower Nyquist frequency and flat to about 1.6 kHz below it (at
 * 44.1 kHz: flat to ~20.4 kHz), so images and aliases stay out of the
 * audible band.
 */
const HALF_WIDTH = 24;
const KAISER_BETA = 5.65;
/** Phases of the filter table; ratios needing more use the nearest phase. */
const MAX_PHASES = 4096;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

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
 * `source` at `rate`: band-limited (windowed-sinc, polyphase) resampling,
 * computed as samples are read. The same source when the rates already match.
 * The output has `round(frames × rate / sourceRate)` frames and is aligned
 * with the input (no delay).
 */
export function resample(source: PcmSource, rate: number): PcmSource {
  const from = source.sampleRate;
  if (from === rate) return source;
  const divisor = gcd(from, rate);
  // Output n sits at input position n × step / phases.
  let phases = rate / divisor;
  let step = from / divisor;
  if (phases > MAX_PHASES) {
    phases = MAX_PHASES;
    step = (from / rate) * MAX_PHASES;
  }
  // Cut off at the lower rate's Nyquist frequency, in cycles per input sample.
  const cutoff = 0.5 * Math.min(1, rate / from);
  const half = Math.ceil(HALF_WIDTH * Math.max(1, from / rate));
  // Rows padded with zeros to a multiple of 4 for the unrolled loop below.
  const width = 2 * half;
  const taps = Math.ceil(width / 4) * 4;
  const table = new Float32Array(phases * taps);
  const windowNorm = besselI0(KAISER_BETA);
  for (let p = 0; p < phases; p++) {
    const fraction = p / phases;
    let sum = 0;
    for (let k = 0; k < width; k++) {
      // Distance of input sample (floor + k - half + 1) from the output position.
      const x = k - half + 1 - fraction;
      const arg = 2 * cutoff * x;
      const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
      const r = x / half;
      const window = Math.abs(r) >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / windowNorm;
      const h = sinc * window;
      table[p * taps + k] = h;
      sum += h;
    }
    // Unity gain at DC for every phase (no ripple from the phase rounding).
    for (let k = 0; k < width; k++) table[p * taps + k] = (table[p * taps + k] as number) / sum;
  }

  // The nearest table phase of output n, as a count of 1/phases input samples (exact for rational ratios).
  const ticks = (n: number) => Math.round(n * step);
  const exact = Number.isInteger(step);

  let buffer = new Float32Array(0);
  return {
    sampleRate: rate,
    channels: source.channels,
    frames: Math.round((source.frames * rate) / from),
    read(channel, start, into) {
      if (into.length === 0) return;
      const first = Math.floor(ticks(start) / phases) - half + 1;
      const last = Math.floor(ticks(start + into.length - 1) / phases) - half + taps;
      const needed = last - first + 1;
      if (buffer.length < needed) buffer = new Float32Array(needed);
      const input = buffer.subarray(0, needed);
      source.read(channel, first, input);
      let at = ticks(start);
      for (let i = 0; i < into.length; i++) {
        const index = Math.floor(at / phases);
        const base = index - half + 1 - first;
        const row = (at - index * phases) * taps;
        let a0 = 0;
        let a1 = 0;
        let a2 = 0;
        let a3 = 0;
        for (let k = 0; k < taps; k += 4) {
          a0 += (input[base + k] as number) * (table[row + k] as number);
          a1 += (input[base + k + 1] as number) * (table[row + k + 1] as number);
          a2 += (input[base + k + 2] as number) * (table[row + k + 2] as number);
          a3 += (input[base + k + 3] as number) * (table[row + k + 3] as number);
        }
        into[i] = a0 + a1 + a2 + a3;
        at = exact ? at + step : ticks(start + i + 1);
      }
    },
  };
}
