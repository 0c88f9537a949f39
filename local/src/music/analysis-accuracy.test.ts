import { analyse } from '@tunesmith/functions/domain/audio/analysis';
import { describe, expect, it } from 'vitest';
import { keyOutcome, knownSongs, measureAccuracy, renderKnown, tempoOutcome } from './analysis-songs';
import { encodeWav, metaFor, planFor, readWavMeta, renderTrack } from './synth';

// The analysis (functions/src/domain/audio) against songs whose tempo and key are known: the
// embedded synthesiser's, asked for a tempo and key as the product asks. The bench measures a
// hundred (npm run bench -- analysis); this holds 48 of them to the bars: the tempo within
// 1 BPM for 95% (a double or half counts as a miss), the key exact for 90%.

describe('tempo and key of known songs', () => {
  it('finds the key of at least 90% and the tempo within 1 BPM of at least 95% of 48 songs', () => {
    const report = measureAccuracy(knownSongs(48, 30), analyse);
    const misses = report.misses.map(({ song, found }) => `${song.tags} -> ${found?.bpm} ${found?.key}`);
    expect(report.key.exact / report.songs, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(report.tempo.exact / report.songs, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});

describe('the known songs', () => {
  it('spread over 60–180 BPM and all 24 keys, and are played as asked', () => {
    const songs = knownSongs(24, 10);
    expect(songs[0]?.bpm).toBe(60);
    expect(songs.at(-1)?.bpm).toBe(180);
    expect(new Set(songs.map((s) => s.key)).size).toBe(24);
    const song = songs[5] as (typeof songs)[number];
    const plan = planFor({ tags: song.tags, duration: 10, seed: song.seed });
    expect(plan.style.bpm).toBe(song.bpm);
    const meta = readWavMeta(
      encodeWav(
        renderTrack({ tags: song.tags, duration: 5, seed: song.seed }),
        48000,
        metaFor(plan, song.tags),
      ),
    );
    expect(meta?.bpm).toBe(song.bpm);
    expect(renderKnown({ ...song, seconds: 5 }).frames).toBe(5 * 48000);
  });

  it('come in a second set that shares no seed and no song (style, tempo and key) with the first', () => {
    const first = knownSongs(100, 30);
    const second = knownSongs(100, 30, 'second');
    const seeds = new Set(first.map((s) => s.seed));
    const songs = new Set(first.map((s) => s.tags));
    expect(second.some((s) => seeds.has(s.seed) || songs.has(s.tags))).toBe(false);
    expect(Math.min(...second.map((s) => s.bpm))).toBeGreaterThanOrEqual(60);
    expect(Math.max(...second.map((s) => s.bpm))).toBeLessThanOrEqual(180);
    expect(new Set(second.map((s) => s.key)).size).toBe(24);
  });

  it('count a tempo off by a factor of two, and a relative key, apart from the exact ones', () => {
    expect(tempoOutcome(120, 121)).toBe('exact');
    expect(tempoOutcome(120, 60)).toBe('double-or-half');
    expect(tempoOutcome(90, 181)).toBe('double-or-half');
    expect(tempoOutcome(120, 80)).toBe('wrong');
    expect(keyOutcome('A minor', 'A minor')).toBe('exact');
    expect(keyOutcome('A minor', 'C major')).toBe('relative');
    expect(keyOutcome('Eb major', 'C minor')).toBe('relative');
    expect(keyOutcome('A minor', 'E minor')).toBe('wrong');
  });
});
