/**
 * How well lyrics are timed, measured on the embedded provider's own songs,
 * whose every word's time is known: each song's lyrics (from its lyric
 * writer) are sung, heard by its recogniser (whisper.ts, with its mistakes)
 * and aligned (functions' domain/lyrics), and each aligned word's start is
 * compared with when it was sung. The unit test and `npm run bench -- lyrics`
 * both use it.
 */
import { alignLyrics } from '@tunesmith/functions/domain/lyrics/align';
import { knownLyrics } from '@tunesmith/functions/domain/lyrics/known-lyrics';
import { writeLyrics } from './lyrics';
import { planFor, SAMPLE_RATE, scoreFor, sungWordsOf, syllables } from './synth';
import { hear } from './whisper';

const GENRES = ['pop', 'rock', 'electronic', 'hip hop', 'jazz', 'lofi', 'folk', 'ambient', 'funk', 'country'];
const THEMES = [
  'summer city nights',
  'rain on the ocean',
  'mountain roads at dawn',
  'neon dreams',
  'an old friend',
];

export interface SongTiming {
  seed: number;
  words: number;
  /** |aligned start − sung start| of each sung word, seconds. */
  wordErrors: number[];
  /** |aligned line start − sung line start| of each line whose first word is sung, seconds. */
  lineErrors: number[];
  /** Milliseconds the alignment took. */
  alignMs: number;
}

/** One song of the measure: `seed` picks its genre, theme and length (30 to 240 s). */
export function timeSong(seed: number): SongTiming {
  const duration = 30 + ((seed * 37) % 211);
  const tags = `${GENRES[seed % GENRES.length]}, vocals`;
  const lyrics = writeLyrics({ prompt: `A song about ${THEMES[seed % THEMES.length]}`, duration, seed });
  const plan = planFor({ tags, lyrics, duration, seed });
  const score = scoreFor(plan);
  const heard = hear(sungWordsOf(plan, score.sung), seed).map((c) => ({
    text: c.text,
    start: c.timestamp[0],
    end: c.timestamp[1],
  }));
  const started = performance.now();
  const timed = alignLyrics(lyrics, heard, { duration: plan.totalSamples / SAMPLE_RATE });
  const alignMs = performance.now() - started;
  // The k-th sung word of a line is the k-th of its words with a syllable to sing.
  const truth = new Map<string, number>();
  const counts = new Map<number, number>();
  for (const w of score.sung) {
    if (w.start >= plan.totalSamples) continue;
    const k = counts.get(w.line) ?? 0;
    counts.set(w.line, k + 1);
    truth.set(`${w.line}:${k}`, w.start / SAMPLE_RATE);
  }
  const wordErrors: number[] = [];
  const lineErrors: number[] = [];
  const known = knownLyrics(lyrics);
  timed.lines.forEach((line, li) => {
    let k = 0;
    line.words.forEach((word, wi) => {
      if (!syllables(known[li]?.words[wi]?.text ?? '').length) return;
      const sung = truth.get(`${li}:${k}`);
      if (sung !== undefined) {
        wordErrors.push(Math.abs(word.start - sung));
        if (k === 0) lineErrors.push(Math.abs(line.start - sung));
      }
      k++;
    });
  });
  return { seed, words: wordErrors.length, wordErrors, lineErrors, alignMs };
}

export interface TimingQuality {
  songs: number;
  words: number;
  /** Median of every word's start error, milliseconds. */
  medianWordErrorMs: number;
  /** The largest line start error, milliseconds. */
  worstLineErrorMs: number;
  /** Median alignment time per song, milliseconds. */
  medianAlignMs: number;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length ? (s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2) : 0;
};

/** The measure over songs of seeds `seeds`. */
export function timingQuality(seeds: number[]): TimingQuality {
  const songs = seeds.map(timeSong);
  const words = songs.flatMap((s) => s.wordErrors);
  return {
    songs: songs.length,
    words: words.length,
    medianWordErrorMs: Math.round(median(words) * 1000),
    worstLineErrorMs: Math.round(Math.max(0, ...songs.flatMap((s) => s.lineErrors)) * 1000),
    medianAlignMs: Math.round(median(songs.map((s) => s.alignMs)) * 10) / 10,
  };
}
