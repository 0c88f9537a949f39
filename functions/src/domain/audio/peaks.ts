/**
 * A track's waveform as the player draws it: audiowaveform's JSON format,
 * version 2, 8-bit, one channel (the channels mixed down), about 20 points per
 * second. Made once when a track completes (and by the backfill for tracks from
 * before), stored beside the audio as `tracks/{id}.peaks.json`, so a browser
 * never decodes the audio to draw it.
 */
import { type Generation, TRACK_AUDIO_AREA } from '../tracks/track';
import type { PcmSource } from './pcm';
import { parseWav } from './wav';

/** audiowaveform's JSON waveform data, version 2 (https://github.com/bbc/audiowaveform, doc/DataFormat.md). */
export interface WaveformPeaks {
  version: 2;
  /** Channels in `data`: always 1 here (mixed down). */
  channels: 1;
  /** Sample rate of the audio the peaks were made from (Hz). */
  sample_rate: number;
  /** Audio frames summarised by each min/max pair. */
  samples_per_pixel: number;
  /** Resolution of the values: 8-bit, so each is in -128..127. */
  bits: 8;
  /** Number of min/max pairs: ceil(frames / samples_per_pixel). */
  length: number;
  /** `[min0, max0, min1, max1, ...]`, `length` pairs. */
  data: number[];
}

/** The media type the peaks are stored and served with. */
export const PEAKS_CONTENT_TYPE = 'application/json';

/** How a track's peaks file is named after its id. */
export const PEAKS_EXTENSION = '.peaks.json';

/** Where a track's peaks live in the tracks bucket: beside its WAV, keyed by the track id only. */
export const trackPeaksKey = (g: Pick<Generation, 'id'>) => `${TRACK_AUDIO_AREA}${g.id}${PEAKS_EXTENSION}`;

/** How many min/max pairs a second of audio gets. */
export const PEAKS_PER_SECOND = 20;

/** A sample in [-1, 1] as an 8-bit waveform value (-128..127). */
const eightBit = (x: number): number => Math.max(-128, Math.min(127, Math.round(x * 128)));

/**
 * The peaks of `source`, its channels mixed down (averaged) to one. Reads the
 * audio once, front to back, one pixel's worth of frames at a time, so memory
 * is the output plus one pixel's buffers, whatever the track's length.
 */
export function computePeaks(source: PcmSource, pointsPerSecond: number = PEAKS_PER_SECOND): WaveformPeaks {
  const spp = Math.max(1, Math.round(source.sampleRate / pointsPerSecond));
  const length = Math.ceil(source.frames / spp);
  const channels = Math.max(1, source.channels);
  const buffers = Array.from({ length: channels }, () => new Float32Array(spp));
  const mix = new Float32Array(spp);
  const data = new Array<number>(length * 2);
  for (let pixel = 0; pixel < length; pixel++) {
    const start = pixel * spp;
    const count = Math.min(spp, source.frames - start);
    for (let c = 0; c < channels; c++) {
      const buffer = buffers[c] as Float32Array;
      source.read(c, start, count === spp ? buffer : buffer.subarray(0, count));
    }
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    // One pass over the pixel: the mix summed as a Float32Array would hold it, then its extremes.
    if (channels === 2) {
      const left = buffers[0] as Float32Array;
      const right = buffers[1] as Float32Array;
      for (let i = 0; i < count; i++) {
        const x = Math.fround((left[i] as number) + (right[i] as number)) / 2;
        if (x < min) min = x;
        if (x > max) max = x;
      }
    } else {
      mix.fill(0, 0, count);
      for (let c = 0; c < channels; c++) {
        const buffer = buffers[c] as Float32Array;
        for (let i = 0; i < count; i++) mix[i] = (mix[i] as number) + (buffer[i] as number);
      }
      for (let i = 0; i < count; i++) {
        const x = (mix[i] as number) / channels;
        if (x < min) min = x;
        if (x > max) max = x;
      }
    }
    data[pixel * 2] = eightBit(min);
    data[pixel * 2 + 1] = eightBit(max);
  }
  return {
    version: 2,
    channels: 1,
    sample_rate: source.sampleRate,
    samples_per_pixel: spp,
    bits: 8,
    length,
    data,
  };
}

/**
 * The peaks file of a WAV: the JSON bytes to store. Throws `AudioFormatError`
 * when the bytes are not a WAV the decoder reads.
 */
export function wavPeaksFile(wav: Uint8Array): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(computePeaks(parseWav(wav))));
}
