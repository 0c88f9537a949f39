import { describe, expect, it } from 'vitest';
import { analyse, estimateKey } from './analysis';
import { RealFft } from './fft';
import type { PcmSource } from './pcm';
import { beatAndChords } from './testing';

const RATE = 48_000;

describe('analyse', () => {
  it.each([
    [128, 62, 'major', 'D major'],
    [90, 57, 'minor', 'A minor'],
    [150, 55, 'major', 'G major'],
    [72, 53, 'minor', 'F minor'],
  ] as const)('finds %i BPM and the key of a known song (tonic %i, %s)', (bpm, tonic, mode, key) => {
    const result = analyse(beatAndChords(bpm, tonic, mode));
    expect(result?.bpm).toBe(bpm);
    expect(result?.key).toBe(key);
    expect(result?.confidence).toBeGreaterThan(0);
    expect(result?.confidence).toBeLessThanOrEqual(1);
  });

  it('says nothing of silence or of audio too short to hold a beat', () => {
    const silent: PcmSource = {
      sampleRate: RATE,
      channels: 2,
      frames: 10 * RATE,
      read: (_c, _s, into) => into.fill(0),
    };
    expect(analyse(silent)).toBeUndefined();
    const blip = beatAndChords(120, 60, 'major', 1);
    expect(analyse(blip)).toBeUndefined();
  });
});

describe('estimateKey', () => {
  it('names the key whose scale the chroma follows, in the stored spelling', () => {
    // E flat major's scale, the tonic and fifth weighted most.
    const chroma = new Array(12).fill(0.1);
    for (const [step, w] of [
      [0, 6],
      [2, 3],
      [4, 4],
      [5, 4],
      [7, 5],
      [9, 3],
      [11, 2],
    ] as const)
      chroma[(3 + step) % 12] = w;
    expect(estimateKey(chroma).key).toBe('D# major');
  });
});

describe('RealFft', () => {
  it('gives the power spectrum a direct DFT gives', () => {
    const n = 64;
    const frame = Float64Array.from(
      { length: n },
      (_, i) => Math.sin(i * 0.7) + 0.3 * Math.cos(i * 2.1) + (i % 5) / 10,
    );
    const power = new Float64Array(n / 2 + 1);
    new RealFft(n).power(frame, power);
    for (let k = 0; k <= n / 2; k++) {
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i++) {
        re += (frame[i] as number) * Math.cos((2 * Math.PI * k * i) / n);
        im -= (frame[i] as number) * Math.sin((2 * Math.PI * k * i) / n);
      }
      expect(power[k]).toBeCloseTo(re * re + im * im, 6);
    }
  });
});
