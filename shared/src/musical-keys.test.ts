import { describe, expect, it } from 'vitest';
import {
  analysisLabel,
  keyLabel,
  MUSICAL_KEYS,
  normaliseKey,
  parseKey,
  tempoAndKeyTags,
} from './musical-keys';

describe('musical keys', () => {
  it('lists the 24 keys once each, in the stored spelling', () => {
    expect(MUSICAL_KEYS).toHaveLength(24);
    expect(new Set(MUSICAL_KEYS).size).toBe(24);
    expect(MUSICAL_KEYS.slice(0, 4)).toEqual(['C major', 'C minor', 'C# major', 'C# minor']);
    for (const key of MUSICAL_KEYS) expect(normaliseKey(key)).toBe(key);
  });

  it('reads a tonic with a sharp or a flat, in any case, as its pitch class', () => {
    expect(parseKey('F# minor')).toEqual({ tonic: 6, mode: 'minor' });
    expect(parseKey('gb MINOR')).toEqual({ tonic: 6, mode: 'minor' });
    expect(parseKey('E♯ major')).toEqual({ tonic: 5, mode: 'major' });
    expect(parseKey('A')).toBeUndefined();
    expect(parseKey('A minor, pop')).toBeUndefined();
  });

  it('labels a key with the flat beside a sharp, and a tempo and key as shown', () => {
    expect(keyLabel('A# minor')).toBe('A♯ / B♭ minor');
    expect(keyLabel('A minor')).toBe('A minor');
    expect(analysisLabel({ bpm: 119.6, key: 'A minor' })).toBe('120 BPM · A minor');
  });

  it("adds a tempo and key asked for to the model's tags, as ACE-Step reads them", () => {
    expect(tempoAndKeyTags('pop, upbeat', { bpm: 120, key: 'A minor' })).toBe(
      'pop, upbeat, 120 bpm, A minor',
    );
    expect(tempoAndKeyTags('pop', { bpm: 90 })).toBe('pop, 90 bpm');
    expect(tempoAndKeyTags('pop', { key: null, bpm: null })).toBe('pop');
  });
});
