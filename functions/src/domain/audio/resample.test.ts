import { describe, expect, it } from 'vitest';
import type { PcmSource } from './pcm';
import { resample } from './resample';
import { tone, wavFile } from './testing';
import { parseWav } from './wav';

const sourceOf = (samples: Float32Array, sampleRate: number): PcmSource =>
  parseWav(wavFile([samples], { sampleRate, encoding: 'float32' }));

const readAll = (source: PcmSource, channel = 0) => {
  const out = new Float32Array(source.frames);
  // In uneven pieces, as the encoder reads it: the result must not depend on them.
  for (let start = 0, size = 1; start < out.length; start += size, size = (size * 7) % 4099) {
    source.read(channel, start, out.subarray(start, Math.min(out.length, start + size)));
  }
  return out;
};

/** Error of `actual` against `expected` in dB below the signal, over the middle (away from the edges). */
function errorDb(actual: Float32Array, expected: Float32Array): number {
  let signal = 0;
  let noise = 0;
  const edge = Math.floor(actual.length / 10);
  for (let i = edge; i < actual.length - edge; i++) {
    signal += (expected[i] as number) ** 2;
    noise += ((actual[i] as number) - (expected[i] as number)) ** 2;
  }
  return 10 * Math.log10(noise / signal);
}

/** Level of `actual` against a full-scale 0.5 sine, in dB. */
function levelDb(actual: Float32Array): number {
  let energy = 0;
  for (const x of actual) energy += x * x;
  return 10 * Math.log10(energy / actual.length / 0.125);
}

describe('resample', () => {
  it('leaves audio at the target rate alone', () => {
    const source = sourceOf(tone(440, 0.1, 48000), 48000);
    expect(resample(source, 48000)).toBe(source);
  });

  it.each([
    [44100, 1000],
    [44100, 15000],
    [22050, 5000],
    [96000, 12000],
    [8000, 440],
    [44056, 3000], // no small common divisor: the nearest of 4096 phases
  ])('turns a tone at %i Hz into the same tone at 48 kHz (%i Hz)', (rate, frequency) => {
    const out = resample(sourceOf(tone(frequency, 0.5, rate), rate), 48000);
    expect(out.sampleRate).toBe(48000);
    expect(out.frames).toBe(Math.round((Math.round(0.5 * rate) * 48000) / rate));
    expect(errorDb(readAll(out), tone(frequency, 0.5, 48000))).toBeLessThan(-50);
  });

  it('keeps aliases out when going down: a 30 kHz tone at 96 kHz is gone at 48 kHz', () => {
    const out = resample(sourceOf(tone(30000, 0.5, 96000), 96000), 48000);
    expect(levelDb(readAll(out).subarray(4800, 19200))).toBeLessThan(-55);
  });

  it('passes the top of the audible band: an 18 kHz tone at 44.1 kHz keeps its level', () => {
    const out = readAll(resample(sourceOf(tone(18000, 0.5, 44100), 44100), 48000));
    expect(Math.abs(levelDb(out.subarray(2400, 21600)))).toBeLessThan(0.2);
  });

  it('resamples each channel', () => {
    const bytes = wavFile([tone(1000, 0.2, 44100), tone(2000, 0.2, 44100)], { sampleRate: 44100 });
    const out = resample(parseWav(bytes), 48000);
    expect(out.channels).toBe(2);
    expect(errorDb(readAll(out, 1), tone(2000, 0.2, 48000))).toBeLessThan(-50);
  });
});
