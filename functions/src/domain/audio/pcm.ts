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
