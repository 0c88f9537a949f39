/**
 * Tempo and key of a track, from its samples.
 *
 * The audio is mixed to one channel and decimated to about 12 kHz (a box
 * filter of the decimation's length: its zeros sit on the frequencies that
 * would fold onto the low notes), which is all either measure needs.
 *
 * - Tempo: an onset-strength envelope (the rises of log-compressed energy in
 *   third-octave bands of 512-point spectra, ~94 frames a second, its local
 *   mean removed), its autocorrelation, and a comb over 40–240 BPM that sums
 *   the autocorrelation at the first multiples of each candidate period (with
 *   a mild preference for tempos near 120), refined over many multiples so a
 *   whole number of BPM is exact. Which metrical level is the beat (the comb's
 *   tempo, its halves, doubles, thirds…) is what the harmony says: chords
 *   change on bar lines, so the beat is the level whose bars of four beats
 *   hold a chord change at one place far more than at the next (a level twice
 *   as fast finds it every other bar, one half as fast at two places of
 *   four), at whichever phase within a beat shows it best. Where the harmony
 *   is too even to say, the fastest level whose onsets are at least 60% as
 *   strong as the strongest level's.
 * - Key: a chromagram (8192-point spectra, bins from 60 Hz to 2 kHz folded to
 *   12 pitch classes), summed over the track and correlated with the 24
 *   rotations of Krumhansl and Kessler's major and minor key profiles. A
 *   scale fits its relative, dominant and subdominant keys nearly as well as
 *   its own; of the best key and those, the one whose tonic chord the song's
 *   first bar is (a triad or a seventh chord: songs mostly open on their
 *   tonic) wins, else the best.
 *
 * `confidence` (0..1) is the lower of the two measures': how strongly the
 * onsets repeat at the chosen beat, and how far the best key's correlation
 * stands above the next key's.
 */
import { keyName } from '@tunesmith/shared/musical-keys';
import { RealFft } from './fft';
import type { PcmSource } from './pcm';

/** A track's tempo and key as stored: whole BPM, the key in the stored spelling, and how sure both are. */
export interface TempoAndKey {
  bpm: number;
  key: string;
  confidence: number;
}

/** The rate the analysis runs at (about: the source's rate over a whole factor). */
const ANALYSIS_RATE = 12_000;
const BPM_LOW = 40;
/** Less audio than this holds too few beats (three at 40 BPM) to tell a tempo. */
const MIN_SECONDS = 4;
const BPM_HIGH = 240;
/** Frames read from the source at a time. */
const READ_BLOCK = 1 << 15;

const ONSET_FFT = 512;
const ONSET_HOP = 128;
const CHROMA_FFT = 8192;
const CHROMA_LOW_HZ = 60;
const CHROMA_HIGH_HZ = 2000;
/**
 * The finer chromagram whose changes mark the bar lines: from 300 Hz up, above
 * the bass, whose walking lines change notes every beat within a chord.
 */
const HARMONY_FFT = 2048;
const HARMONY_LOW_HZ = 300;

/**
 * Key profiles (the weight of each scale step above the tonic): Krumhansl and
 * Kessler's probe-tone ratings (1982); Temperley's corpus profiles did no
 * better on the bench's songs.
 */
const MAJOR_PROFILE = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR_PROFILE = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

/** The samples mixed to mono at the analysis rate. */
export interface MonoSignal {
  samples: Float32Array;
  rate: number;
}

/** Mixes and decimates `pcm` to about {@link ANALYSIS_RATE}, yielding between blocks. */
export function* monoSteps(pcm: PcmSource): Generator<void, MonoSignal, void> {
  const factor = Math.max(1, Math.round(pcm.sampleRate / ANALYSIS_RATE));
  const length = Math.floor(pcm.frames / factor);
  const samples = new Float32Array(length);
  const block = READ_BLOCK * factor;
  const buffer = new Float32Array(block);
  const gain = 1 / (factor * Math.max(1, pcm.channels));
  for (let start = 0; start < length * factor; start += block) {
    const n = Math.min(block, length * factor - start);
    const into = n === block ? buffer : buffer.subarray(0, n);
    const first = start / factor;
    for (let c = 0; c < pcm.channels; c++) {
      pcm.read(c, start, into);
      for (let i = 0, o = first; i < n; i += factor, o++) {
        let sum = 0;
        for (let j = 0; j < factor; j++) sum += into[i + j] as number;
        samples[o] = (samples[o] as number) + sum * gain;
      }
    }
    yield;
  }
  return { samples, rate: pcm.sampleRate / factor };
}

function hann(size: number): Float32Array {
  const w = new Float32Array(size);
  for (let i = 0; i < size; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  return w;
}

/** The onset-strength envelope and its frame rate. */
export function* onsetSteps(
  signal: MonoSignal,
): Generator<void, { envelope: Float32Array; rate: number }, void> {
  const { samples } = signal;
  const fft = new RealFft(ONSET_FFT);
  const window = hann(ONSET_FFT);
  const frame = new Float64Array(ONSET_FFT);
  const bins = ONSET_FFT / 2 + 1;
  const power = new Float64Array(bins);
  // Bands a third of an octave wide (one bin at the bottom), so a kick's few low bins count as much as a hat's many.
  const edges = [1];
  for (let hz = 60; ; hz *= 2 ** (1 / 3)) {
    const bin = Math.min(bins, Math.round((hz * ONSET_FFT) / signal.rate));
    if (bin > (edges[edges.length - 1] as number)) edges.push(bin);
    if (bin >= bins) break;
  }
  const bands = edges.length - 1;
  let previous = new Float64Array(bands);
  let current = new Float64Array(bands);
  const frames = Math.max(0, Math.floor((samples.length - ONSET_FFT) / ONSET_HOP) + 1);
  const envelope = new Float32Array(frames);
  // A full-scale sine has power (N/4)²; compressed so quiet and loud passages count alike.
  const scale = 1000 * (4 / ONSET_FFT) ** 2;
  for (let f = 0; f < frames; f++) {
    const at = f * ONSET_HOP;
    for (let i = 0; i < ONSET_FFT; i++) frame[i] = (samples[at + i] as number) * (window[i] as number);
    fft.power(frame, power);
    let flux = 0;
    for (let b = 0; b < bands; b++) {
      const lo = edges[b] as number;
      const hi = edges[b + 1] as number;
      let sum = 0;
      for (let k = lo; k < hi; k++) sum += power[k] as number;
      const v = Math.log1p((scale * sum) / (hi - lo));
      current[b] = v;
      const rise = v - (previous[b] as number);
      if (rise > 0 && f > 0) flux += rise;
    }
    envelope[f] = flux;
    [previous, current] = [current, previous];
    if (f % 2048 === 2047) yield;
  }
  // Local mean removed (half a second each side), negatives dropped: only what stands out is an onset.
  const rate = signal.rate / ONSET_HOP;
  const reach = Math.max(1, Math.round(rate * 0.5));
  const prefix = new Float64Array(frames + 1);
  for (let i = 0; i < frames; i++) prefix[i + 1] = (prefix[i] as number) + (envelope[i] as number);
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    const lo = Math.max(0, i - reach);
    const hi = Math.min(frames, i + reach + 1);
    const mean = ((prefix[hi] as number) - (prefix[lo] as number)) / (hi - lo);
    out[i] = Math.max(0, (envelope[i] as number) - mean);
  }
  return { envelope: out, rate };
}

/** Autocorrelation of `x` for lags 0..maxLag, each divided by its number of products. */
function autocorrelation(x: Float32Array, maxLag: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(maxLag + 1);
  for (let lag = 0; lag <= maxLag && lag < n; lag++) {
    let sum = 0;
    for (let i = 0; i + lag < n; i++) sum += (x[i] as number) * (x[i + lag] as number);
    out[lag] = sum / (n - lag);
  }
  return out;
}

/** Linear interpolation into `a` at a fractional index (0 past its end). */
function at(a: Float64Array, index: number): number {
  const i = Math.floor(index);
  if (i < 0 || i + 1 >= a.length) return 0;
  const t = index - i;
  return (a[i] as number) * (1 - t) + (a[i + 1] as number) * t;
}

/** The comb's value at a period: the mean autocorrelation at its first `multiples` multiples. */
function comb(acf: Float64Array, period: number, multiples: number): number {
  let sum = 0;
  let count = 0;
  for (let m = 1; m <= multiples && m * period < acf.length - 1; m++) {
    sum += at(acf, m * period);
    count++;
  }
  return count ? sum / count : 0;
}

/** Tempo in BPM and how strongly the onsets repeat at its beat (0..1). */
export function estimateTempo(
  envelope: Float32Array,
  rate: number,
  harmony?: ChromaFrames,
): { bpm: number; strength: number } {
  const longest = (60 / BPM_LOW) * rate;
  // Refining uses up to eight seconds of multiples.
  const maxLag = Math.min(envelope.length - 1, Math.ceil(Math.max(longest * 4, 8 * rate)) + 2);
  if (maxLag < (60 / BPM_HIGH) * rate * 2) return { bpm: 0, strength: 0 };
  const acf = autocorrelation(envelope, maxLag);
  const energy = acf[0] as number;
  if (!(energy > 0)) return { bpm: 0, strength: 0 };
  const score = (bpm: number) => comb(acf, (60 * rate) / bpm, 4);
  // The comb's best over a coarse grid.
  let best = BPM_LOW;
  let bestScore = -Infinity;
  for (let bpm = BPM_LOW; bpm <= BPM_HIGH; bpm += 0.25) {
    const s = score(bpm) * prior(bpm);
    if (s > bestScore) {
      bestScore = s;
      best = bpm;
    }
  }
  const base = refine(acf, rate, best);
  const levels = METRICAL_RATIOS.map((k) => base * k);
  const inRange = (bpm: number) => bpm <= BPM_HIGH * 1.01 && bpm >= BPM_LOW * 0.99;
  // Without harmony to go by: of the tempo's halves and doubles, the fastest whose onsets, at their
  // best phase, are nearly as strong as the strongest level's (the bar's, mostly).
  const octaves = [4, 2, 1, 0.5, 0.25].map((k) => base * k);
  const strengths = octaves.map((bpm) => pulse(envelope, (60 * rate) / bpm));
  const strongest = Math.max(...strengths);
  let beat = octaves.find(
    (bpm, i) => inRange(bpm) && (strengths[i] as number) >= strongest * PULSE_TOLERANCE,
  );
  if (harmony) {
    // Chords change on bar lines: of the levels, the one whose bars of four beats hold a change at one
    // place far more than at the other three (a level twice as fast finds it every other bar, one half
    // as fast at two places of four). The beats start where the onsets say, or up to a beat later:
    // where notes fall on every eighth alike (a bell, no drums), the onsets' best phase may be the
    // off-beat, which splits each chord change over two places of the bar.
    const sums = prefixSums(harmony.frames);
    const bars = levels.map((bpm) => {
      if (!inRange(bpm)) return -Infinity;
      const period = (60 * rate) / bpm;
      const phase = pulseAt(envelope, period).phase / rate;
      const seconds = 60 / bpm;
      // One try per chroma frame across the beat.
      const shifts = Math.max(1, Math.round(seconds * harmony.rate));
      let contrast = 0;
      for (let k = 0; k < shifts; k++)
        contrast = Math.max(
          contrast,
          barContrast(sums, harmony.rate, seconds, phase + (k * seconds) / shifts),
        );
      return contrast;
    });
    const top = Math.max(...bars);
    if (top > BAR_CONTRAST_MIN) beat = levels[bars.indexOf(top)];
  }
  const chosen = { bpm: beat ?? base };
  const bpm = refine(acf, rate, chosen.bpm);
  return { bpm, strength: Math.max(0, Math.min(1, comb(acf, (60 * rate) / bpm, 4) / energy)) };
}

/**
 * The levels the beat is looked for at, as ratios to the comb's tempo: halves
 * and doubles, and thirds and three-halves (a comb can lock onto a triplet
 * relation of the beat when the onsets are sparse).
 */
const METRICAL_RATIOS = [4, 3, 2, 1.5, 4 / 3, 1, 0.75, 2 / 3, 0.5, 1 / 3, 0.25];

/**
 * How much the harmony must change at one place of the bar more than at the
 * next (a ratio) for the bars to decide the beat; below it the onsets do.
 */
const BAR_CONTRAST_MIN = 2.5;

/** How close to the strongest level's onsets a faster level's must come to be the beat. */
const PULSE_TOLERANCE = 0.6;

/**
 * The mean onset strength on a grid of `period` frames at its best phase (each
 * point the strongest of its frame and the two beside it, for timing that wavers).
 */
function pulse(envelope: Float32Array, period: number): number {
  return pulseAt(envelope, period).strength;
}

/** {@link pulse} and the phase (frames) it is found at. */
function pulseAt(envelope: Float32Array, period: number): { strength: number; phase: number } {
  let best = 0;
  let bestPhase = 0;
  for (let phase = 0; phase < period; phase++) {
    let sum = 0;
    let n = 0;
    for (let x = phase; x + 1 < envelope.length; x += period) {
      const i = Math.round(x);
      sum += Math.max(envelope[i - 1] ?? 0, envelope[i] as number, envelope[i + 1] as number);
      n++;
    }
    if (n && sum / n > best) {
      best = sum / n;
      bestPhase = phase;
    }
  }
  return { strength: best, phase: bestPhase };
}

/** A mild preference for tempos near 120 BPM (a log-normal of two octaves' spread). */
const prior = (bpm: number) => Math.exp(-0.5 * (Math.log2(bpm / 120) / 2) ** 2);

/** The tempo near `bpm` (±3%) whose period and its multiples up to the autocorrelation's end line up best. */
function refine(acf: Float64Array, rate: number, bpm: number): number {
  let best = bpm;
  let bestScore = -Infinity;
  for (let b = bpm * 0.97; b <= bpm * 1.03; b += 0.01) {
    const period = (60 * rate) / b;
    const s = comb(acf, period, Math.floor((acf.length - 2) / period));
    if (s > bestScore) {
      bestScore = s;
      best = b;
    }
  }
  return best;
}

/** Chroma frames: 12 values (pitch classes from C) per frame, and the frames' rate. */
export interface ChromaFrames {
  frames: Float64Array[];
  rate: number;
}

/** The chromagram: spectra of `size` points every `hop` samples, bins from `lowHz` to 2 kHz folded to 12 pitch classes. */
export function* chromaSteps(
  signal: MonoSignal,
  size: number,
  hop: number,
  lowHz: number,
): Generator<void, ChromaFrames, void> {
  const { samples, rate } = signal;
  const fft = new RealFft(size);
  const window = hann(size);
  const frame = new Float64Array(size);
  const power = new Float64Array(size / 2 + 1);
  // Each bin's pitch class and weight: full at the pitch, none half a semitone away.
  const first = Math.ceil((lowHz * size) / rate);
  const last = Math.min(size / 2, Math.floor((CHROMA_HIGH_HZ * size) / rate));
  const classes: number[] = [];
  const weights: number[] = [];
  for (let k = first; k <= last; k++) {
    const midi = 69 + 12 * Math.log2((k * rate) / size / 440);
    const nearest = Math.round(midi);
    classes.push(((nearest % 12) + 12) % 12);
    weights.push(Math.max(0, 1 - 2 * Math.abs(midi - nearest)));
  }
  const frames: Float64Array[] = [];
  for (let at = 0; at + size <= samples.length; at += hop) {
    for (let i = 0; i < size; i++) frame[i] = (samples[at + i] as number) * (window[i] as number);
    fft.power(frame, power);
    const chroma = new Float64Array(12);
    for (let j = 0; j < classes.length; j++) {
      const c = classes[j] as number;
      chroma[c] = (chroma[c] as number) + (weights[j] as number) * Math.sqrt(power[first + j] as number);
    }
    frames.push(chroma);
    if (frames.length % 64 === 0) yield;
  }
  return { frames, rate: rate / hop };
}

/**
 * The chroma of the song's first bar (`bar` seconds from the first frame with
 * a tenth of the median frame's energy): songs mostly open on their tonic chord.
 */
function openingOf(chroma: ChromaFrames, bar: number): Float64Array {
  const energy = chroma.frames.map((f) => f.reduce((n, v) => n + v, 0));
  const median = [...energy].sort((a, b) => a - b)[Math.floor(energy.length / 2)] ?? 0;
  const first = Math.max(
    0,
    energy.findIndex((e) => e >= median * 0.1),
  );
  return sumOf(chroma.frames.slice(first, first + Math.max(1, Math.round(bar * chroma.rate))));
}

/** The chroma frames summed. */
function sumOf(frames: Float64Array[]): Float64Array {
  const out = new Float64Array(12);
  for (const f of frames) for (let c = 0; c < 12; c++) out[c] = (out[c] as number) + (f[c] as number);
  return out;
}

/** Running sums of chroma frames: entry `f * 12 + c` is pitch class `c` summed over the frames before `f`. */
function prefixSums(frames: Float64Array[]): { sums: Float64Array; frames: number } {
  const sums = new Float64Array((frames.length + 1) * 12);
  frames.forEach((frame, f) => {
    for (let c = 0; c < 12; c++) sums[(f + 1) * 12 + c] = (sums[f * 12 + c] as number) + (frame[c] as number);
  });
  return { sums, frames: frames.length };
}

/**
 * How much more the harmony changes at one place of a four-beat bar than at
 * the other three, for beats of `beat` seconds from `phase` seconds: the
 * chroma summed over each beat, the cosine distance between neighbours,
 * averaged by place in the bar; the largest place's over the next largest.
 */
function barContrast(
  chroma: { sums: Float64Array; frames: number },
  frameRate: number,
  beat: number,
  phase: number,
): number {
  const { sums, frames } = chroma;
  const change = [0, 0, 0, 0];
  const count = [0, 0, 0, 0];
  const previous = new Float64Array(12);
  const current = new Float64Array(12);
  let previousNorm = 0;
  let b = 0;
  for (let start = phase; (start + beat) * frameRate <= frames; start += beat, b++) {
    const from = Math.round(start * frameRate);
    const to = Math.max(from + 1, Math.round((start + beat) * frameRate));
    let norm = 0;
    let dot = 0;
    for (let c = 0; c < 12; c++) {
      const v = (sums[to * 12 + c] as number) - (sums[from * 12 + c] as number);
      current[c] = v;
      norm += v * v;
      dot += v * (previous[c] as number);
    }
    norm = Math.sqrt(norm);
    if (b > 0 && norm > 0 && previousNorm > 0) {
      change[b % 4] = (change[b % 4] as number) + (1 - dot / (norm * previousNorm));
      count[b % 4] = (count[b % 4] as number) + 1;
    }
    previous.set(current);
    previousNorm = norm;
  }
  if (count.some((n) => n < 2)) return 0;
  const mean = change.map((c, i) => c / (count[i] as number));
  const top = Math.max(...mean);
  const second = [...mean].sort((a, b) => b - a)[1] as number;
  return top / (second + 0.01);
}

function correlation(a: ArrayLike<number>, b: ArrayLike<number>, shift: number): number {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < 12; i++) {
    ma += a[i] as number;
    mb += b[i] as number;
  }
  ma /= 12;
  mb /= 12;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < 12; i++) {
    const x = (a[(i + shift) % 12] as number) - ma;
    const y = (b[i] as number) - mb;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : 0;
}

/** The key whose profile correlates best with the chroma, and how far it stands above the next (0..1). */
export function estimateKey(
  chroma: ArrayLike<number>,
  opening?: ArrayLike<number>,
): { key: string; margin: number } {
  const scores: KeyScore[] = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    scores.push({ tonic, mode: 'major', r: correlation(chroma, MAJOR_PROFILE, tonic) });
    scores.push({ tonic, mode: 'minor', r: correlation(chroma, MINOR_PROFILE, tonic) });
  }
  scores.sort((a, b) => b.r - a.r);
  const [top, next] = scores as [KeyScore, KeyScore];
  // The gap between the two best correlations, against the best's distance from no correlation at all.
  const margin = top.r > 0 ? Math.max(0, Math.min(1, (top.r - next.r) / (top.r * 0.25))) : 0;
  if (!opening) return { key: keyName(top), margin };
  // A scale's notes fit its relative, dominant and subdominant keys nearly as well: of those, the one
  // whose tonic chord the song opens on, else the best.
  const near = scores.filter((k) => isNeighbour(top, k));
  const best = near.reduce((a, b) => (withOpening(b, opening) > withOpening(a, opening) ? b : a));
  return { key: keyName(best), margin };
}

interface KeyScore {
  tonic: number;
  mode: 'major' | 'minor';
  r: number;
}

/** The key itself, its relative, and the keys a fifth above and below in the same mode. */
function isNeighbour(key: KeyScore, other: KeyScore): boolean {
  const up = (other.tonic - key.tonic + 12) % 12;
  if (other.mode === key.mode) return up === 0 || up === 7 || up === 5;
  return key.mode === 'major' ? up === 9 : up === 3;
}

/** A key's profile correlation, and one more when the song opens on its tonic chord. */
function withOpening(key: KeyScore, opening: ArrayLike<number>): number {
  const chord = openingChord(opening);
  return key.r + (chord.mode && chord.tonic === key.tonic && chord.mode === key.mode ? 1 : 0);
}

/**
 * Chords an opening may be: triads and the four common sevenths. A seventh
 * chord holds a triad on its third (A–C–E–G holds C major), so matching
 * triads alone names the wrong chord; the mode is the key a chord is the
 * tonic of (a dominant seventh stands for major, a half-diminished for none).
 */
const CHORDS: ReadonlyArray<{ notes: readonly number[]; mode?: 'major' | 'minor' }> = [
  { notes: [0, 4, 7], mode: 'major' },
  { notes: [0, 3, 7], mode: 'minor' },
  { notes: [0, 4, 7, 11], mode: 'major' },
  { notes: [0, 3, 7, 10], mode: 'minor' },
  { notes: [0, 4, 7, 10], mode: 'major' },
  { notes: [0, 3, 6, 10] },
];

/** The chord (root and the mode it is tonic of) a chroma matches best. */
function openingChord(chroma: ArrayLike<number>): { tonic: number; mode?: 'major' | 'minor' } {
  let best: { tonic: number; mode?: 'major' | 'minor' } = { tonic: 0 };
  let top = -Infinity;
  for (const chord of CHORDS) {
    const template = Array.from({ length: 12 }, (_, i) => (chord.notes.includes(i) ? 1 : 0));
    for (let r = 0; r < 12; r++) {
      const v = correlation(chroma, template, r);
      if (v > top) {
        top = v;
        best = { tonic: r, ...(chord.mode ? { mode: chord.mode } : {}) };
      }
    }
  }
  return best;
}

/**
 * Tempo and key of `pcm`, as steps (yields between blocks, so a caller can
 * let other work run). Undefined for audio too short or too quiet to say.
 */
export function* analysisSteps(pcm: PcmSource): Generator<void, TempoAndKey | undefined, void> {
  if (pcm.frames < MIN_SECONDS * pcm.sampleRate) return undefined;
  const mono = yield* monoSteps(pcm);
  const { envelope, rate } = yield* onsetSteps(mono);
  const harmony = yield* chromaSteps(mono, HARMONY_FFT, HARMONY_FFT / 2, HARMONY_LOW_HZ);
  const tempo = estimateTempo(envelope, rate, harmony);
  const chroma = yield* chromaSteps(mono, CHROMA_FFT, CHROMA_FFT / 2, CHROMA_LOW_HZ);
  const total = sumOf(chroma.frames);
  if (tempo.bpm === 0 || !total.some((v) => v > 0)) return undefined;
  const key = estimateKey(total, openingOf(chroma, 240 / tempo.bpm));
  return {
    bpm: Math.round(tempo.bpm),
    key: key.key,
    confidence: Math.round(Math.min(tempo.strength, key.margin) * 100) / 100,
  };
}

/** {@link analysisSteps} run to the end at once. */
export function analyse(pcm: PcmSource): TempoAndKey | undefined {
  const steps = analysisSteps(pcm);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
