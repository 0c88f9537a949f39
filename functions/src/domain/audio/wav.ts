import { AudioFormatError, type PcmSource } from './pcm';

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

type SampleReader = (view: DataView, at: number) => number;

/** How one sample of a format is read, scaled to [-1, 1]. */
function sampleReader(format: number, bits: number): SampleReader | undefined {
  if (format === WAVE_FORMAT_PCM) {
    switch (bits) {
      case 8:
        return (v, at) => (v.getUint8(at) - 128) / 128;
      case 16:
        return (v, at) => v.getInt16(at, true) / 32768;
      case 24:
        return (v, at) => (v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16)) / 8388608;
      case 32:
        return (v, at) => v.getInt32(at, true) / 2147483648;
    }
  }
  if (format === WAVE_FORMAT_IEEE_FLOAT) {
    if (bits === 32) return (v, at) => v.getFloat32(at, true);
    if (bits === 64) return (v, at) => v.getFloat64(at, true);
  }
  return undefined;
}

/**
 * Reads a RIFF/WAVE file: integer PCM of 8, 16, 24 or 32 bits, IEEE float of
 * 32 or 64 bits, plain or WAVE_FORMAT_EXTENSIBLE, any rate and channel count.
 * Samples are decoded when read, not here. A data chunk whose size was never
 * filled in (0 or 0xFFFFFFFF, as streamed files leave it) or that runs past
 * the end counts what is there. Throws {@link AudioFormatError} otherwise.
 */
export function parseWav(bytes: Uint8Array): PcmSource {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE')
    throw new AudioFormatError('Not a WAV file');

  let fmt:
    | { format: number; channels: number; sampleRate: number; blockAlign: number; bits: number }
    | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) throw new AudioFormatError('The fmt chunk is too short');
      let format = view.getUint16(body, true);
      // The sub-format GUID starts with the format code it stands for.
      if (format === WAVE_FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= bytes.length)
        format = view.getUint16(body + 24, true);
      fmt = {
        format,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new AudioFormatError('The data chunk comes before the fmt chunk');
      return pcmReader(view, body, size, fmt);
    }
    offset = body + size + (size % 2);
  }
  throw new AudioFormatError('No data chunk');
}

function pcmReader(
  view: DataView,
  dataStart: number,
  declaredSize: number,
  fmt: { format: number; channels: number; sampleRate: number; blockAlign: number; bits: number },
): PcmSource {
  const { channels, sampleRate, blockAlign, bits } = fmt;
  const bytesPerSample = Math.ceil(bits / 8);
  const read = sampleReader(fmt.format, bytesPerSample * 8 === bits ? bits : 0);
  if (!read) throw new AudioFormatError(`Unsupported WAV encoding (format ${fmt.format}, ${bits} bits)`);
  if (channels < 1 || sampleRate < 1 || blockAlign < channels * bytesPerSample)
    throw new AudioFormatError('Inconsistent WAV format');
  const available = view.byteLength - dataStart;
  const size =
    declaredSize === 0 || declaredSize === 0xffffffff || declaredSize > available ? available : declaredSize;
  const frames = Math.floor(size / blockAlign);
  if (fmt.format === WAVE_FORMAT_PCM && bits === 16) {
    const samples = int16Samples(view, dataStart, frames, blockAlign);
    if (samples) return int16Reader(samples, sampleRate, channels, frames, blockAlign / 2);
  }
  return {
    sampleRate,
    channels,
    frames,
    read(channel, start, into) {
      const at = dataStart + channel * bytesPerSample;
      for (let i = 0; i < into.length; i++) {
        const frame = start + i;
        into[i] = frame >= 0 && frame < frames ? read(view, at + frame * blockAlign) : 0;
      }
    },
  };
}

/** Whether typed arrays here are little-endian, as WAV samples are (every platform Lambda runs on is). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The 16-bit samples of a data chunk as one typed array over the file's own
 * bytes (no copy), when they can be: little-endian, aligned, whole frames.
 */
function int16Samples(view: DataView, dataStart: number, frames: number, blockAlign: number) {
  const start = view.byteOffset + dataStart;
  if (!LITTLE_ENDIAN || start % 2 !== 0 || blockAlign % 2 !== 0) return undefined;
  return new Int16Array(view.buffer, start, (frames * blockAlign) / 2);
}

/**
 * 16-bit PCM, most WAVs (ours and the provider's): read from a typed array
 * rather than sample by sample through a DataView, with the same samples
 * (each scaled by 1/32768).
 */
function int16Reader(
  samples: Int16Array,
  sampleRate: number,
  channels: number,
  frames: number,
  stride: number,
): PcmSource {
  return {
    sampleRate,
    channels,
    frames,
    read(channel, start, into) {
      const first = Math.min(into.length, Math.max(0, -start));
      const last = Math.max(first, Math.min(into.length, frames - start));
      into.fill(0, 0, first);
      let at = (start + first) * stride + channel;
      for (let i = first; i < last; i++, at += stride) into[i] = (samples[at] as number) / 32768;
      into.fill(0, last);
    },
  };
}
