/**
 * The owner's lyrics as lines of words, as they will be shown: section tags
 * (`[verse]`, `[chorus 2]`, `[instrumental]`) and blank lines left out, every
 * word kept as written (its punctuation too). Each word also has a normalised
 * token for matching against what a recogniser heard.
 */

export interface KnownWord {
  /** As written. */
  text: string;
  /** Lower case letters and digits only (accents removed); empty for a word that is all punctuation. */
  token: string;
}

export interface KnownLine {
  text: string;
  words: KnownWord[];
}

/** A line that is only a section tag: `[verse]`, `[Chorus 2]`, `[pre-chorus]`, `[inst]`. */
const SECTION_TAG = /^\[[^\]]*\]$/;

/** Lower case letters and digits of a word, accents removed ("Don't" → "dont", "Café" → "cafe"). */
export function normaliseToken(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The lines and words of lyrics as sung, without section tags. */
export function knownLyrics(lyrics: string): KnownLine[] {
  const lines: KnownLine[] = [];
  for (const raw of lyrics.split(/\r?\n/)) {
    const text = raw.trim().replace(/\s+/g, ' ');
    if (!text || SECTION_TAG.test(text)) continue;
    const words = text.split(' ').map((w) => ({ text: w, token: normaliseToken(w) }));
    if (words.some((w) => w.token)) lines.push({ text, words });
  }
  return lines;
}

/** Whether lyrics have any words to sing (not empty, not only tags such as `[instrumental]`). */
export const hasSungLyrics = (lyrics: string | null | undefined): boolean =>
  knownLyrics(lyrics ?? '').length > 0;
