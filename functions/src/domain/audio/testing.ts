/** Test helpers for the audio code: WAV files to read and an Ogg reader to check what was written. */
import { oggCrc32 } from './ogg';
import type { PcmSource } from './pcm';

/** A WAV file of the given samples (one array per channel, floats in [-1, 1]). */
export function wavFile(
  channels: Float32Array[],
  options: {
    sampleRate: number;
    encoding?: 'pcm8' | 'pcm16' | 'pcm24' | 'pcm32' | 'float32' | 'float64';
    extensible?: boolean;
    dataSize?: number;
  },
): Uint8Array {
  const encoding = options.encoding ?? 'pcm16';
  const bits = { pcm8: 8, pcm16: 16, pcm24: 24, pcm32: 32, float32: 32, float64: 64 }[encoding];
  const format = encoding.startsWith('float') ? 3 : 1;
  const bytes = bits / 8;
  const frames = channels[0]?.length ?? 0;
  const blockAlign = bytes * channels.length;
  const dataSize = frames * blockAlign;
  const fmtSize = options.extensible ? 40 : 16;
  const out = new Uint8Array(12 + 8 + fmtSize + 8 + dataSize);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => out.set(new TextEncoder().encode(text), at);
  ascii(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, options.extensible ? 0xfffe : format, true);
  view.setUint16(22, channels.length, true);
  view.setUint32(24, options.sampleRate, true);
  view.setUint32(28, options.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bits, true);
  if (options.extensible) {
    view.setUint16(36, 22, true);
    view.setUint16(38, bits, true);
    view.setUint32(40, channels.length === 1 ? 0x4 : 0x3, true);
    view.setUint16(44, format, true); // sub-format GUID, first two bytes
  }
  const data = 20 + fmtSize;
  ascii(data, 'data');
  view.setUint32(data + 4, options.dataSize ?? dataSize, true);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels.length; c++) {
      const x = Math.max(-1, Math.min(1, (channels[c] as Float32Array)[i] as number));
      const at = data + 8 + i * blockAlign + c * bytes;
      if (encoding === 'pcm8') view.setUint8(at, Math.round(x * 127) + 128);
      else if (encoding === 'pcm16') view.setInt16(at, Math.round(x * 32767), true);
      else if (encoding === 'pcm24') {
        const v = Math.round(x * 8388607);
        view.setUint8(at, v & 0xff);
        view.setUint8(at + 1, (v >> 8) & 0xff);
        view.setInt8(at + 2, v >> 16);
      } else if (encoding === 'pcm32') view.setInt32(at, Math.round(x * 2147483647), true);
      else if (encoding === 'float32') view.setFloat32(at, x, true);
      else view.setFloat64(at, x, true);
    }
  }
  return out;
}

/** `seconds` of a sine at `frequency` Hz. */
export function tone(frequency: number, seconds: number, sampleRate: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++)
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

export interface OggPageRead {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  /** Whether the stored CRC matches the page's bytes. */
  crcOk: boolean;
  /** Packets that end on this page (none here span pages). */
  packets: Uint8Array[];
  /** Lacing values. */
  segments: number[];
}

/** Splits an Ogg file into its pages, checking each CRC; throws where it is not Ogg. */
export function readOggPages(bytes: Uint8Array): OggPageRead[] {
  const pages: OggPageRead[] = [];
  let at = 0;
  while (at < bytes.length) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at);
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) !== 'OggS') throw new Error(`No page at ${at}`);
    const count = bytes[at + 26] as number;
    const segments = [...bytes.subarray(at + 27, at + 27 + count)];
    const bodyStart = at + 27 + count;
    const bodySize = segments.reduce((a, b) => a + b, 0);
    const page = bytes.slice(at, bodyStart + bodySize);
    const stored = view.getUint32(22, true);
    page.fill(0, 22, 26);
    const packets: Uint8Array[] = [];
    let start = bodyStart;
    let size = 0;
    for (const lacing of segments) {
      size += lacing;
      if (lacing < 255) {
        packets.push(bytes.subarray(start, start + size));
        start += size;
        size = 0;
      }
    }
    if (size > 0) throw new Error('A packet continues past its page');
    pages.push({
      flags: bytes[at + 5] as number,
      granule: view.getBigInt64(6, true),
      serial: view.getUint32(14, true),
      sequence: view.getUint32(18, true),
      crcOk: oggCrc32(page) === stored,
      packets,
      segments,
    });
    at = bodyStart + bodySize;
  }
  return pages;
}

const RATE = 48_000;

const midiHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

/**
 * A known song: a kick on every beat and a hat on every off-beat at `bpm`,
 * over a chord a bar (triads of sine tones) walking I–IV–V–I or i–iv–v–i of
 * the key whose tonic is MIDI `tonic`, stereo at 48 kHz.
 */
export function beatAndChords(bpm: number, tonic: number, mode: 'major' | 'minor', seconds = 30): PcmSource {
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
