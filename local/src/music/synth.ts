/**
 * A deterministic synthesiser for the embedded music provider: tags, lyrics,
 * duration and seed in, 48 kHz stereo out. Genre tags choose tempo, scale,
 * drum groove, bass, pads and lead timbre; lyrics drive a vocal-like lead
 * (one note per syllable, [verse]/[chorus]/[bridge] change register and
 * rhythm). Same inputs and seed give the same samples (seeded PRNG only).
 * Rendering is note by note into typed arrays, exposed as a generator so a
 * server can interleave it with other work. A plan can render only a window
 * of its song and put its bar grid anywhere, which is how extend and repaint
 * (edit.ts) continue a song in its own tempo and key; a WAV it writes carries
 * the plan's parameters in a small RIFF chunk that players skip.
 */
import { parseKey } from '@tunesmith/shared/musical-keys';
import { hashString, Rng } from './prng';

/** ACE-Step's own output rate (its pipeline's `latents2audio`, and ACE-Step 1.5: stereo at 48 kHz): what fal returns. */
export const SAMPLE_RATE = 48000;
export const MIN_DURATION = 5;
export const MAX_DURATION = 240;

export interface TrackInput {
  tags: string;
  lyrics?: string;
  /** Seconds, 5..240 (clamped). */
  duration: number;
  seed: number;
  /** Beats per minute, exactly (default: the tags' `N bpm`, else the style's). */
  bpm?: number;
  /** A key such as "A minor" (default: the tags' key, else a tonic from the seed in the style's scale). */
  key?: string;
}

/**
 * The tempo and key a tag list asks for, as ACE-Step reads them among its
 * tags: `120 bpm` and `A minor` (`F# major`, `Bb minor`), each a tag of its own.
 */
export function askedTempoAndKey(tags: string): { bpm?: number; tonic?: number; mode?: 'major' | 'minor' } {
  const out: { bpm?: number; tonic?: number; mode?: 'major' | 'minor' } = {};
  for (const tag of tags.split(',')) {
    const bpm = /^\s*(\d{2,3})\s*bpm\s*$/i.exec(tag);
    // The range the product asks for; another number is a word of the prompt, not a tempo.
    if (bpm && Number(bpm[1]) >= 40 && Number(bpm[1]) <= 240) out.bpm = Number(bpm[1]);
    const key = parseKey(tag);
    if (key) {
      out.tonic = key.tonic;
      out.mode = key.mode;
    }
  }
  return out;
}

type Groove = 'four' | 'pop' | 'boombap' | 'half' | 'rock' | 'none';
export type Wave = 'sine' | 'tri' | 'saw' | 'square' | 'vocal' | 'bell' | 'pluck';
type BassStyle = 'sub' | 'eighths' | 'offbeat' | 'walking' | 'root';
type LeadStyle = 'arp' | 'pluck' | 'bells' | 'melody' | 'none';

export interface Style {
  name: string;
  bpm: number;
  swing: number;
  scale: readonly number[];
  groove: Groove;
  progression: readonly number[];
  bridgeProgression: readonly number[];
  sevenths: boolean;
  padWave: Wave;
  padLevel: number;
  bassWave: Wave;
  bassStyle: BassStyle;
  leadWave: Wave;
  leadStyle: LeadStyle;
  /** One-pole low-pass cutoff of the master in Hz (0 = off). */
  masterCutoff: number;
  /** 0..1: brightness of pads/leads (filter opening). */
  brightness: number;
  kickLength: number;
  gatedSnare: boolean;
  hats16: boolean;
  shaker: boolean;
  crackle: boolean;
  /** Vocal lead register when a singer is asked for: 0 none, -1 male, 1 female. */
  voice: number;
  drumLevel: number;
}

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];
const DORIAN = [0, 2, 3, 5, 7, 9, 10];

const BASE: Style = {
  name: 'pop',
  bpm: 112,
  swing: 0,
  scale: MAJOR,
  groove: 'pop',
  progression: [0, 4, 5, 3],
  bridgeProgression: [3, 4, 5, 4],
  sevenths: false,
  padWave: 'tri',
  padLevel: 0.16,
  bassWave: 'tri',
  bassStyle: 'eighths',
  leadWave: 'square',
  leadStyle: 'melody',
  masterCutoff: 0,
  brightness: 0.6,
  kickLength: 0.3,
  gatedSnare: false,
  hats16: false,
  shaker: false,
  crackle: false,
  voice: 0,
  drumLevel: 1,
};

/** Genres in priority order: the first tag matched sets the base style. */
const GENRES: Array<{ match: RegExp; style: Partial<Style> }> = [
  {
    match: /synth ?wave|retro ?wave|outrun|80s/,
    style: {
      name: 'synthwave',
      bpm: 100,
      scale: MINOR,
      groove: 'four',
      progression: [0, 5, 2, 6],
      bridgeProgression: [3, 5, 6, 4],
      padWave: 'saw',
      padLevel: 0.14,
      bassWave: 'saw',
      bassStyle: 'eighths',
      leadWave: 'saw',
      leadStyle: 'arp',
      gatedSnare: true,
      brightness: 0.75,
    },
  },
  {
    match: /lo-?fi|chill ?hop|study/,
    style: {
      name: 'lofi',
      bpm: 76,
      swing: 0.18,
      scale: DORIAN,
      groove: 'half',
      progression: [1, 4, 0, 5],
      bridgeProgression: [3, 2, 1, 4],
      sevenths: true,
      padWave: 'tri',
      padLevel: 0.2,
      bassWave: 'sine',
      bassStyle: 'root',
      leadWave: 'sine',
      leadStyle: 'none',
      masterCutoff: 2600,
      brightness: 0.2,
      crackle: true,
      drumLevel: 0.8,
    },
  },
  {
    match: /hip ?hop|rap|trap|boom ?bap/,
    style: {
      name: 'hiphop',
      bpm: 90,
      swing: 0.1,
      scale: MINOR,
      groove: 'boombap',
      progression: [0, 5, 3, 4],
      bridgeProgression: [5, 6, 0, 4],
      padWave: 'sine',
      padLevel: 0.1,
      bassWave: 'sine',
      bassStyle: 'sub',
      leadWave: 'pluck',
      leadStyle: 'pluck',
      kickLength: 0.75,
      brightness: 0.35,
    },
  },
  {
    match: /electronic|edm|house|techno|dance|trance/,
    style: {
      name: 'electronic',
      bpm: 126,
      scale: MINOR,
      groove: 'four',
      progression: [0, 5, 6, 4],
      bridgeProgression: [5, 3, 6, 4],
      padWave: 'saw',
      padLevel: 0.1,
      bassWave: 'saw',
      bassStyle: 'offbeat',
      leadWave: 'square',
      leadStyle: 'pluck',
      hats16: true,
      brightness: 0.85,
      kickLength: 0.28,
    },
  },
  {
    match: /jingle|commercial|advert/,
    style: {
      name: 'jingle',
      bpm: 128,
      scale: MAJOR,
      groove: 'pop',
      progression: [0, 3, 4, 0],
      bridgeProgression: [3, 4, 5, 4],
      padWave: 'square',
      padLevel: 0.08,
      bassWave: 'tri',
      bassStyle: 'walking',
      leadWave: 'bell',
      leadStyle: 'bells',
      shaker: true,
      brightness: 1,
    },
  },
  {
    match: /rock|punk|metal|grunge/,
    style: {
      name: 'rock',
      bpm: 132,
      groove: 'rock',
      scale: MINOR,
      padWave: 'square',
      bassWave: 'saw',
      hats16: false,
    },
  },
  {
    match: /ambient|cinematic|orchestral|piano|classical/,
    style: { name: 'ambient', bpm: 70, groove: 'none', padLevel: 0.24, leadStyle: 'bells', leadWave: 'bell' },
  },
  {
    match: /jazz|swing|blues/,
    style: { name: 'jazz', bpm: 118, swing: 0.22, sevenths: true, bassStyle: 'walking' },
  },
  { match: /pop/, style: { name: 'pop' } },
];

/** Resolves the style for a comma-separated tag list; the seed nudges tempo only slightly. */
export function styleFor(tags: string, seed = 0): Style {
  const list = tags
    .toLowerCase()
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  let style: Style = { ...BASE };
  const joined = list.join(',');
  for (const genre of GENRES) {
    if (genre.match.test(joined)) {
      style = { ...style, ...genre.style };
      break;
    }
  }
  if (/energetic|intense|powerful|aggressive/.test(joined)) {
    style.bpm = Math.round(style.bpm * 1.18);
    style.hats16 = true;
    style.brightness = Math.min(1, style.brightness + 0.25);
    style.drumLevel *= 1.2;
    style.kickLength = Math.min(style.kickLength, 0.3);
    if (style.groove === 'half' || style.groove === 'none') style.groove = 'four';
    if (style.bassStyle === 'root') style.bassStyle = 'eighths';
  }
  if (/upbeat|happy|cheerful|bright|fun/.test(joined)) {
    style.bpm = Math.round(style.bpm * 1.08);
    style.scale = MAJOR;
    style.shaker = true;
    style.swing = Math.min(style.swing, 0.05);
    if (style.leadStyle === 'none') style.leadStyle = 'melody';
  }
  if (/sad|melanchol|dark/.test(joined)) style.scale = MINOR;
  if (/female|woman|girl|soprano/.test(joined)) style.voice = 1;
  else if (/male|man|boy|baritone|bass voice/.test(joined)) style.voice = -1;
  const other = list.filter((t) => !/^(fail:|no-webhook)/.test(t)).join(',');
  style.bpm += (hashString(other, seed >>> 0) % 5) - 2;
  // A tempo or key asked for is played exactly: the scale follows its mode.
  const asked = askedTempoAndKey(tags);
  if (asked.bpm !== undefined) style.bpm = asked.bpm;
  if (asked.mode) style.scale = asked.mode === 'major' ? MAJOR : MINOR;
  return style;
}

// ---------------------------------------------------------------- lyrics

export type SectionKind = 'intro' | 'verse' | 'chorus' | 'bridge' | 'outro';

export interface LyricLine {
  section: SectionKind;
  syllables: string[];
  /** The line's words as written (only those with a syllable to sing). */
  words?: string[];
  /** For each syllable, the index in `words` of the word it belongs to. */
  wordOf?: number[];
}

/** Lyrics that say instrumental: `[instrumental]` or `[inst]` (fal's convention), alone. */
export function asksInstrumental(lyrics: string | undefined): boolean {
  return /^\[(inst|instrumental)\]$/.test((lyrics ?? '').trim().toLowerCase());
}

/** No words to sing: empty or instrumental lyrics. */
export function isInstrumental(lyrics: string | undefined): boolean {
  return (lyrics ?? '').trim() === '' || asksInstrumental(lyrics);
}

/** Splits a word into rough syllables (vowel groups; a silent final e is not one). */
export function syllables(word: string): string[] {
  const w = word.toLowerCase().replace(/[^a-z']/g, '');
  if (!w) return [];
  const groups = w.match(/[^aeiouy]*[aeiouy]+(?:[^aeiouy]*$|[^aeiouy](?=[^aeiouy]))?/g);
  if (!groups || groups.length === 0) return [w];
  if (groups.length > 1 && /^[^aeiouy]*e$/.test(groups[groups.length - 1] ?? '') && !/le$/.test(w)) {
    const last = groups.pop() as string;
    groups[groups.length - 1] += last;
  }
  return groups;
}

export function parseLyrics(lyrics: string): LyricLine[] {
  const lines: LyricLine[] = [];
  let section: SectionKind = 'verse';
  for (const raw of lyrics.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const tag = /^\[([a-z -]+)(?:\s*\d+)?\]$/i.exec(line);
    if (tag) {
      const name = (tag[1] ?? '').toLowerCase();
      section = name.includes('chorus')
        ? 'chorus'
        : name.includes('bridge')
          ? 'bridge'
          : name.includes('intro')
            ? 'intro'
            : name.includes('outro')
              ? 'outro'
              : 'verse';
      continue;
    }
    const syl: string[] = [];
    const words: string[] = [];
    const wordOf: number[] = [];
    for (const word of line.split(/\s+/)) {
      const parts = syllables(word);
      if (!parts.length) continue;
      for (const part of parts) {
        syl.push(part);
        wordOf.push(words.length);
      }
      words.push(word);
    }
    if (syl.length) lines.push({ section, syllables: syl, words, wordOf });
  }
  return lines;
}

// ---------------------------------------------------------------- rendering

export interface Note {
  start: number; // sample
  length: number; // samples (gate)
  freq: number;
  wave: Wave;
  gain: number;
  pan: number; // -1..1
  attack: number; // seconds
  decay: number; // seconds (time constant of exponential decay, 0 = sustain)
  release: number; // seconds
  cutoff: number; // Hz, one-pole low-pass (0 = none)
  vibrato: number; // depth in semitones
  vowel: number; // 0..4 for vocal wave
  detune: number; // cents spread for stereo voices (pads)
  /** Which voice of the band plays it (the stems a song separates into); absent: pads, leads and the rest. */
  part?: 'bass';
}

export interface Hit {
  start: number;
  sample: Float32Array;
  gain: number;
  pan: number;
}

const SINE_SIZE = 4096;
const SINE = new Float32Array(SINE_SIZE + 1);
for (let i = 0; i <= SINE_SIZE; i++) SINE[i] = Math.sin((2 * Math.PI * i) / SINE_SIZE);

/** Harmonic weights of the vocal wave per vowel (a, e, i, o, u). */
const VOWELS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [1, 0.7, 0.55, 0.35, 0.2],
  [1, 0.35, 0.5, 0.45, 0.3],
  [1, 0.2, 0.15, 0.4, 0.35],
  [1, 0.8, 0.3, 0.12, 0.05],
  [1, 0.45, 0.08, 0.04, 0.02],
];

function vowelOf(syllable: string): number {
  const m = /[aeiouy]/.exec(syllable);
  return m ? Math.max(0, 'aeiou'.indexOf(m[0] === 'y' ? 'i' : m[0])) : 0;
}

const midiToHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

export function renderNote(note: Note, left: Float32Array, right: Float32Array, total: number): void {
  const sr = SAMPLE_RATE;
  const start = note.start;
  if (start >= total) return;
  const releaseSamples = Math.max(1, Math.floor(note.release * sr));
  const end = Math.min(total, start + note.length + releaseSamples);
  const attackSamples = Math.max(1, Math.floor(note.attack * sr));
  const decayCoef = note.decay > 0 ? Math.exp(-1 / (note.decay * sr)) : 1;
  const lp = note.cutoff > 0 ? 1 - Math.exp((-2 * Math.PI * note.cutoff) / sr) : 1;
  const gl = note.gain * Math.sqrt(0.5 * (1 - note.pan));
  const gr = note.gain * Math.sqrt(0.5 * (1 + note.pan));
  const baseInc = note.freq / sr;
  const detuneRatio = note.detune ? 2 ** (note.detune / 1200) : 1;
  const vib = note.vibrato;
  const vibInc = 5.2 / sr;
  const weights = VOWELS[note.vowel] ?? (VOWELS[0] as readonly number[]);
  const [w1, w2, w3, w4, w5] = weights as [number, number, number, number, number];
  const wave = note.wave;
  let phase = 0;
  let phase2 = 0.25;
  let vibPhase = 0;
  let env = 0;
  let fl = 0;
  let fr = 0;
  const gateEnd = start + note.length;
  const relCoef = Math.exp(-5 / releaseSamples);
  // A note that began before this buffer (a window of a longer song) resumes
  // its envelopes where they would be by now.
  const t0 = start < 0 ? -start : 0;
  let decayEnv = t0 > attackSamples ? decayCoef ** (t0 - attackSamples) : 1;
  let rel = t0 > note.length ? relCoef ** (t0 - note.length) : 1;
  for (let i = start < 0 ? 0 : start; i < end; i++) {
    const t = i - start;
    env = t < attackSamples ? t / attackSamples : 1;
    if (t >= attackSamples) decayEnv *= decayCoef;
    if (i >= gateEnd) rel *= relCoef;
    const amp = env * decayEnv * rel;
    let inc = baseInc;
    if (vib !== 0) {
      vibPhase += vibInc;
      if (vibPhase >= 1) vibPhase -= 1;
      const delay = t < 0.15 * SAMPLE_RATE ? t / (0.15 * SAMPLE_RATE) : 1;
      inc *= 1 + vib * 0.0578 * delay * (SINE[(vibPhase * SINE_SIZE) | 0] as number);
    }
    phase += inc;
    if (phase >= 1) phase -= 1;
    phase2 += inc * detuneRatio;
    if (phase2 >= 1) phase2 -= 1;
    let a: number;
    let b: number;
    switch (wave) {
      case 'sine':
        a = SINE[(phase * SINE_SIZE) | 0] as number;
        b = SINE[(phase2 * SINE_SIZE) | 0] as number;
        break;
      case 'tri':
        a = phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase;
        b = phase2 < 0.5 ? 4 * phase2 - 1 : 3 - 4 * phase2;
        break;
      case 'saw':
        a = 2 * phase - 1;
        b = 2 * phase2 - 1;
        break;
      case 'square':
        a = phase < 0.5 ? 0.7 : -0.7;
        b = phase2 < 0.5 ? 0.7 : -0.7;
        break;
      case 'pluck': {
        a = (2 * phase - 1) * (0.3 + 0.7 * decayEnv);
        b = a;
        break;
      }
      case 'bell': {
        const mod = SINE[(((phase * 3.5) % 1) * SINE_SIZE) | 0] as number;
        let p = phase + 0.35 * decayEnv * mod;
        p -= Math.floor(p);
        a = SINE[(p * SINE_SIZE) | 0] as number;
        b = a;
        break;
      }
      default: {
        // vocal: five harmonics weighted by vowel.
        const s = SINE_SIZE;
        a =
          w1 * (SINE[(phase * s) | 0] as number) +
          w2 * (SINE[(((phase * 2) % 1) * s) | 0] as number) +
          w3 * (SINE[(((phase * 3) % 1) * s) | 0] as number) +
          w4 * (SINE[(((phase * 4) % 1) * s) | 0] as number) +
          w5 * (SINE[(((phase * 5) % 1) * s) | 0] as number);
        a *= 0.45;
        b = a;
      }
    }
    fl += lp * (a - fl);
    fr += lp * (b - fr);
    left[i] = (left[i] as number) + fl * amp * gl;
    right[i] = (right[i] as number) + fr * amp * gr;
  }
}

export function renderHit(hit: Hit, left: Float32Array, right: Float32Array, total: number): void {
  const gl = hit.gain * Math.sqrt(0.5 * (1 - hit.pan));
  const gr = hit.gain * Math.sqrt(0.5 * (1 + hit.pan));
  const s = hit.sample;
  const end = Math.min(total, hit.start + s.length);
  for (let i = Math.max(0, hit.start); i < end; i++) {
    const v = s[i - hit.start] as number;
    left[i] = (left[i] as number) + v * gl;
    right[i] = (right[i] as number) + v * gr;
  }
}

interface DrumKit {
  kick: Float32Array;
  snare: Float32Array;
  hat: Float32Array;
  openHat: Float32Array;
  clap: Float32Array;
  shaker: Float32Array;
}

function makeKit(style: Style, rng: Rng): DrumKit {
  const sr = SAMPLE_RATE;
  const kickLen = Math.floor(style.kickLength * sr);
  const kick = new Float32Array(kickLen);
  let ph = 0;
  for (let i = 0; i < kickLen; i++) {
    const t = i / sr;
    const f = 45 + 110 * Math.exp(-t * 28);
    ph += f / sr;
    kick[i] = Math.sin(2 * Math.PI * ph) * Math.exp((-t * 3.2) / style.kickLength) * (i < 40 ? i / 40 : 1);
  }
  const noiseShot = (seconds: number, decay: number, hp: number, tone = 0, toneGain = 0): Float32Array => {
    const n = Math.floor(seconds * sr);
    const out = new Float32Array(n);
    let prev = 0;
    let low = 0;
    for (let i = 0; i < n; i++) {
      const t = i / sr;
      const x = rng.noise();
      low += hp * (x - low);
      const high = x - low;
      prev = high;
      out[i] =
        (prev + toneGain * Math.sin(2 * Math.PI * tone * t) * Math.exp(-t * 30)) * Math.exp(-t / decay);
    }
    return out;
  };
  const snare = style.gatedSnare
    ? noiseShot(0.42, 0.3, 0.08, 185, 0.8)
    : noiseShot(0.22, 0.06, 0.1, 190, 0.9);
  if (style.gatedSnare) for (let i = Math.floor(0.3 * sr); i < snare.length; i++) snare[i] = 0;
  const hat = noiseShot(0.05, 0.012, 0.6);
  const openHat = noiseShot(0.3, 0.08, 0.6);
  const clapParts = noiseShot(0.2, 0.05, 0.2);
  const clap = new Float32Array(clapParts.length);
  for (let i = 0; i < clap.length; i++) {
    const t = i / sr;
    const burst = t < 0.03 ? (Math.floor(t / 0.01) % 2 === 0 ? 1 : 0.4) : 1;
    clap[i] = (clapParts[i] as number) * burst;
  }
  const shaker = noiseShot(0.07, 0.02, 0.45);
  return { kick, snare, hat, openHat, clap, shaker };
}

const PATTERNS: Record<
  Exclude<Groove, 'none'>,
  { kick: string; snare: string; hat: string; open: string }
> = {
  four: {
    kick: 'x...x...x...x...',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    open: '..x...x...x...x.',
  },
  pop: {
    kick: 'x.....x.x.......',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    open: '..............x.',
  },
  boombap: {
    kick: 'x......x.xx.....',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    open: '................',
  },
  half: {
    kick: 'x.........x.....',
    snare: '........x.......',
    hat: 'x.x.x.x.x.x.x.x.',
    open: '................',
  },
  rock: {
    kick: 'x.x.....x.x.....',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    open: '................',
  },
};

/** Drum triggers supplied by the restyler instead of a pattern: sample positions and strengths. */
export interface DrumCue {
  at: number;
  strength: number;
}

export interface RenderPlan {
  style: Style;
  totalSamples: number;
  seed: number;
  lyrics?: string;
  /** Root MIDI note (tonic); chosen from the seed when absent. */
  root?: number;
  /** Drive the drums from these cues instead of the groove pattern. */
  drumCues?: DrumCue[];
  /** Per-sample-block gain (blocks of `envelopeBlock` samples) applied to the mix. */
  envelope?: Float32Array;
  envelopeBlock?: number;
  /**
   * Where the first bar line lies, in samples from the song's start (-bar < gridStart <= 0;
   * default 0): a song extended at its start keeps its bars where they were.
   */
  gridStart?: number;
  /**
   * Render only these samples of the song (default: all of it). The arrangement is the
   * whole song's; lyrics are then sung from the first bar line inside the window.
   */
  window?: { start: number; length: number };
  /** A new take in the same key and tempo: the chord cycle starts elsewhere (repaint). */
  retake?: boolean;
  /** Master fades in seconds and the peak to normalise to (defaults: 0.01 s, up to 3 s, 0.891). */
  master?: { fadeIn?: number; fadeOut?: number; peak?: number };
}

/** Section of each bar for an instrumental arrangement. */
function sectionForBar(bar: number, bars: number): SectionKind {
  if (bar < 2 && bars > 6) return 'intro';
  if (bar >= bars - 2 && bars > 10) return 'outro';
  const form: SectionKind[] = ['verse', 'chorus', 'verse', 'chorus', 'bridge', 'chorus'];
  const lengths = [8, 8, 8, 8, 4, 8];
  let b = (bar - 2 + 44 * 10) % 44;
  for (let i = 0; i < form.length; i++) {
    const len = lengths[i] as number;
    if (b < len) return form[i] as SectionKind;
    b -= len;
  }
  return 'verse';
}

/** Samples per bar (four beats) at a tempo. */
export const barSamples = (bpm: number) => (240 / bpm) * SAMPLE_RATE;

/** The octave a tonic asked for sits in: C3 (MIDI 48) to B3, the range the seed's tonics take. */
const KEY_ROOT = 48;

/** The key a seed picks when the plan names none. */
export const rootForSeed = (seed: number) => 48 + (hashString(`key${seed}`) % 12);

/** A word the voice sings: as written in the lyrics, from its first syllable's onset to its last's end (song samples). */
export interface SungWord {
  text: string;
  start: number;
  end: number;
  /** Which lyric line (of those with words to sing) it is in. */
  line: number;
}

/** Everything a render plays, in song samples: notes (pads, bass, leads, vocals) and drum hits. */
export interface Score {
  notes: Note[];
  hits: Hit[];
  /** The words of the lyrics, in the order and at the times they are sung. */
  sung: SungWord[];
  /** The generator after composing (the texture is drawn from it). */
  rng: Rng;
}

/** Composes the whole song of a plan (see scoreSteps). */
export function scoreFor(plan: RenderPlan): Score {
  return runSteps(scoreSteps(plan));
}

/** Composing as a generator (cheaper than rendering, but not free for a long song): yields every few bars. */
export function* scoreSteps(plan: RenderPlan): Generator<void, Score, void> {
  const { style, totalSamples: total } = plan;
  const rng = new Rng(hashString(`${plan.seed}|${style.name}|${style.bpm}`));
  const beat = (60 / style.bpm) * SAMPLE_RATE;
  const step = beat / 4;
  const bar = beat * 4;
  const grid = plan.gridStart ?? 0;
  const bars = Math.ceil((total - grid) / bar) + 1;
  const root = plan.root ?? rootForSeed(plan.seed);
  // A retake walks the same chords from another place in the cycle (1..3 bars on).
  const turn = plan.retake ? 1 + (hashString(`retake${plan.seed}`) % 3) : 0;
  const scale = style.scale;
  const degree = (d: number, octave = 0) => {
    const o = Math.floor(d / 7);
    const idx = ((d % 7) + 7) % 7;
    return root + (scale[idx] as number) + 12 * (o + octave);
  };
  const swingAt = (s: number) => (s % 2 === 1 ? style.swing * step : 0);
  const pos = (barIndex: number, s: number) => Math.floor(grid + barIndex * bar + s * step + swingAt(s));
  const notes: Note[] = [];
  const hits: Hit[] = [];
  const bright = style.brightness;
  const note = (n: Partial<Note> & Pick<Note, 'start' | 'length' | 'freq'>): void => {
    notes.push({
      wave: 'sine',
      gain: 0.2,
      pan: 0,
      attack: 0.005,
      decay: 0,
      release: 0.05,
      cutoff: 0,
      vibrato: 0,
      vowel: 0,
      detune: 0,
      ...n,
    });
  };

  // Lyrics timeline: which bar each line starts at.
  const lines = isInstrumental(plan.lyrics) ? [] : parseLyrics(plan.lyrics ?? '');
  // `[instrumental]` asks for no voice at all, not even a wordless one.
  const voiceless = asksInstrumental(plan.lyrics);
  const voice = voiceless ? 0 : style.voice;
  const sectionOfBar: SectionKind[] = [];
  const lineStarts: Array<{ bar: number; line: LyricLine }> = [];
  if (lines.length) {
    const from = plan.window && plan.window.start > 0 ? plan.window.start : 0;
    let b = from > 0 ? Math.max(0, Math.ceil((from - grid) / bar)) : bars > 8 ? 2 : 1;
    for (let i = 0; i < b; i++) sectionOfBar[i] = from > 0 ? sectionForBar(i, bars) : 'intro';
    for (const line of lines) {
      // As many syllables as the section's pace fits in a bar (16 steps at 2, 2.66 or 3 steps each),
      // so a line never runs into the next.
      const perBar = line.section === 'chorus' ? 6 : line.section === 'bridge' ? 5 : 8;
      const span = Math.max(1, Math.ceil(line.syllables.length / perBar));
      lineStarts.push({ bar: b, line });
      for (let i = 0; i < span; i++) sectionOfBar[b + i] = line.section;
      b += span;
    }
  }
  const sectionAt = (b: number) => sectionOfBar[b] ?? (lines.length ? 'chorus' : sectionForBar(b, bars));

  // Chords, bass, lead, drums per bar.
  const kit = makeKit(style, rng.fork('kit'));
  yield;
  for (let b = 0; b < bars; b++) {
    const section = sectionAt(b);
    const prog = section === 'bridge' ? style.bridgeProgression : style.progression;
    const chordDeg = prog[(b + turn) % prog.length] as number;
    const start = Math.floor(grid + b * bar);
    const full = section === 'chorus' || section === 'bridge';
    // Pad: the chord's three (or four) tones, detuned wide.
    const tones = style.sevenths ? [0, 2, 4, 6] : [0, 2, 4];
    for (const tone of tones) {
      note({
        start,
        length: Math.floor(bar * 0.95),
        freq: midiToHz(degree(chordDeg + tone, 1)),
        wave: style.padWave,
        gain: style.padLevel * (full ? 1 : 0.75) * (style.padWave === 'saw' ? 0.6 : 1),
        pan: (tone / 3 - 0.5) * 0.6,
        attack: style.name === 'lofi' ? 0.02 : 0.15,
        release: 0.3,
        decay: style.padWave === 'tri' && style.name === 'pop' ? 1.2 : 0,
        cutoff: 600 + bright * 3500,
        detune: 9,
      });
    }
    // Bass.
    const bassNote = degree(chordDeg, -1);
    const bassHz = midiToHz(bassNote);
    const bassBase = { wave: style.bassWave, cutoff: 250 + bright * 900, pan: 0, part: 'bass' as const };
    if (section !== 'intro') {
      switch (style.bassStyle) {
        case 'sub':
          note({
            ...bassBase,
            start,
            length: Math.floor(beat * 1.5),
            freq: bassHz,
            gain: 0.45,
            release: 0.1,
          });
          note({ ...bassBase, start: pos(b, 7), length: Math.floor(beat * 1.5), freq: bassHz, gain: 0.4 });
          break;
        case 'eighths':
          for (let s = 0; s < 16; s += 2)
            note({ ...bassBase, start: pos(b, s), length: Math.floor(step * 1.6), freq: bassHz, gain: 0.3 });
          break;
        case 'offbeat':
          for (let s = 2; s < 16; s += 4)
            note({ ...bassBase, start: pos(b, s), length: Math.floor(step * 1.8), freq: bassHz, gain: 0.36 });
          break;
        case 'walking':
          for (let q = 0; q < 4; q++)
            note({
              ...bassBase,
              start: pos(b, q * 4),
              length: Math.floor(beat * 0.85),
              freq: midiToHz(degree(chordDeg + ([0, 2, 4, 5][q] as number), -1)),
              gain: 0.32,
            });
          break;
        default:
          note({ ...bassBase, start, length: Math.floor(bar * 0.9), freq: bassHz, gain: 0.35, attack: 0.02 });
      }
    }
    // Instrumental lead / arps.
    const leadOctave = 2;
    if (style.leadStyle === 'arp' && section !== 'intro') {
      for (let s = 0; s < 16; s++) {
        const tone = [0, 2, 4, 7][s % 4] as number;
        note({
          start: pos(b, s),
          length: Math.floor(step * 0.8),
          freq: midiToHz(degree(chordDeg + tone, leadOctave)),
          wave: 'saw',
          gain: 0.07,
          decay: 0.12,
          cutoff: 1500 + bright * 3000,
          pan: s % 2 ? 0.35 : -0.35,
        });
      }
    } else if (style.leadStyle === 'pluck' && full) {
      for (let s = 0; s < 16; s++) {
        if (!rng.chance(style.name === 'electronic' ? 0.6 : 0.3)) continue;
        note({
          start: pos(b, s),
          length: Math.floor(step),
          freq: midiToHz(degree(chordDeg + rng.pick([0, 2, 4, 7]), leadOctave)),
          wave: style.leadWave === 'pluck' ? 'pluck' : 'square',
          gain: 0.09,
          decay: 0.08,
          cutoff: 2000 + 3000 * bright,
          pan: rng.noise() * 0.4,
        });
      }
    } else if (style.leadStyle === 'bells' && section !== 'intro') {
      for (let s = 0; s < 16; s += 2) {
        if (!rng.chance(0.55)) continue;
        note({
          start: pos(b, s),
          length: Math.floor(step * 2),
          freq: midiToHz(degree(chordDeg + rng.pick([0, 2, 4, 7, 9]), leadOctave + 1)),
          wave: 'bell',
          gain: 0.12,
          decay: 0.35,
          release: 0.2,
          pan: 0.2,
        });
      }
    } else if (style.leadStyle === 'melody' && full && lines.length === 0 && voice === 0) {
      let d = chordDeg + 7;
      for (let s = 0; s < 16; s += 2) {
        if (!rng.chance(0.7)) continue;
        d += rng.pick([-2, -1, 0, 1, 2]);
        note({
          start: pos(b, s),
          length: Math.floor(step * 1.8),
          freq: midiToHz(degree(d, 1)),
          wave: style.leadWave,
          gain: 0.07,
          decay: 0.4,
          cutoff: 1500 + 2500 * bright,
        });
      }
    }
    // Wordless vocal line when a singer is asked for without lyrics.
    if (voice !== 0 && lines.length === 0 && section !== 'intro' && section !== 'outro') {
      let d = chordDeg + 2;
      for (let s = 0; s < 16; s += 4) {
        d += rng.pick([-1, 0, 1, 2, -2]);
        note({
          start: pos(b, s),
          length: Math.floor(beat * 0.9),
          freq: midiToHz(degree(d, voice > 0 ? 2 : 0)),
          wave: 'vocal',
          gain: 0.16,
          attack: 0.03,
          release: 0.08,
          vibrato: 0.35,
          vowel: (b + s) % 5,
        });
      }
    }
    // Drums.
    const cues = plan.drumCues;
    if (!cues && style.groove !== 'none' && section !== 'intro') {
      const p = PATTERNS[style.groove];
      const lvl = style.drumLevel * (full ? 1 : 0.85);
      for (let s = 0; s < 16; s++) {
        const at = pos(b, s);
        if (p.kick[s] === 'x') hits.push({ start: at, sample: kit.kick, gain: 0.9 * lvl, pan: 0 });
        if (p.snare[s] === 'x') {
          hits.push({ start: at, sample: kit.snare, gain: 0.45 * lvl, pan: 0.05 });
          if (full || style.name === 'jingle')
            hits.push({ start: at, sample: kit.clap, gain: 0.25 * lvl, pan: -0.1 });
        }
        if (p.hat[s] === 'x' || (style.hats16 && section !== 'verse'))
          hits.push({ start: at, sample: kit.hat, gain: (s % 4 === 0 ? 0.22 : 0.14) * lvl, pan: 0.3 });
        if (p.open[s] === 'x' && full)
          hits.push({ start: at, sample: kit.openHat, gain: 0.14 * lvl, pan: 0.3 });
        if (style.shaker && s % 2 === 1)
          hits.push({ start: at, sample: kit.shaker, gain: 0.12 * lvl, pan: -0.4 });
      }
    }
    if (b % 4 === 3) yield;
  }
  if (plan.drumCues) {
    for (const cue of plan.drumCues) {
      const strong = cue.strength > 0.6;
      hits.push({
        start: cue.at,
        sample: strong ? kit.kick : kit.hat,
        gain: strong ? 0.8 : 0.18,
        pan: strong ? 0 : 0.3,
      });
      if (cue.strength > 0.35 && !strong)
        hits.push({ start: cue.at, sample: kit.snare, gain: 0.35, pan: 0.05 });
    }
  }

  // Vocal lead: one note per syllable.
  const sung: SungWord[] = [];
  for (const [lineIndex, { bar: b, line }] of lineStarts.entries()) {
    const section = line.section;
    const octave = (voice < 0 ? 0 : 1) + (section === 'chorus' ? 1 : 0);
    const stepsPer = section === 'chorus' ? 2.66 : section === 'bridge' ? 3 : 2;
    const lineRng = rng.fork(`${b}|${line.syllables.join('')}`);
    const prog = section === 'bridge' ? style.bridgeProgression : style.progression;
    let d =
      (prog[(b + turn) % prog.length] as number) + (section === 'chorus' ? 4 : section === 'bridge' ? 2 : 0);
    line.syllables.forEach((syl, i) => {
      const s = i * stepsPer;
      d += lineRng.pick(section === 'chorus' ? [-2, 0, 1, 2, 3] : [-1, 0, 1, -2, 2]);
      if (d > 11) d -= 3;
      if (d < -3) d += 3;
      const last = i === line.syllables.length - 1;
      const start = Math.floor(grid + b * bar + s * step + swingAt(Math.round(s)));
      const length = Math.floor(step * stepsPer * (last ? 2 : 0.9));
      const w = line.wordOf?.[i];
      const text = w === undefined ? undefined : line.words?.[w];
      if (text !== undefined) {
        const current = sung.at(-1);
        if (current && i > 0 && line.wordOf?.[i - 1] === w) current.end = start + length;
        else sung.push({ text, start, end: start + length, line: lineIndex });
      }
      note({
        start,
        length,
        freq: midiToHz(degree(d, octave)),
        wave: 'vocal',
        gain: 0.2,
        attack: 0.025,
        release: 0.08,
        vibrato: last ? 0.45 : 0.2,
        vowel: vowelOf(syl),
        cutoff: 5000,
      });
    });
  }

  return { notes, hits, sung, rng };
}

/**
 * The words a plan's render sings, in seconds from the start of what it
 * renders (its window, when it has one): those that start inside it.
 */
export function sungWordsOf(plan: RenderPlan, sung: SungWord[] = scoreFor(plan).sung): SungLyric[] {
  const w0 = Math.max(0, plan.window?.start ?? 0);
  const w1 = w0 + Math.max(0, plan.window?.length ?? plan.totalSamples - w0);
  return sung
    .filter((w) => w.start >= w0 && w.start < w1)
    .map((w) => [
      w.text,
      round3((w.start - w0) / SAMPLE_RATE),
      round3((Math.min(w.end, w1) - w0) / SAMPLE_RATE),
    ]);
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;

/** A sung word as a WAV's render parameters keep it: text, start and end in seconds from the file's start. */
export type SungLyric = [text: string, start: number, end: number];

/**
 * The render as a generator: yields between batches of notes so a caller can
 * spread the work; returns the two channels (of the window, when the plan has one).
 */
export function* renderSteps(
  plan: RenderPlan,
  /** Receives the words the render sings (sungWordsOf), so a caller need not compose the song again. */
  sink?: { sung?: SungLyric[] },
): Generator<void, Float32Array[], void> {
  const { style, totalSamples: total } = plan;
  const { notes, hits, sung, rng } = yield* scoreSteps(plan);
  if (sink) sink.sung = sungWordsOf(plan, sung);
  const w0 = Math.max(0, Math.min(total, plan.window?.start ?? 0));
  const length = Math.max(0, Math.min(total - w0, plan.window?.length ?? total));
  const w1 = w0 + length;
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  const sr = SAMPLE_RATE;

  // Render everything that sounds inside the window, in batches.
  let count = 0;
  for (const n of notes) {
    const ends = n.start + n.length + Math.max(1, Math.floor(n.release * sr));
    if (n.start < w1 && ends > w0) renderNote(w0 ? { ...n, start: n.start - w0 } : n, left, right, length);
    if (++count % 64 === 0) yield;
  }
  for (const h of hits) {
    if (h.start < w1 && h.start + h.sample.length > w0)
      renderHit(w0 ? { ...h, start: h.start - w0 } : h, left, right, length);
    if (++count % 256 === 0) yield;
  }

  // Master: texture, low-pass, envelope, fades, normalisation.
  addCrackle(style, rng, total, w0, left, right);
  masterLowPass(style, left, right);
  yield;
  if (plan.envelope) {
    const block = plan.envelopeBlock ?? 441;
    const env = plan.envelope;
    for (let i = 0; i < length; i++) {
      const g = env[Math.min(env.length - 1, Math.floor((i + w0) / block))] as number;
      left[i] = (left[i] as number) * g;
      right[i] = (right[i] as number) * g;
    }
  }
  finish(left, right, plan.master);
  return [left, right];
}

/** The vinyl texture of a style that has it, added to the samples of the window starting at `w0`. */
export function addCrackle(
  style: Style,
  rng: Rng,
  total: number,
  w0: number,
  left: Float32Array,
  right: Float32Array,
): void {
  if (!style.crackle) return;
  const w1 = w0 + left.length;
  const crackle = rng.fork('crackle');
  for (let i = 0; i < total; i += 1 + Math.floor(crackle.next() * 2500)) {
    const v = crackle.noise() * 0.25;
    if (i < w0 || i >= w1) continue;
    left[i - w0] = (left[i - w0] as number) + v;
    right[i - w0] = (right[i - w0] as number) + v * 0.8;
  }
}

/** The master's one-pole low-pass of a style that has one (linear: the parts of a mix may take it apart). */
export function masterLowPass(style: Style, left: Float32Array, right: Float32Array): void {
  if (style.masterCutoff <= 0) return;
  const a = 1 - Math.exp((-2 * Math.PI * style.masterCutoff) / SAMPLE_RATE);
  let l = 0;
  let r = 0;
  for (let i = 0; i < left.length; i++) {
    l += a * ((left[i] as number) - l);
    r += a * ((right[i] as number) - r);
    left[i] = l;
    right[i] = r;
  }
}

/** Fade in (10 ms) and out (up to 3 s, at most a tenth of the length); `options` changes them (seconds). */
export function applyFades(
  left: Float32Array,
  right: Float32Array,
  options: { fadeIn?: number; fadeOut?: number } = {},
): void {
  const total = left.length;
  const fadeIn = Math.min(total, Math.floor((options.fadeIn ?? 0.01) * SAMPLE_RATE));
  for (let i = 0; i < fadeIn; i++) {
    left[i] = (left[i] as number) * (i / fadeIn);
    right[i] = (right[i] as number) * (i / fadeIn);
  }
  const fadeOut =
    options.fadeOut === undefined
      ? Math.min(Math.floor(3 * SAMPLE_RATE), Math.floor(total * 0.1))
      : Math.min(total, Math.floor(options.fadeOut * SAMPLE_RATE));
  for (let i = 0; i < fadeOut; i++) {
    const idx = total - fadeOut + i;
    const g = Math.cos(((i + 1) / fadeOut) * (Math.PI / 2));
    left[idx] = (left[idx] as number) * g;
    right[idx] = (right[idx] as number) * g;
  }
}

/** The gain that brings the peak of the samples to `peak` (1 for silence). */
export function normalisingGain(left: Float32Array, right: Float32Array, peak = 0.891): number {
  let max = 0;
  for (let i = 0; i < left.length; i++) {
    const a = Math.abs(left[i] as number);
    const b = Math.abs(right[i] as number);
    if (a > max) max = a;
    if (b > max) max = b;
  }
  return max > 0 ? peak / max : 1;
}

/**
 * Fade in (10 ms) and out (up to 3 s, at most a tenth of the length), then
 * normalise the peak to -1 dBFS; `options` changes the fades (seconds) and peak.
 */
export function finish(
  left: Float32Array,
  right: Float32Array,
  options: { fadeIn?: number; fadeOut?: number; peak?: number } = {},
): void {
  applyFades(left, right, options);
  const g = normalisingGain(left, right, options.peak);
  if (g === 1) return;
  for (let i = 0; i < left.length; i++) {
    left[i] = (left[i] as number) * g;
    right[i] = (right[i] as number) * g;
  }
}

export function clampDuration(duration: number): number {
  if (!Number.isFinite(duration)) return 60;
  return Math.min(MAX_DURATION, Math.max(MIN_DURATION, duration));
}

export function planFor(input: TrackInput): RenderPlan {
  const style = styleFor(input.tags, input.seed);
  const asked = askedTempoAndKey(input.tags);
  const key = input.key === undefined ? undefined : parseKey(input.key);
  if (input.key !== undefined && !key) throw new RangeError(`Not a key: ${input.key}`);
  if (input.bpm !== undefined) style.bpm = input.bpm;
  if (key) style.scale = key.mode === 'major' ? MAJOR : MINOR;
  const tonic = key?.tonic ?? asked.tonic;
  const plan: RenderPlan = {
    style,
    totalSamples: Math.round(clampDuration(input.duration) * SAMPLE_RATE),
    seed: input.seed >>> 0,
    root: tonic === undefined ? rootForSeed(input.seed >>> 0) : KEY_ROOT + tonic,
  };
  if (input.lyrics !== undefined) plan.lyrics = input.lyrics;
  return plan;
}

/** Runs a render generator to completion. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Renders a whole track synchronously: two channels at 48 kHz. */
export function renderTrack(input: TrackInput): Float32Array[] {
  return runSteps(renderSteps(planFor(input)));
}

/**
 * What a WAV this provider wrote says about its own render, so an extend or a
 * repaint can continue it in the same tempo and key. Stored as JSON in a RIFF
 * chunk `tsmt` after the samples; players and decoders skip unknown chunks.
 */
export interface RenderMeta {
  v: 1;
  tags: string;
  seed: number;
  lyrics: string;
  bpm: number;
  /** Scale steps (semitones above the root). */
  scale: number[];
  swing: number;
  /** Tonic, MIDI note. */
  root: number;
  /** First bar line, samples from the start (-bar < gridStart <= 0). */
  gridStart: number;
  /**
   * The words the file sings and when (seconds from its start), as the
   * composer placed them: what the embedded recogniser (`fal-ai/whisper`) hears.
   */
  sung?: SungLyric[];
}

export const META_CHUNK = 'tsmt';

/** The parameters a plan rendered with, to store beside its samples. */
export function metaFor(plan: RenderPlan, tags: string, sung?: SungLyric[]): RenderMeta {
  return {
    ...(sung ? { sung } : {}),
    v: 1,
    tags,
    seed: plan.seed,
    lyrics: plan.lyrics ?? '',
    bpm: plan.style.bpm,
    scale: [...plan.style.scale],
    swing: plan.style.swing,
    root: plan.root ?? rootForSeed(plan.seed),
    gridStart: plan.gridStart ?? 0,
  };
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The render parameters a WAV carries, or undefined (another file, or a chunk that does not parse). */
export function readWavMeta(bytes: Uint8Array): RenderMeta | undefined {
  if (bytes.length < 12) return undefined;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const id = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (id(0) !== 'RIFF' || id(8) !== 'WAVE') return undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = v.getUint32(at + 4, true);
    if (id(at) === META_CHUNK) {
      try {
        const m = JSON.parse(new TextDecoder().decode(bytes.subarray(at + 8, at + 8 + size))) as RenderMeta;
        const ok =
          m.v === 1 &&
          typeof m.tags === 'string' &&
          typeof m.lyrics === 'string' &&
          Number.isInteger(m.seed) &&
          isNum(m.bpm) &&
          m.bpm >= 30 &&
          m.bpm <= 300 &&
          Array.isArray(m.scale) &&
          m.scale.length === 7 &&
          m.scale.every(isNum) &&
          isNum(m.swing) &&
          Number.isInteger(m.root) &&
          isNum(m.gridStart);
        if (!ok) return undefined;
        // Sung words are a later addition: a file without them (or with a malformed list) has none.
        const sung = Array.isArray(m.sung)
          ? m.sung.filter(
              (w): w is SungLyric =>
                Array.isArray(w) && w.length === 3 && typeof w[0] === 'string' && isNum(w[1]) && isNum(w[2]),
            )
          : undefined;
        const { sung: _, ...rest } = m;
        return sung ? { ...rest, sung } : rest;
      } catch {
        return undefined;
      }
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * Encodes channels as a 16-bit PCM WAV file (RIFF, little-endian); with `meta`,
 * a `tsmt` chunk after the samples carries the render parameters.
 */
export function encodeWav(channels: Float32Array[], sampleRate = SAMPLE_RATE, meta?: RenderMeta): Uint8Array {
  const ch = channels.length;
  const frames = channels[0]?.length ?? 0;
  const dataBytes = frames * ch * 2;
  const metaBytes = meta ? new TextEncoder().encode(JSON.stringify(meta)) : new Uint8Array(0);
  const metaChunk = meta ? 8 + metaBytes.length + (metaBytes.length % 2) : 0;
  const buf = new ArrayBuffer(44 + dataBytes + metaChunk);
  const view = new DataView(buf);
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes + metaChunk, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, ch, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * ch * 2, true);
  view.setUint16(32, ch * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  const out = new Int16Array(buf, 44, frames * ch);
  let k = 0;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < ch; c++) {
      const v = (channels[c] as Float32Array)[i] as number;
      const clamped = v > 1 ? 1 : v < -1 ? -1 : v;
      out[k++] = Math.round(clamped * 32767);
    }
  }
  if (meta) {
    const at = 44 + dataBytes;
    text(at, META_CHUNK);
    view.setUint32(at + 4, metaBytes.length, true);
    new Uint8Array(buf, at + 8, metaBytes.length).set(metaBytes);
  }
  return new Uint8Array(buf);
}
