/**
 * How alike two normalised words are, 0 (nothing alike) to 1 (the same), for
 * lining up sung lyrics with what a recogniser heard: the better of their
 * spelling's likeness and their sound's (a rough phonetic key), since sung
 * words come back misspelt ("tonite"), misheard ("light" for "night") or
 * with their vowels bent.
 */

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, (prev[j] as number) + 1, (cur[j - 1] as number) + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/** 1 − distance / longer length. */
const spelling = (a: string, b: string): number =>
  a.length || b.length ? 1 - editDistance(a, b) / Math.max(a.length, b.length) : 1;

// Letters that sound alike share a class; vowels drop out after the first letter (as in Soundex),
// so "night", "nite" and "knight" share a key.
const SOUND_CLASS: Record<string, string> = {
  b: 'p',
  p: 'p',
  f: 'f',
  v: 'f',
  w: 'w',
  c: 'k',
  k: 'k',
  q: 'k',
  g: 'k',
  x: 'k',
  s: 's',
  z: 's',
  d: 't',
  t: 't',
  l: 'l',
  m: 'm',
  n: 'n',
  r: 'r',
  j: 'j',
  h: '',
  y: '',
};

/** A rough phonetic key: silent letters and spellings folded, vowels after the first sound dropped. */
export function soundKey(word: string): string {
  const w = word
    .replace(/^kn/, 'n')
    .replace(/^wr/, 'r')
    .replace(/gh/g, '')
    .replace(/ph/g, 'f')
    .replace(/ck/g, 'k')
    .replace(/th/g, 't')
    .replace(/sh|ch/g, 'j')
    .replace(/e$/, '');
  let key = '';
  let last = '';
  for (let i = 0; i < w.length; i++) {
    const ch = w[i] as string;
    const vowel = 'aeiou'.includes(ch);
    const cls = vowel ? (i === 0 ? 'a' : '') : (SOUND_CLASS[ch] ?? ch);
    if (cls && cls !== last) key += cls;
    if (!vowel) last = cls;
    else last = '';
  }
  return key;
}

/** Likeness of two normalised words, 0..1; their sound keys may be given when already known. */
export function wordSimilarity(a: string, b: string, ka = soundKey(a), kb = soundKey(b)): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const bySpelling = spelling(a, b);
  // A sound match counts a little less than a spelling match, and less the more the lengths differ;
  // keys of one sound collide too easily to count at all.
  const bySound =
    ka.length > 1 && kb.length > 1 ? 0.9 * spelling(ka, kb) - 0.1 * Math.abs(a.length - b.length) : 0;
  return Math.max(bySpelling, bySound);
}
