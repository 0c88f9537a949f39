/**
 * Uncompressed audio as the encoders read it: a sample rate, a channel count,
 * a length in frames, and random access to each channel's samples as floats in
 * [-1, 1]. Readers decode on demand, so a long track is never held twice.
 */
export interface PcmSource {
  readonly sampleRate: number;
  readonly channels: number;
  /** Samples per channel. */
  readonly frames: number;
  /**
   * Writes `into.length` samples of `channel` starting at frame `start` into
   * `into`; positions before 0 or past the end read as silence.
   */
  read(channel: number, start: number, into: Float32Array): void;
}

/** The audio cannot be read (not a WAV we understand, or nothing in it). */
export class AudioFormatError extends Error {
  override readonly name = 'Audio.Format';
}

/** The first `channels` channels of `source` (a surround file played as stereo, say). */
export function firstChannels(source: PcmSource, channels: number): PcmSource {
  if (channels >= source.channels) return source;
  return {
    sampleRate: source.sampleRate,
    channels,
    frames: source.frames,
    read: (channel, start, into) => source.read(channel, start, into),
  };
}

/** Audio held as one array of samples per channel (what {@link readPlanes} makes). */
export interface PlanarPcm {
  readonly sampleRate: number;
  readonly planes: readonly Float32Array[];
}

/** A {@link PcmSource} over planes of samples; positions outside them read as silence. */
export function planarSource(audio: PlanarPcm): PcmSource {
  const frames = audio.planes[0]?.length ?? 0;
  return {
    sampleRate: audio.sampleRate,
    channels: audio.planes.length,
    frames,
    read(channel, start, into) {
      const plane = audio.planes[channel];
      if (!plane) throw new RangeError(`No channel ${channel}`);
      const from = Math.max(0, start);
      const to = Math.min(frames, start + into.length);
      if (from >= to) {
        into.fill(0);
        return;
      }
      into.fill(0, 0, from - start);
      into.set(plane.subarray(from, to), from - start);
      into.fill(0, to - start);
    },
  };
}

/**
 * Every sample of `source`, one plane per channel, in memory `allocate` gives
 * (a SharedArrayBuffer lets worker threads read the planes without a copy).
 */
export function readPlanes(
  source: PcmSource,
  allocate: (bytes: number) => ArrayBufferLike = (bytes) => new ArrayBuffer(bytes),
): PlanarPcm {
  const planes = Array.from({ length: source.channels }, (_, channel) => {
    const plane = new Float32Array(allocate(source.frames * Float32Array.BYTES_PER_ELEMENT));
    source.read(channel, 0, plane);
    return plane;
  });
  return { sampleRate: source.sampleRate, planes };
}
