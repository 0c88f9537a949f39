/**
 * Writes audio as a PCM WAV file: 16 or 24 bits, any rate and channel count.
 * A master that came from the provider in another format is kept as this.
 */

/**
 * A WAV file of `planes` (one array of floats in [-1, 1] per channel) at
 * `bits` per sample. `fullScale` is the integer a sample of 1 stands for:
 * 2^(bits-1) by default; a decoder that scaled its integers by another
 * (FLAC's divides by 2^(bits-1) - 1) has them back exactly when given it.
 */
export function pcmWav(
  planes: readonly Float32Array[],
  sampleRate: number,
  bits: 16 | 24 = 16,
  fullScale = 2 ** (bits - 1),
): Uint8Array {
  const channels = planes.length;
  const frames = planes[0]?.length ?? 0;
  const bytes = bits / 8;
  const blockAlign = bytes * channels;
  const dataSize = frames * blockAlign;
  const out = new Uint8Array(44 + dataSize);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataSize, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bits, true);
  ascii(36, 'data');
  view.setUint32(40, dataSize, true);
  const min = -(2 ** (bits - 1));
  const max = -min - 1;
  let at = 44;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) {
      const s = Math.round(((planes[c] as Float32Array)[i] as number) * fullScale);
      const v = s > max ? max : s < min ? min : s;
      if (bits === 16) view.setInt16(at, v, true);
      else {
        view.setUint8(at, v & 0xff);
        view.setUint8(at + 1, (v >> 8) & 0xff);
        view.setInt8(at + 2, v >> 16);
      }
      at += bytes;
    }
  }
  return out;
}
