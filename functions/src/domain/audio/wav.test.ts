import { describe, expect, it } from 'vitest';
import { AudioFormatError } from './pcm';
import { tone, wavFile } from './testing';
import { parseWav } from './wav';

const read = (bytes: Uint8Array, channel: number, start: number, count: number) => {
  const out = new Float32Array(count);
  parseWav(bytes).read(channel, start, out);
  return [...out];
};

describe('parseWav', () => {
  const left = new Float32Array([0, 0.5, -0.5, 0.25, -1]);
  const right = new Float32Array([0.1, -0.1, 0.2, -0.2, 0.75]);

  it.each([
    ['pcm8', 1 / 64],
    ['pcm16', 1 / 16384],
    ['pcm24', 1e-6],
    ['pcm32', 1e-8],
    ['float32', 1e-7],
    ['float64', 1e-12],
  ] as const)('reads %s stereo samples per channel, scaled to [-1, 1]', (encoding, tolerance) => {
    const bytes = wavFile([left, right], { sampleRate: 44100, encoding });
    const source = parseWav(bytes);
    expect(source).toMatchObject({ sampleRate: 44100, channels: 2, frames: 5 });
    read(bytes, 0, 0, 5).forEach((x, i) => {
      expect(Math.abs(x - (left[i] as number))).toBeLessThanOrEqual(tolerance);
    });
    read(bytes, 1, 0, 5).forEach((x, i) => {
      expect(Math.abs(x - (right[i] as number))).toBeLessThanOrEqual(tolerance);
    });
  });

  it('reads WAVE_FORMAT_EXTENSIBLE files by their sub-format', () => {
    const pcm = parseWav(wavFile([left], { sampleRate: 48000, encoding: 'pcm24', extensible: true }));
    const float = parseWav(wavFile([left], { sampleRate: 48000, encoding: 'float32', extensible: true }));
    for (const source of [pcm, float]) {
      expect(source).toMatchObject({ sampleRate: 48000, channels: 1, frames: 5 });
      const out = new Float32Array(5);
      source.read(0, 0, out);
      expect(out[1]).toBeCloseTo(0.5, 5);
    }
  });

  it('reads 16-bit samples alike wherever the file sits in memory, aligned or not', () => {
    const bytes = wavFile([left, right], { sampleRate: 48000 });
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const odd = shifted.subarray(1);
    for (const [channel, start, count] of [
      [0, 0, 5],
      [1, 0, 5],
      [1, -3, 6],
      [0, 3, 4],
      [1, 7, 2],
    ] as const)
      expect(read(odd, channel, start, count)).toEqual(read(bytes, channel, start, count));
    expect(read(bytes, 1, -1, 3)).toEqual([0, 0.1, -0.1].map((x) => Math.round(x * 32767) / 32768));
  });

  it('reads silence before the start and past the end', () => {
    const bytes = wavFile([left], { sampleRate: 8000 });
    expect(read(bytes, 0, -2, 4).map((x) => Math.round(x * 100) / 100)).toEqual([0, 0, 0, 0.5]);
    expect(read(bytes, 0, 4, 3).map((x) => Math.round(x * 100) / 100)).toEqual([-1, 0, 0]);
  });

  it('counts what is there when the data size was never filled in or runs past the end', () => {
    const samples = tone(440, 0.01, 8000);
    for (const dataSize of [0, 0xffffffff, 1_000_000]) {
      expect(parseWav(wavFile([samples], { sampleRate: 8000, dataSize })).frames).toBe(samples.length);
    }
  });

  it('skips other chunks and refuses what it cannot read', () => {
    const plain = wavFile([left], { sampleRate: 8000 });
    // A LIST chunk of odd size (padded) between fmt and data.
    const list = new Uint8Array([...new TextEncoder().encode('LIST'), 3, 0, 0, 0, 1, 2, 3, 0]);
    const withList = new Uint8Array([...plain.subarray(0, 36), ...list, ...plain.subarray(36)]);
    expect(parseWav(withList).frames).toBe(5);

    expect(() => parseWav(new TextEncoder().encode('ID3 this is an mp3'))).toThrow(AudioFormatError);
    const noData = plain.subarray(0, 36);
    expect(() => parseWav(noData)).toThrow(/No data chunk/);
    const adpcm = plain.slice();
    new DataView(adpcm.buffer).setUint16(20, 2, true);
    expect(() => parseWav(adpcm)).toThrow(/Unsupported WAV encoding/);
  });
});
