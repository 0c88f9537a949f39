import { describe, expect, it } from 'vitest';
import { AudioFormatError, type PcmSource } from './pcm';
import { computePeaks, wavPeaksFile } from './peaks';
import { tone, wavFile } from './testing';
import { parseWav } from './wav';

const pairs = (data: number[]) => {
  const out: [number, number][] = [];
  for (let i = 0; i < data.length; i += 2) out.push([data[i] as number, data[i + 1] as number]);
  return out;
};

/** A full-scale square wave: +1 for `period / 2` frames, then -1. */
const square = (frames: number, period: number) =>
  Float32Array.from({ length: frames }, (_, i) => (i % period < period / 2 ? 1 : -1));

describe('computePeaks', () => {
  it('writes audiowaveform JSON v2, 8-bit, one channel, about 20 points a second', () => {
    const peaks = computePeaks(parseWav(wavFile([tone(440, 1.5, 44100)], { sampleRate: 44100 })));
    expect(peaks).toMatchObject({
      version: 2,
      channels: 1,
      sample_rate: 44100,
      samples_per_pixel: 2205,
      bits: 8,
      length: 30,
    });
    expect(peaks.data).toHaveLength(60);
    expect(computePeaks(parseWav(wavFile([tone(440, 0.1, 48000)], { sampleRate: 48000 })))).toMatchObject({
      sample_rate: 48000,
      samples_per_pixel: 2400,
    });
  });

  it.each([
    [44100, 44100],
    [44101, 44100],
    [2205 * 7 - 1, 44100],
    [1, 22050],
    [0, 44100],
  ])('has ceil(samples / samples_per_pixel) points for %i samples at %i Hz', (frames, rate) => {
    const peaks = computePeaks(parseWav(wavFile([new Float32Array(frames)], { sampleRate: rate })));
    const spp = Math.round(rate / 20);
    expect(peaks.samples_per_pixel).toBe(spp);
    expect(peaks.length).toBe(Math.ceil(frames / spp));
    expect(peaks.data).toHaveLength(peaks.length * 2);
  });

  it('gives silence 0 and 0 in every point', () => {
    const peaks = computePeaks(parseWav(wavFile([new Float32Array(44100 * 2)], { sampleRate: 44100 })));
    expect(peaks.length).toBe(40);
    expect(peaks.data.every((v) => v === 0)).toBe(true);
  });

  it('gives a full-scale square the whole 8-bit range, to the last partial point', () => {
    const frames = 44100 + 1000;
    const peaks = computePeaks(parseWav(wavFile([square(frames, 100)], { sampleRate: 44100 })));
    expect(peaks.length).toBe(21);
    expect(pairs(peaks.data)).toEqual(Array.from({ length: 21 }, () => [-128, 127]));
  });

  it('gives a half-scale sine about half the range', () => {
    const peaks = computePeaks(parseWav(wavFile([tone(440, 1, 44100, 0.5)], { sampleRate: 44100 })));
    for (const [min, max] of pairs(peaks.data)) {
      expect(Math.abs(min + 64)).toBeLessThanOrEqual(1);
      expect(Math.abs(max - 64)).toBeLessThanOrEqual(1);
    }
  });

  it('follows the loudness over time: one point per 50 ms', () => {
    // A second of half-scale sine, then a second of silence.
    const samples = new Float32Array(88200);
    samples.set(tone(440, 1, 44100, 0.5));
    const peaks = pairs(computePeaks(parseWav(wavFile([samples], { sampleRate: 44100 }))).data);
    expect(peaks).toHaveLength(40);
    expect(peaks.slice(0, 20).every(([min, max]) => min <= -63 && max >= 63)).toBe(true);
    expect(peaks.slice(20).every(([min, max]) => min === 0 && max === 0)).toBe(true);
  });

  it('mixes stereo down to one channel (the average of the channels)', () => {
    const left = new Float32Array(4410).fill(0.5);
    const right = new Float32Array(4410).fill(-0.25);
    const mixed = computePeaks(parseWav(wavFile([left, right], { sampleRate: 44100, encoding: 'float32' })));
    expect(mixed.channels).toBe(1);
    expect(pairs(mixed.data)).toEqual([
      [16, 16],
      [16, 16],
    ]);
    // Opposite channels cancel out.
    const cancelled = computePeaks(
      parseWav(wavFile([tone(440, 0.1, 44100), tone(440, 0.1, 44100, -0.5)], { sampleRate: 44100 })),
    );
    expect(cancelled.data.every((v) => v === 0)).toBe(true);
  });

  it('reads every sample once, in order, a pixel at a time', () => {
    const frames = 2205 * 3 + 17;
    const reads: { channel: number; start: number; count: number }[] = [];
    const source: PcmSource = {
      sampleRate: 44100,
      channels: 2,
      frames,
      read(channel, start, into) {
        reads.push({ channel, start, count: into.length });
        into.fill(channel === 0 ? 0.5 : 0);
      },
    };
    const peaks = computePeaks(source);
    expect(peaks.length).toBe(4);
    for (const channel of [0, 1]) {
      const own = reads.filter((r) => r.channel === channel);
      expect(own.map((r) => r.start)).toEqual([0, 2205, 4410, 6615]);
      expect(own.map((r) => r.count)).toEqual([2205, 2205, 2205, 17]);
    }
    expect(Math.max(...reads.map((r) => r.count))).toBe(peaks.samples_per_pixel);
    expect(pairs(peaks.data)).toEqual(Array.from({ length: 4 }, () => [32, 32]));
  });
});

describe('wavPeaksFile', () => {
  it('is the peaks as JSON bytes', () => {
    const bytes = wavPeaksFile(wavFile([square(4410, 10)], { sampleRate: 44100 }));
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    expect(parsed).toEqual({
      version: 2,
      channels: 1,
      sample_rate: 44100,
      samples_per_pixel: 2205,
      bits: 8,
      length: 2,
      data: [-128, 127, -128, 127],
    });
  });

  it('refuses what is not a WAV', () => {
    expect(() => wavPeaksFile(new TextEncoder().encode('not audio at all'))).toThrow(AudioFormatError);
  });
});
