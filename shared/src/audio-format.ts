/**
 * The allowed audio formats told by their first bytes (magic numbers): the
 * server's check of an upload after it lands, and the upload dialog's check
 * of a chosen file before it is sent, so a file the server would refuse is
 * refused before it is uploaded.
 */

export type AudioFormat = 'wav' | 'mp3' | 'ogg' | 'm4a' | 'aac';

/** How many leading bytes {@link sniffAudioFormat} looks at. */
export const SNIFF_BYTES = 16;

/**
 * ISO media brands of audio files (iTunes M4A/M4B/M4P, generic MP4 and 3GPP
 * containers as phones record them). Image and video-only brands that share the
 * container (HEIC, AVIF, ...) are not audio.
 */
const AUDIO_MP4_BRANDS = /^(M4A |M4B |M4P |F4A |F4B |mp41|mp42|isom|iso[2-9]|dash|3gp[4-9]|3g2[a-c]|MSNV)$/;

/** Recognises the allowed audio formats by their first bytes (magic numbers). */
export function sniffAudioFormat(head: Uint8Array): AudioFormat | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'ogg';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp' && AUDIO_MP4_BRANDS.test(ascii(8, 12))) return 'm4a';
  if (head.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  if (head.length >= 4 && ascii(0, 4) === 'ADIF') return 'aac';
  if (head.length >= 3 && head[0] === 0xff) {
    const b1 = head[1] as number;
    const b2 = head[2] as number;
    // ADTS (AAC): 12 sync bits, layer 00, and a defined sampling-frequency index (0-12).
    if ((b1 & 0xf6) === 0xf0) return ((b2 >> 2) & 0x0f) <= 12 ? 'aac' : undefined;
    // MPEG audio frame: 11 sync bits, a defined version and layer, bitrate index not 1111,
    // sample rate not the reserved 11. Checking the third byte keeps random binary out.
    const version = (b1 >> 3) & 0x03;
    const layer = (b1 >> 1) & 0x03;
    const bitrate = b2 >> 4;
    const sampleRate = (b2 >> 2) & 0x03;
    if (
      (b1 & 0xe0) === 0xe0 &&
      version !== 0x01 &&
      layer !== 0x00 &&
      bitrate !== 0x0f &&
      sampleRate !== 0x03
    ) {
      return 'mp3';
    }
  }
  return undefined;
}
