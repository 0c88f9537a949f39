/**
 * A small FLAC writer: 16-bit samples in VERBATIM subframes (no prediction,
 * so no compression, but a valid FLAC stream every decoder reads), fixed
 * blocks of 4096 frames, a STREAMINFO block with the total length and no MD5
 * (all zeros: "unknown", which the format allows). Enough for the embedded
 * provider to answer MiniMax Music 2.0's `format: 'flac'` as fal does.
 * Written here: verbatim frames take a few dozen lines, where the registry's
 * FLAC encoder (libflacjs) is a whole libFLAC build compiled with emscripten.
 */

const BLOCK = 4096;

/** FLAC's sample rate codes in a frame header (0: read it from STREAMINFO). */
const RATE_CODES: Record<number, number> = { 32000: 0b1000, 44100: 0b1001, 48000: 0b1010, 96000: 0b1011 };

/** CRC-8, polynomial x^8 + x^2 + x + 1 (frame headers). */
function crc8(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= bytes[i] as number;
    for (let b = 0; b < 8; b++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** CRC-16, polynomial x^16 + x^15 + x^2 + 1 (whole frames). */
function crc16(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= (bytes[i] as number) << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A frame number as FLAC codes it: UTF-8's scheme, extended to 36 bits. */
function codedNumber(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  let bytes = 2;
  while (n >= 2 ** (5 * bytes + 1)) bytes++;
  for (let i = bytes - 1; i > 0; i--) {
    out.unshift(0x80 | (n & 0x3f));
    n = Math.floor(n / 64);
  }
  out.unshift(((0xff00 >> bytes) & 0xff) | n);
  return out;
}

const toInt16 = (v: number) => {
  const s = Math.round(v * 32768);
  return s > 32767 ? 32767 : s < -32768 ? -32768 : s;
};

/** The 16-bit samples {@link encodeFlac} writes, interleaved as a WAV holds them. */
export function int16Interleaved(channels: readonly Float32Array[]): Int16Array {
  const frames = channels[0]?.length ?? 0;
  const out = new Int16Array(frames * channels.length);
  let k = 0;
  for (let i = 0; i < frames; i++) for (const c of channels) out[k++] = toInt16(c[i] as number);
  return out;
}

/** Encodes channels (floats in [-1, 1], one to eight) as a 16-bit FLAC file. */
export function encodeFlac(channels: readonly Float32Array[], sampleRate: number): Uint8Array {
  const ch = channels.length;
  if (ch < 1 || ch > 8) throw new RangeError('FLAC holds 1 to 8 channels');
  const frames = channels[0]?.length ?? 0;
  const blocks = Math.ceil(frames / BLOCK);
  // Each frame: header (at most 16 bytes), a byte per subframe header, the samples, the CRC-16.
  const out = new Uint8Array(4 + 4 + 34 + blocks * (16 + ch + 2) + frames * ch * 2);
  const view = new DataView(out.buffer);
  let at = 0;
  out.set([0x66, 0x4c, 0x61, 0x43], at); // fLaC
  at += 4;
  // The only metadata block: STREAMINFO, the last one.
  out.set([0x80, 0, 0, 34], at);
  at += 4;
  view.setUint16(at, BLOCK);
  view.setUint16(at + 2, BLOCK);
  // Frame sizes (24 bits each) left 0: unknown.
  // Sample rate (20 bits), channels - 1 (3), bits - 1 (5), total samples (36).
  const total = BigInt(frames);
  const packed =
    (BigInt(sampleRate) << 44n) | (BigInt(ch - 1) << 41n) | (15n << 36n) | (total & 0xfffffffffn);
  view.setBigUint64(at + 10, packed);
  at += 34; // the MD5 stays zero
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK;
    const size = Math.min(BLOCK, frames - start);
    const frameAt = at;
    out[at++] = 0xff;
    out[at++] = 0xf8; // sync, fixed block size
    out[at++] = (0b0111 << 4) | (RATE_CODES[sampleRate] ?? 0); // block size in 16 bits after the number
    out[at++] = ((ch - 1) << 4) | (0b100 << 1); // independent channels, 16 bits per sample
    for (const byte of codedNumber(b)) out[at++] = byte;
    view.setUint16(at, size - 1);
    at += 2;
    out[at] = crc8(out, frameAt, at);
    at++;
    for (let c = 0; c < ch; c++) {
      out[at++] = 0b00000010; // VERBATIM, no wasted bits
      const samples = channels[c] as Float32Array;
      for (let i = 0; i < size; i++) {
        view.setInt16(at, toInt16(samples[start + i] as number));
        at += 2;
      }
    }
    view.setUint16(at, crc16(out, frameAt, at));
    at += 2;
  }
  return out.slice(0, at);
}
