import { describe, expect, it } from 'vitest';
import { analyse, estimateKey } from './analysis';
import { RealFft } from './fft';
import type { PcmSource } from './pcm';

const RATE = 48_000;

const midiHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

/**
 * A known song: a kick on every beat and a hat on every off-beat at `bpm`,
 * over a chord a bar (triads of sine tones) walking I–IV–V–I or i–iv–v–i of
 * the key whose tonic is MIDI `tonic`, stereo at 48 kHz.
 */
function song(bpm: number, tonic: number, mode: 'major' | 'minor', seconds = 30): PcmSource {
  const frames = seconds * RATE;
  const left = new Float32Array(frames);
  const beat = (60 / bpm) * RATE;
  const third = mode === 'major' ? 4 : 3;
  const chords = [
    [0, third, 7],
    [5, 5 + (mode === 'major' ? 4 : 3), 12],
    [7, 11, 14],
    [0, third, 7],
  ];
  for (let b = 0; b * beat < frames; b++) {
    const at = Math.round(b * beat);
    for (let i = 0; i < 0.15 * RATE && at + i < frames; i++) {
      const t = i / RATE;
      left[at + i] =
        (left[at + i] as number) +
        0.6 * Math.sin(2 * Math.PI * (50 + 80 * Math.exp(-t * 30)) * t) * Math.exp(-t * 20);
    }
    const off = Math.round((b + 0.5) * beat);
    let seed = b * 7919 + 1;
    for (let i = 0; i < 0.03 * RATE && off + i < frames; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      left[off + i] =
        (left[off + i] as number) + 0.1 * ((seed / 0x7fffffff) * 2 - 1) * Math.exp((-i / RATE) * 150);
    }
  }
  const bar = beat * 4;
  for (let b = 0; b * bar < frames; b++) {
    const chord = chords[b % 4] as number[];
    const start = Math.round(b * bar);
    const end = Math.min(frames, Math.round((b + 1) * bar));
    for (const step of chord) {
      for (const octave of [0, 12]) {
        const hz = midiHz(tonic + step + octave);
        for (let i = start; i < end; i++)
          left[i] = (left[i] as number) + 0.08 * Math.sin((2 * Math.PI * hz * (i - start)) / RATE);
      }
    }
    const bass = midiHz(tonic - 12 + (chord[0] as number));
    for (let i = start; i < end; i++)
      left[i] = (left[i] as number) + 0.12 * Math.sin((2 * Math.PI * bass * (i - start)) / RATE);
  }
  const right = left.map((v) => v * 0.9);
  return {
    sampleRate: RATE,
    channels: 2,
    frames,
    read(channel, start, into) {
      const from = channel === 0 ? left : right;
      for (let i = 0; i < into.length; i++) into[i] = from[start + i] ?? 0;
    },
  };
}

describe('analyse', () => {
  it.each([
    [128, 62, 'major', 'D major'],
    [90, 57, 'minor', 'A minor'],
    [150, 55, 'major', 'G major'],
    [72, 53, 'minor', 'F minor'],
  ] as const)('finds %i BPM and the key of a known song (tonic %i, %s)', (bpm, tonic, mode, key) => {
    const result = analyse(song(bpm, tonic, mode));
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
    const blip = song(120, 60, 'major', 1);
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
