/**
 * The known songs the tempo and key analysis is measured on: the embedded
 * synthesiser's songs at tempos spread evenly over 60–180 BPM, every one of
 * the 24 keys in turn, each of its styles in turn (with and without lyrics),
 * asked for the way the product asks (tags "120 bpm, A minor"). The unit test
 * asserts the accuracy on a few of them; `npm run bench -- analysis` prints it
 * on a hundred.
 */
import type { TempoAndKey } from '@tunesmith/functions/domain/audio/analysis';
import type { PcmSource } from '@tunesmith/functions/domain/audio/pcm';
import { MUSICAL_KEYS, parseKey } from '@tunesmith/shared/musical-keys';
import { renderTrack, SAMPLE_RATE } from './synth';

/** The synthesiser's styles as tags pick them, and some of their variants. */
const STYLES = [
  'pop',
  'synthwave',
  'lo-fi',
  'hip hop',
  'electronic',
  'jingle',
  'rock',
  'ambient',
  'jazz',
  'pop, female vocals',
  'energetic rock',
  'sad piano',
] as const;

const LYRICS =
  '[verse]\nwalking down the empty street\nsinging to the city lights\n[chorus]\noh here we go again';

export interface KnownSong {
  tags: string;
  bpm: number;
  key: string;
  seed: number;
  lyrics: string;
  seconds: number;
}

/**
 * The second set checks that what is measured on the first is not peculiar to its songs: other
 * seeds, tempos half a step on from the first set's, keys and styles paired otherwise, and other
 * songs with lyrics; no song of it is one of the first's.
 */
export type SongSet = 'first' | 'second';

/** `count` songs (at least 2) of `seconds` each: tempo, key and style as the module says. */
export function knownSongs(count: number, seconds: number, set: SongSet = 'first'): KnownSong[] {
  const second = set === 'second';
  return Array.from({ length: count }, (_, i) => {
    const bpm = 60 + Math.round(((second ? i + 0.5 : i) * 120) / (second ? count : count - 1));
    // A step of 7 keys visits all 24 (7 and 24 share no factor), so neighbours differ in tonic and mode.
    const key = MUSICAL_KEYS[(i * 7 + (second ? 5 : 0)) % MUSICAL_KEYS.length] as string;
    // The styles move on by one every 24 songs, so each style meets many keys, not the same two.
    const style = STYLES[
      (i + Math.floor(i / MUSICAL_KEYS.length) + (second ? 6 : 0)) % STYLES.length
    ] as string;
    return {
      tags: `${style}, ${bpm} bpm, ${key}`,
      bpm,
      key,
      seed: (second ? 2000 : 1000) + i,
      lyrics: i % 3 === (second ? 1 : 0) ? LYRICS : '',
      seconds,
    };
  });
}

/** A song's samples as the analysis reads them. */
export function renderKnown(song: KnownSong): PcmSource {
  const [left, right] = renderTrack({
    tags: song.tags,
    lyrics: song.lyrics,
    duration: song.seconds,
    seed: song.seed,
  }) as [Float32Array, Float32Array];
  return {
    sampleRate: SAMPLE_RATE,
    channels: 2,
    frames: left.length,
    read(channel, start, into) {
      const from = channel === 0 ? left : right;
      for (let i = 0; i < into.length; i++) into[i] = from[start + i] ?? 0;
    },
  };
}

export type TempoOutcome = 'exact' | 'double-or-half' | 'wrong';
export type KeyOutcome = 'exact' | 'relative' | 'wrong';

/** Within ±1 BPM; else exactly (±1) double or half; else wrong. */
export function tempoOutcome(asked: number, found: number | undefined): TempoOutcome {
  if (found === undefined) return 'wrong';
  if (Math.abs(found - asked) <= 1) return 'exact';
  if (Math.abs(found - asked * 2) <= 1 || Math.abs(found - asked / 2) <= 1) return 'double-or-half';
  return 'wrong';
}

/** The same key; else its relative (the minor a third below a major, or the major above a minor); else wrong. */
export function keyOutcome(asked: string, found: string | undefined): KeyOutcome {
  const a = parseKey(asked);
  const f = found === undefined ? undefined : parseKey(found);
  if (!a || !f) return 'wrong';
  if (a.tonic === f.tonic && a.mode === f.mode) return 'exact';
  const relative = a.mode === 'major' ? (a.tonic + 9) % 12 : (a.tonic + 3) % 12;
  return f.mode !== a.mode && f.tonic === relative ? 'relative' : 'wrong';
}

export interface AccuracyReport {
  songs: number;
  tempo: Record<TempoOutcome, number>;
  key: Record<KeyOutcome, number>;
  /** The songs not found exactly, for the report. */
  misses: Array<{ song: KnownSong; found: TempoAndKey | undefined }>;
}

/** Renders and analyses each song; counts the outcomes. */
export function measureAccuracy(
  songs: KnownSong[],
  analyse: (pcm: PcmSource) => TempoAndKey | undefined,
): AccuracyReport {
  const report: AccuracyReport = {
    songs: songs.length,
    tempo: { exact: 0, 'double-or-half': 0, wrong: 0 },
    key: { exact: 0, relative: 0, wrong: 0 },
    misses: [],
  };
  for (const song of songs) {
    const found = analyse(renderKnown(song));
    const tempo = tempoOutcome(song.bpm, found?.bpm);
    const key = keyOutcome(song.key, found?.key);
    report.tempo[tempo]++;
    report.key[key]++;
    if (tempo !== 'exact' || key !== 'exact') report.misses.push({ song, found });
  }
  return report;
}
