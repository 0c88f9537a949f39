/**
 * Lyrics in time: the owner's lyrics lined up with the timed words a
 * recogniser heard in the song. Sung words transcribe badly (misheard, run
 * together, missed, words heard in the backing), so the text always comes
 * from the lyrics and only the times from the transcription: a global
 * alignment (dynamic programming, as an edit distance) over normalised words,
 * where a pair costs what the words differ by (spelling and sound), a word on
 * one side only costs a fixed gap, and two words may meet one (run together
 * or split apart). Lyric words left without a heard partner get times
 * between their neighbours'.
 */
import type { TimedLine, TimedLyrics, TimedWord } from '@tunesmith/shared/lyrics';
import { type KnownLine, knownLyrics, normaliseToken } from './known-lyrics';
import { soundKey, wordSimilarity } from './similarity';

/** A word as the recogniser heard it, with when (seconds). */
export interface HeardWord {
  text: string;
  start: number;
  end: number;
}

/** A lyric word (or a heard word) with no partner costs this much. */
const GAP = 0.6;
/** Two words meeting one costs this much more than their likeness says. */
const JOIN = 0.5;
/** A pair less alike than this takes no time from the heard word: it is placed between its neighbours. */
const MIN_SIMILARITY = 0.25;
/** Seconds per syllable when nothing says. */
const DEFAULT_WORD_SECONDS = 0.3;

type Move = 0 | 1 | 2 | 3 | 4 | 5;
const PAIR: Move = 1;
const SKIP_KNOWN: Move = 2;
const SKIP_HEARD: Move = 3;
const TWO_KNOWN: Move = 4;
const TWO_HEARD: Move = 5;

interface Span {
  start: number;
  end: number;
}

/** For each lyric word, the time span of the heard word(s) it lines up with, or undefined. */
export function matchWords(known: readonly string[], heard: readonly HeardWord[]): Array<Span | undefined> {
  const n = known.length;
  const m = heard.length;
  const tokens = heard.map((h) => normaliseToken(h.text));
  const width = m + 1;
  const cost = new Float64Array((n + 1) * width);
  const move = new Uint8Array((n + 1) * width);
  const at = (i: number, j: number) => i * width + j;
  // Lyrics repeat (choruses) and so does what is heard: each pair of distinct words is compared once,
  // and each joined pair once per word it is compared with.
  const ids = (words: readonly string[]) => {
    const seen = new Map<string, number>();
    return {
      of: words.map((w) => seen.get(w) ?? (seen.set(w, seen.size).get(w) as number)),
      count: () => seen.size,
    };
  };
  const k = ids(known);
  const h = ids(tokens);
  const kn = k.count();
  const hn = h.count();
  const lazy = (size: number) => new Float64Array(size).fill(Number.NaN);
  const pairs = lazy(kn * hn);
  const knownJoined = lazy((n + 1) * hn);
  const heardJoined = lazy((m + 1) * kn);
  const cached = (table: Float64Array, at: number, a: string, b: string) => {
    let v = table[at] as number;
    if (Number.isNaN(v)) {
      v = wordSimilarity(a, b);
      table[at] = v;
    }
    return v;
  };
  const knownKeys = known.map(soundKey);
  const heardKeys = tokens.map(soundKey);
  const pairSim = (i: number, j: number) => {
    const at = (k.of[i] as number) * hn + (h.of[j] as number);
    let v = pairs[at] as number;
    if (Number.isNaN(v)) {
      v = wordSimilarity(known[i] as string, tokens[j] as string, knownKeys[i], heardKeys[j]);
      pairs[at] = v;
    }
    return v;
  };
  /** Lyric words i-1 and i run together, against heard word j. */
  const knownJoinedSim = (i: number, j: number) =>
    cached(knownJoined, i * hn + (h.of[j] as number), `${known[i - 1]}${known[i]}`, tokens[j] as string);
  /** Lyric word i, against heard words j-1 and j run together. */
  const heardJoinedSim = (i: number, j: number) =>
    cached(heardJoined, j * kn + (k.of[i] as number), known[i] as string, `${tokens[j - 1]}${tokens[j]}`);
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      if (i === 0 && j === 0) continue;
      let best = Number.POSITIVE_INFINITY;
      let how: Move = 0;
      if (i > 0 && j > 0) {
        best = (cost[at(i - 1, j - 1)] as number) + 1 - pairSim(i - 1, j - 1);
        how = PAIR;
      }
      // Once everything heard is placed, among equal choices the lyric words left out are the last ones:
      // lines the song did not get to, not lines before them.
      if (i > 0) {
        const c = (cost[at(i - 1, j)] as number) + GAP - (j === m ? i * 1e-9 : 0);
        if (c < best) {
          best = c;
          how = SKIP_KNOWN;
        }
      }
      if (j > 0) {
        const c = (cost[at(i, j - 1)] as number) + GAP;
        if (c < best) {
          best = c;
          how = SKIP_HEARD;
        }
      }
      // A join costs at least 1 + JOIN - 1: only worth comparing when that could beat the best so far.
      if (i > 1 && j > 0 && (cost[at(i - 2, j - 1)] as number) + JOIN < best) {
        const c = (cost[at(i - 2, j - 1)] as number) + 1 + JOIN - knownJoinedSim(i - 1, j - 1);
        if (c < best) {
          best = c;
          how = TWO_KNOWN;
        }
      }
      if (i > 0 && j > 1 && (cost[at(i - 1, j - 2)] as number) + JOIN < best) {
        const c = (cost[at(i - 1, j - 2)] as number) + 1 + JOIN - heardJoinedSim(i - 1, j - 1);
        if (c < best) {
          best = c;
          how = TWO_HEARD;
        }
      }
      cost[at(i, j)] = best;
      move[at(i, j)] = how;
    }
  }
  const spans: Array<Span | undefined> = new Array(n).fill(undefined);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const mv = move[at(i, j)] as Move;
    if (mv === PAIR) {
      const h = heard[j - 1] as HeardWord;
      if (pairSim(i - 1, j - 1) >= MIN_SIMILARITY) spans[i - 1] = { start: h.start, end: h.end };
      i--;
      j--;
    } else if (mv === SKIP_KNOWN) i--;
    else if (mv === SKIP_HEARD) j--;
    else if (mv === TWO_KNOWN) {
      const h = heard[j - 1] as HeardWord;
      const a = known[i - 2] as string;
      const b = known[i - 1] as string;
      if (knownJoinedSim(i - 1, j - 1) >= MIN_SIMILARITY) {
        // One heard word for two sung ones: its time is shared by their lengths.
        const cut =
          h.start +
          ((h.end - h.start) * Math.max(1, a.length)) / (Math.max(1, a.length) + Math.max(1, b.length));
        spans[i - 2] = { start: h.start, end: cut };
        spans[i - 1] = { start: cut, end: h.end };
      }
      i -= 2;
      j--;
    } else if (mv === TWO_HEARD) {
      const first = heard[j - 2] as HeardWord;
      const second = heard[j - 1] as HeardWord;
      if (heardJoinedSim(i - 1, j - 1) >= MIN_SIMILARITY)
        spans[i - 1] = { start: first.start, end: second.end };
      i--;
      j -= 2;
    } else break;
  }
  return spans;
}

const median = (values: number[]): number | undefined => {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Roughly how many syllables a word has (its vowel groups): a sung word lasts about that many notes. */
const weightOf = (token: string) => Math.max(1, token.match(/[aeiouyàâäéèêëïîôöùûüœæåøáíóú]+/g)?.length ?? 1);

/**
 * Times for words `from..to-1` (none matched) laid out one after another
 * from `start`, each as long as its share of `length` (by its letters).
 */
function layOut(
  spans: Array<Span | undefined>,
  tokens: string[],
  from: number,
  to: number,
  start: number,
  length: number,
) {
  const total = tokens.slice(from, to).reduce((s, t) => s + weightOf(t), 0);
  let t = start;
  for (let k = from; k < to; k++) {
    const d = total ? (length * weightOf(tokens[k] as string)) / total : 0;
    spans[k] = { start: t, end: t + d };
    t += d;
  }
}

/**
 * Fills the words without a time. A run of them between two timed words is
 * split by line: the words of the earlier word's line follow it, those of
 * the later word's line lead up to it (a line is sung together, a break
 * falls between lines), and whole lines in between share what is left.
 */
function fillGaps(
  spans: Array<Span | undefined>,
  tokens: string[],
  lineOf: number[],
  duration: number | undefined,
) {
  const n = spans.length;
  const timed = spans.filter((s): s is Span => s !== undefined);
  // The pace of the singing: seconds from one word's start to the next's, per syllable, in each line
  // (sections are sung at different paces) and over the song.
  const paces: number[] = [];
  const linePaces = new Map<number, number[]>();
  for (let k = 1; k < n; k++) {
    const a = spans[k - 1];
    const b = spans[k];
    if (a && b && lineOf[k] === lineOf[k - 1] && b.start > a.start) {
      const p = (b.start - a.start) / weightOf(tokens[k - 1] as string);
      paces.push(p);
      const line = lineOf[k] as number;
      linePaces.set(line, [...(linePaces.get(line) ?? []), p]);
    }
  }
  const pace = Math.min(1, median(paces) ?? DEFAULT_WORD_SECONDS);
  const paceOf = (line: number) => Math.min(1, median(linePaces.get(line) ?? []) ?? pace);
  const natural = (from: number, to: number) =>
    tokens.slice(from, to).reduce((s, t, k) => s + paceOf(lineOf[from + k] as number) * weightOf(t), 0);
  if (!timed.length) {
    // Nothing heard to go by: the lines spread over the song.
    const length = duration && duration > 0 ? duration : natural(0, n) * 1.5;
    layOut(spans, tokens, 0, n, 0, length);
    return;
  }
  let k = 0;
  while (k < n) {
    if (spans[k]) {
      k++;
      continue;
    }
    let e = k;
    while (e < n && !spans[e]) e++;
    const before = k > 0 ? (spans[k - 1] as Span) : undefined;
    const after = e < n ? (spans[e] as Span) : undefined;
    if (!before && after) {
      const length = natural(k, e);
      const start = Math.max(0, after.start - length);
      layOut(spans, tokens, k, e, start, after.start - start);
    } else if (before && !after) {
      const length = natural(k, e);
      const end =
        duration && duration > before.end ? Math.min(duration, before.end + length) : before.end + length;
      layOut(spans, tokens, k, e, before.end, end - before.end);
    } else if (before && after) {
      // A line's last note is often held into the next line's first: the gap opens when the word
      // before would have given way at the line's pace.
      const gapStart = Math.min(before.end, before.start + natural(k - 1, k));
      const gapEnd = Math.max(gapStart, after.start);
      const gap = gapEnd - gapStart;
      // Words on the earlier word's line, words on the later word's line, and whole lines between.
      let tail = k;
      while (tail < e && lineOf[tail] === lineOf[k - 1]) tail++;
      let head = e;
      while (head > tail && lineOf[head - 1] === lineOf[e]) head--;
      const tailLength = natural(k, tail);
      const headLength = natural(head, e);
      const middleLength = natural(tail, head);
      const wanted = tailLength + headLength + middleLength;
      if (wanted >= gap || lineOf[k - 1] === lineOf[e]) {
        // No room to spare, or all in one line: the gap is shared by the words.
        layOut(spans, tokens, k, e, gapStart, gap);
      } else {
        layOut(spans, tokens, k, tail, gapStart, tailLength);
        layOut(spans, tokens, head, e, gapEnd - headLength, headLength);
        // Whole lines nobody heard: each at a natural pace, the spare time spread between them.
        const lineStarts: number[] = [];
        for (let w = tail; w < head; w++) if (w === tail || lineOf[w] !== lineOf[w - 1]) lineStarts.push(w);
        const pad = (gap - wanted) / (lineStarts.length + 1);
        let t = gapStart + tailLength;
        lineStarts.forEach((from, li) => {
          const to = lineStarts[li + 1] ?? head;
          const length = natural(from, to);
          t += pad;
          layOut(spans, tokens, from, to, t, length);
          t += length;
        });
      }
    }
    k = e;
  }
}

const ms = (t: number) => Math.round(t * 1000) / 1000;

/**
 * The owner's `lyrics` in time, from the timed words a recogniser `heard`
 * (of a track `duration` seconds long, when known). Every line and word of
 * the lyrics is there, as written; section tags are not.
 */
export function alignLyrics(
  lyrics: string | KnownLine[],
  heard: readonly HeardWord[],
  options: { duration?: number; source?: TimedLyrics['source'] } = {},
): TimedLyrics {
  const lines = typeof lyrics === 'string' ? knownLyrics(lyrics) : lyrics;
  const words = lines.flatMap((line, li) => line.words.map((w) => ({ ...w, line: li })));
  const ordered = [...heard]
    .filter((h) => Number.isFinite(h.start) && Number.isFinite(h.end) && normaliseToken(h.text))
    .sort((a, b) => a.start - b.start);
  // Words that are all punctuation ("&", "—") take part in the timing but are never matched.
  const tokens = words.map((w) => w.token);
  const spans = matchWords(
    tokens.map((t) => t || '\u0000'),
    ordered,
  );
  fillGaps(
    spans,
    tokens,
    words.map((w) => w.line),
    options.duration,
  );
  let last = 0;
  const timedWords: TimedWord[] = words.map((w, k) => {
    const span = spans[k] as Span;
    // Times never go back: a word starts no earlier than the one before it.
    const start = Math.max(last, span.start);
    const end = Math.max(start, span.end);
    last = start;
    return { start: ms(start), end: ms(end), text: w.text };
  });
  const out: TimedLine[] = [];
  let k = 0;
  for (const line of lines) {
    const lineWords = timedWords.slice(k, k + line.words.length);
    k += line.words.length;
    out.push({
      start: lineWords[0]?.start ?? 0,
      end: Math.max(...lineWords.map((w) => w.end)),
      text: line.text,
      words: lineWords,
    });
  }
  return { source: options.source ?? 'aligned', lines: out };
}
