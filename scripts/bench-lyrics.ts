/**
 * `npm run bench -- lyrics`: how well lyrics are timed, and what timing costs.
 * Fifty of the embedded provider's songs (30 to 240 s, ten genres), each sung,
 * heard by its recogniser (local/src/music/whisper.ts: exact times, a seeded
 * share of words misheard, run together, split, missed or added) and aligned:
 * the median error of every word's start and the worst line's, against when
 * the synthesiser sang them. Then the time the TimeLyrics step spends beyond
 * the transcription (alignment and the write, in memory here): the step runs
 * after the track plays and its download is ready, so it adds nothing to
 * submit → playable; what it adds after that is the transcription's time
 * plus this.
 */
import type { TimedLyrics } from '@tunesmith/shared/lyrics';
import { timeTrackLyrics } from '../functions/src/domain/lyrics/lyrics-timing';
import { aGeneration } from '../functions/src/testing/fixtures';
import { writeLyrics } from '../local/src/music/lyrics';
import { timingQuality } from '../local/src/music/lyrics-timing';
import { planFor, sungWordsOf } from '../local/src/music/synth';
import { hear } from '../local/src/music/whisper';

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], p: number) =>
  values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

export async function lyricsBench(say: (line?: string) => void): Promise<void> {
  const seeds = Array.from({ length: 50 }, (_, i) => i + 1);
  const quality = timingQuality(seeds);
  say('Lyrics in time (embedded provider songs, known timings)');
  say(
    `  ${quality.songs} songs, ${quality.words} sung words: median word start error ${quality.medianWordErrorMs} ms (goal ≤ 100), worst line start error ${quality.worstLineErrorMs} ms (goal ≤ 500)`,
  );

  // The step beyond the transcription, for a 240 s song: align and keep.
  const lyrics = writeLyrics({ prompt: 'A song about summer city nights', duration: 240, seed: 3 });
  const heard = hear(sungWordsOf(planFor({ tags: 'pop, vocals', lyrics, duration: 240, seed: 3 })), 3).map(
    (c) => ({
      text: c.text,
      start: c.timestamp[0],
      end: c.timestamp[1],
    }),
  );
  const track = aGeneration({
    id: 'bench',
    status: 'completed',
    lyrics,
    duration: 240,
    audioUrl: 's3://b/tracks/x.wav',
  });
  const beyond: number[] = [];
  for (let i = 0; i < 21; i++) {
    let kept: TimedLyrics | undefined;
    const outcome = await timeTrackLyrics(
      {
        generations: { get: async () => track },
        lyrics: {
          get: async () => undefined,
          put: async (_id, timed) => {
            kept = timed;
            return true;
          },
        },
        transcribe: async () => heard,
        audioLink: async (stored) => stored,
      },
      'bench',
    );
    if (!outcome.timed || !kept) throw new Error('not timed');
    beyond.push(outcome.timings.align + outcome.timings.store);
  }
  const s = sorted(beyond);
  say(
    `  TimeLyrics beyond the transcription, 240 s song (${heard.length} heard words): p50 ${at(s, 50).toFixed(1)} ms, max ${at(s, 100).toFixed(1)} ms (of 21); alignment per song over the 50: median ${quality.medianAlignMs} ms`,
  );
  say(
    '  Before playback: 0 ms (the step runs after PrepareDownload); after it, the transcription plus the above',
  );
}
