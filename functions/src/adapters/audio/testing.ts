/** Test helpers for the Opus encoders: music to encode, libopus's own decoder, and how close the result is. */
import { createRequire } from 'node:module';
import type { PcmSource } from '../../domain/audio/pcm';
import { resample } from '../../domain/audio/resample';
import { readOggPages } from '../../domain/audio/testing';

/** The package's own decoder wrapper: a second opinion on what we wrote. */
interface Decoder {
  decode(packet: Buffer): Buffer;
  delete(): void;
}
const OpusScript = createRequire(import.meta.url)('opusscript') as new (
  rate: number,
  channels: number,
) => Decoder;

/** Something like music: two chords that move, different in each ear, with a sweep on top. */
export function music(seconds: number, rate: number): Float32Array[] {
  const n = Math.round(seconds * rate);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const sweep = 0.1 * Math.sin(2 * Math.PI * (200 * t + 400 * t * t));
    left[i] = 0.25 * Math.sin(2 * Math.PI * 220 * t) + 0.15 * Math.sin(2 * Math.PI * 330 * t) + sweep;
    right[i] = 0.25 * Math.sin(2 * Math.PI * 277 * t) + 0.15 * Math.sin(2 * Math.PI * 415 * t) + sweep;
  }
  return [left, right];
}

/** Decodes every audio packet and drops the pre-skip: what a player plays, per channel. */
export function decode(ogg: Uint8Array): { channels: Float32Array[]; preSkip: number; length: number } {
  const pages = readOggPages(ogg);
  const opusHead = pages[0]?.packets[0] as Uint8Array;
  const channelCount = opusHead[9] as number;
  const preSkip = new DataView(opusHead.buffer, opusHead.byteOffset).getUint16(10, true);
  const length = Number(pages.at(-1)?.granule) - preSkip;
  const decoder = new OpusScript(48000, channelCount);
  const pcm: number[] = [];
  for (const packet of pages.slice(2).flatMap((p) => p.packets)) {
    const out = decoder.decode(Buffer.from(packet));
    for (let i = 0; i < out.length; i += 2) pcm.push(out.readInt16LE(i) / 32768);
  }
  decoder.delete();
  const channels = Array.from({ length: channelCount }, (_, c) => {
    const plane = new Float32Array(length);
    for (let i = 0; i < length; i++) plane[i] = pcm[(preSkip + i) * channelCount + c] ?? 0;
    return plane;
  });
  return { channels, preSkip, length };
}

/** Signal-to-error ratio of `played` against `source` shifted by `lag`, in dB, over `[from, to)` (the middle by default). */
export function snrDb(
  played: Float32Array,
  source: Float32Array,
  lag = 0,
  from = 4800,
  to = source.length - 4800,
): number {
  let signal = 0;
  let error = 0;
  for (let i = from; i < to; i++) {
    const expected = source[i] as number;
    signal += expected * expected;
    error += ((played[i + lag] as number) - expected) ** 2;
  }
  return 10 * Math.log10(signal / error);
}

/** The shift within ±400 samples at which `played` matches `source` best. */
export function bestLag(played: Float32Array, source: Float32Array): number {
  let best = { lag: Number.NaN, snr: -Infinity };
  for (let lag = -400; lag <= 400; lag++) {
    const snr = snrDb(played, source, lag);
    if (snr > best.snr) best = { lag, snr };
  }
  return best.lag;
}

export const at48k = (source: PcmSource, channel: number) => {
  const out = new Float32Array(resample(source, 48000).frames);
  resample(source, 48000).read(channel, 0, out);
  return out;
};
