/**
 * The audio a model returns, as Finish keeps it: a WAV as it came, FLAC
 * (MiniMax Music 2.0) and MP3 (a model's default) decoded to a PCM WAV, told
 * apart by their first bytes, not by a URL or a media type. The decoders
 * (WebAssembly inlined in their JavaScript, so they bundle) load only when
 * the audio is not a WAV: most tracks never need them.
 */
import { pcmWav } from '../domain/audio/wav-writer';

export type ProviderAudioFormat = 'wav' | 'flac' | 'mp3';

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The length of an ID3v2 tag at the start (MP3s carry one; so, rarely, do FLACs), else 0. */
function id3Length(bytes: Uint8Array): number {
  if (!ascii(bytes, 0, 'ID3') || bytes.length < 10) return 0;
  const size =
    (((bytes[6] as number) & 0x7f) << 21) |
    (((bytes[7] as number) & 0x7f) << 14) |
    (((bytes[8] as number) & 0x7f) << 7) |
    ((bytes[9] as number) & 0x7f);
  // A footer (flag 0x10) adds ten bytes.
  return 10 + size + ((bytes[5] as number) & 0x10 ? 10 : 0);
}

/** What the audio is, by its content: RIFF/WAVE, `fLaC`, or an MPEG audio frame (after any ID3 tag). */
export function sniffAudio(bytes: Uint8Array): ProviderAudioFormat | undefined {
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return 'wav';
  const at = id3Length(bytes);
  if (ascii(bytes, at, 'fLaC')) return 'flac';
  const b0 = bytes[at];
  const b1 = bytes[at + 1];
  // Frame sync (11 bits set), a known MPEG version and a layer.
  if (b0 === 0xff && b1 !== undefined && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) !== 0)
    return 'mp3';
  return undefined;
}

interface Decoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  bitDepth?: number;
  errors: unknown[];
}

async function decodeFlac(bytes: Uint8Array): Promise<Decoded> {
  const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
  const decoder = new FLACDecoder();
  try {
    await decoder.ready;
    return await decoder.decodeFile(bytes);
  } finally {
    decoder.free();
  }
}

async function decodeMp3(bytes: Uint8Array): Promise<Decoded> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  try {
    await decoder.ready;
    return decoder.decode(bytes);
  } finally {
    decoder.free();
  }
}

/**
 * The provider's audio as a WAV master: a WAV unchanged; FLAC and MP3
 * decoded (FLAC at its own 16 or 24 bits, so its samples are kept exactly;
 * MP3 at 16); undefined for anything else or audio that decodes to nothing
 * (Finish then keeps the file as it came).
 */
export async function wavMaster(
  bytes: Uint8Array,
): Promise<{ wav: Uint8Array; from: ProviderAudioFormat } | undefined> {
  const format = sniffAudio(bytes);
  if (!format) return undefined;
  if (format === 'wav') return { wav: bytes, from: format };
  let decoded: Decoded;
  try {
    decoded = format === 'flac' ? await decodeFlac(bytes) : await decodeMp3(bytes);
  } catch {
    return undefined;
  }
  const planes = decoded.channelData.map((plane) => plane.subarray(0, decoded.samplesDecoded));
  if (!planes.length || !decoded.samplesDecoded || !decoded.sampleRate) return undefined;
  if (format === 'mp3') return { wav: pcmWav(planes, decoded.sampleRate, 16), from: format };
  // The FLAC decoder scales its integers by 1 / (2^(bits-1) - 1): undone with the same, every sample is as sent.
  const bits = (decoded.bitDepth ?? 16) > 16 ? 24 : 16;
  return { wav: pcmWav(planes, decoded.sampleRate, bits, 2 ** (bits - 1) - 1), from: format };
}
