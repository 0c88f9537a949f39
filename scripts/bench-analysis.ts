/**
 * `npm run bench -- analysis`: the tempo and key analysis
 * (functions/src/domain/audio/analysis.ts) on a hundred of the embedded
 * synthesiser's songs of known tempo and key (local/src/music/analysis-songs.ts),
 * again on a second, disjoint hundred, and the time it takes on a 240 s track at 48 kHz, read from its WAV as the
 * workflow reads it.
 */
import { analyse } from '../functions/src/domain/audio/analysis';
import { parseWav } from '../functions/src/domain/audio/wav';
import { knownSongs, measureAccuracy } from '../local/src/music/analysis-songs';
import { encodeWav, renderTrack } from '../local/src/music/synth';

const percent = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(0)}%)`;

export async function analysisBench(say: (line?: string) => void): Promise<void> {
  for (const set of ['first', 'second'] as const) {
    const report = measureAccuracy(knownSongs(100, 30, set), analyse);
    say(
      set === 'first'
        ? 'Tempo and key analysis, 100 synthesiser songs of 30 s (60–180 BPM, all 24 keys, 12 styles):'
        : 'The same on a second set of 100 (other seeds, tempos half a step on, keys and styles paired otherwise):',
    );
    say(
      `  tempo within ±1 BPM   ${percent(report.tempo.exact, report.songs)}; exactly double or half ${report.tempo['double-or-half']}; other ${report.tempo.wrong}`,
    );
    say(
      `  key exact             ${percent(report.key.exact, report.songs)}; relative major/minor ${report.key.relative}; other ${report.key.wrong}`,
    );
    for (const { song, found } of report.misses)
      say(`    missed: ${song.tags} -> ${found ? `${found.bpm} BPM, ${found.key}` : 'nothing'}`);
  }

  const seconds = 240;
  const wav = encodeWav(renderTrack({ tags: 'pop, upbeat, 128 bpm, A minor', duration: seconds, seed: 7 }));
  const times: number[] = [];
  let result: ReturnType<typeof analyse>;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    result = analyse(parseWav(wav));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  say(
    `  ${seconds} s track, 48 kHz stereo WAV: analysed in ${Math.round(times[2] as number)} ms (median of 5, one core; fastest ${Math.round(times[0] as number)} ms) -> ${result?.bpm} BPM, ${result?.key}, confidence ${result?.confidence}`,
  );
}
