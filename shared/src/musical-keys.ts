/**
 * Tempo and key as a person writes them and as the app stores them, free of
 * zod (the create form's options and the track card need only these).
 *
 * A key is stored in one spelling: the tonic with sharps, as XMP's
 * `xmpDM:key` names pitches (C, C#, D, D#, E, F, F#, G, G#, A, A#, B), then
 * `major` or `minor`: "A minor", "D# major". Input may spell the tonic with a
 * flat (`Eb major`, `B♭ minor`) or a sharp, in any letter case.
 */

export const BPM_MIN = 40;
export const BPM_MAX = 240;

/** The twelve pitch classes from C, in the stored spelling. */
export const PITCH_CLASSES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
export type PitchClassName = (typeof PITCH_CLASSES)[number];

export const KEY_MODES = ['major', 'minor'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

/** The 24 keys in the stored spelling: C major, C minor, C# major, … B minor. */
export const MUSICAL_KEYS: readonly string[] = PITCH_CLASSES.flatMap((p) =>
  KEY_MODES.map((m) => `${p} ${m}`),
);

const LETTERS: Record<string, number> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };

/** A key's tonic (pitch class, 0 = C) and mode. */
export interface KeyParts {
  tonic: number;
  mode: KeyMode;
}

/**
 * Reads a key as people write it: a letter, an optional sharp (`#`, `♯`) or
 * flat (`b`, `♭`), a space, then `major` or `minor`. Undefined when it is not one.
 */
export function parseKey(text: string): KeyParts | undefined {
  const m = /^\s*([a-g])\s*(#|♯|b|♭)?\s+(major|minor)\s*$/i.exec(text);
  if (!m) return undefined;
  const letter = LETTERS[(m[1] as string).toLowerCase()] as number;
  const accidental = m[2] === '#' || m[2] === '♯' ? 1 : m[2] ? -1 : 0;
  return { tonic: (letter + accidental + 12) % 12, mode: (m[3] as string).toLowerCase() as KeyMode };
}

/** The stored spelling of a key: "A minor", "D# major". */
export function keyName(parts: KeyParts): string {
  return `${PITCH_CLASSES[((parts.tonic % 12) + 12) % 12]} ${parts.mode}`;
}

/** A key in the stored spelling, or undefined when the text is not a key. */
export function normaliseKey(text: string): string | undefined {
  const parts = parseKey(text);
  return parts ? keyName(parts) : undefined;
}

/** How a key is offered in a list: the stored spelling, with the flat name beside a sharp ("D♯ / E♭ major"). */
export function keyLabel(key: string): string {
  const parts = parseKey(key);
  if (!parts) return key;
  const name = PITCH_CLASSES[parts.tonic] as string;
  if (!name.endsWith('#')) return key;
  const flat = `${PITCH_CLASSES[(parts.tonic + 1) % 12]}♭`;
  return `${name.replace('#', '♯')} / ${flat} ${parts.mode}`;
}

/**
 * What the music model is told of a requested tempo and key: appended to its
 * tags, as ACE-Step reads them ("120 bpm, A minor").
 */
export function tempoAndKeyTags(tags: string, asked: { bpm?: number | null; key?: string | null }): string {
  const extra = [asked.bpm ? `${asked.bpm} bpm` : '', asked.key ?? ''].filter(Boolean);
  return extra.length ? [tags, ...extra].join(', ') : tags;
}

/** A track's tempo and key as shown beside it: "120 BPM · A minor". */
export function analysisLabel(analysis: { bpm: number; key: string }): string {
  return `${Math.round(analysis.bpm)} BPM · ${analysis.key}`;
}
