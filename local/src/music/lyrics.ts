/**
 * The lyric writer of the embedded provider: [verse]/[chorus]/[bridge] lyrics
 * built from the prompt's own words, rhymed from a small word list, sized so
 * they can be sung in the requested duration. Deterministic per prompt+seed.
 */
import { hashString, Rng } from './prng';
import { syllables } from './synth';

const STOP = new Set(
  'a an the and or but for with about into from that this these those of to in on at by is are was be been it its my your our their me you we they he she him her his hers them us song songs lyrics lyric write make create please some something about like want would could should can will just very really track music'.split(
    ' ',
  ),
);

const RHYMES: readonly (readonly string[])[] = [
  ['night', 'light', 'bright', 'tonight', 'flight', 'right', 'sight'],
  ['heart', 'start', 'apart', 'art', 'part', 'chart'],
  ['fire', 'higher', 'desire', 'wire', 'choir'],
  ['day', 'way', 'stay', 'play', 'away', 'say'],
  ['true', 'through', 'blue', 'new', 'you', 'view'],
  ['sky', 'fly', 'high', 'why', 'goodbye', 'try'],
  ['dream', 'stream', 'gleam', 'seem', 'team', 'beam'],
  ['go', 'glow', 'flow', 'know', 'slow', 'show'],
  ['rain', 'again', 'lane', 'train', 'flame', 'name'],
  ['home', 'roam', 'alone', 'stone', 'known', 'own'],
];

const OPENERS = [
  'We keep on chasing',
  'I can feel the',
  'Every little',
  'Running through the',
  'Holding on to',
  'Under neon',
  'Dancing with the',
  'Singing of the',
  'Calling out the',
  'Waiting for the',
];

const MIDDLES = ['in the', 'all the', 'through the', 'with a', 'like a', 'under', 'over', 'across the'];

export interface LyricsInput {
  prompt: string;
  /** Seconds of music the lyrics must fit (5..240). */
  duration?: number;
  seed?: number;
  /** Tempo the lyrics will be sung at (beats per minute); 100 when unknown. */
  bpm?: number;
}

/** The content words of a prompt, in order, each once. */
export function themeWords(prompt: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of prompt.toLowerCase().match(/[a-z']+/g) ?? []) {
    const w = raw.replace(/'s$/, '');
    if (w.length < 3 || STOP.has(w) || seen.has(w) || /^\d/.test(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out.length ? out : ['music', 'summer', 'city'];
}

/** Syllables that fit in the duration: about one per two eighth notes, less intro and outro. */
export function syllableBudget(duration: number, bpm = 100): number {
  const seconds = Math.min(240, Math.max(5, duration));
  const sung = Math.max(2, seconds - Math.min(8, seconds * 0.2));
  return Math.max(6, Math.floor((sung * bpm) / 60));
}

function line(rng: Rng, theme: string[], rhymeWord: string): string {
  const word = rng.pick(theme);
  const shape = rng.int(0, 2);
  const text =
    shape === 0
      ? `${rng.pick(OPENERS)} ${word} ${rng.pick(MIDDLES)} ${rhymeWord}`
      : shape === 1
        ? `${capitalise(word)} ${rng.pick(MIDDLES)} ${rng.pick(theme)} and ${rhymeWord}`
        : `${rng.pick(OPENERS)} ${rhymeWord}`;
  return capitalise(text);
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const countSyllables = (text: string) => text.split(/\s+/).flatMap(syllables).length;

/** Writes lyrics for the prompt: sections of rhymed couplets until the syllable budget is used. */
export function writeLyrics(input: LyricsInput): string {
  const duration = input.duration ?? 60;
  const rng = new Rng(hashString(`${input.prompt}|${input.seed ?? 0}`));
  const theme = themeWords(input.prompt);
  const budget = syllableBudget(duration, input.bpm);
  const form: Array<'verse' | 'chorus' | 'bridge'> = [
    'verse',
    'chorus',
    'verse',
    'chorus',
    'bridge',
    'chorus',
  ];
  const chorusLines: string[] = [];
  const sections: string[] = [];
  let used = 0;
  let f = 0;
  while (used < budget || sections.length < 2) {
    const kind = form[f % form.length] as 'verse' | 'chorus' | 'bridge';
    f++;
    const remaining = budget - used;
    // Each section is up to four lines (two for the bridge), fewer when time runs short.
    const maxLines = kind === 'bridge' ? 2 : 4;
    const lines: string[] = [];
    if (kind === 'chorus' && chorusLines.length) {
      for (const l of chorusLines) {
        if (lines.length && used + countSyllables(l) > budget) break;
        lines.push(l);
        used += countSyllables(l);
      }
    } else {
      const group = rng.pick(RHYMES);
      for (let i = 0; i < maxLines; i++) {
        const l = line(rng, theme, group[(i + rng.int(0, group.length - 1)) % group.length] as string);
        if (lines.length && used + countSyllables(l) > budget) break;
        lines.push(l);
        used += countSyllables(l);
        if (used >= budget && sections.length >= 1) break;
      }
      if (kind === 'chorus') chorusLines.push(...lines);
    }
    sections.push(`[${kind}]\n${lines.join('\n')}`);
    if (remaining <= 0 && sections.length >= 2) break;
  }
  return sections.join('\n\n');
}
