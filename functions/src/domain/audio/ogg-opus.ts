/**
 * Ogg Opus files (RFC 7845) from PCM, given an Opus encoder: the players'
 * compressed copy of a track. Opus runs at 48 kHz, so other rates are
 * resampled first; mono stays mono, more than two channels keep the first two.
 */
import type { VorbisComment } from './marking';
import { OggStreamWriter } from './ogg';
import { AudioFormatError, firstChannels, type PcmSource } from './pcm';
import { resample } from './resample';

/** Opus's own rate: every granule position counts 48 kHz samples. */
export const OPUS_RATE = 48_000;
/** 20 ms, the usual frame for music. */
export const OPUS_FRAME = 960;
/** Stereo music at 96 kbit/s (VBR) is transparent for most listeners; mono gets 64. */
export const DEFAULT_BITRATES = { 1: 64_000, 2: 96_000 } as const;
/** A page holds at most one second of audio, so a seek lands within a second. */
const MAX_PAGE_DURATION = BigInt(OPUS_RATE);
/** How much PCM is converted at a time (a whole number of frames). */
const BLOCK_FRAMES = 50;

/** An Opus encoder for one stream (libopus or anything speaking its packets). */
export interface OpusEncoder {
  /** Samples (at 48 kHz) the encoder delays its output by: the file's pre-skip. */
  readonly lookahead: number;
  /** Who made the packets, for the OpusTags vendor string. */
  readonly vendor: string;
  /** One frame of interleaved 16-bit PCM (`frameSize` samples per channel) → one packet. */
  encode(pcm: Int16Array, frameSize: number): Uint8Array;
  /** Frees the encoder. */
  close(): void;
}

export type OpusEncoderFactory = (options: { channels: 1 | 2; bitrate: number }) => OpusEncoder;

export interface OggOpusOptions {
  /** Bits a second; {@link DEFAULT_BITRATES} by channel count when absent. */
  bitrate?: number;
  /** The Ogg stream's serial number. */
  serial?: number;
  /** User comments of the OpusTags header (the file's marking). */
  comments?: readonly VorbisComment[];
}

/** The identification header (RFC 7845, 5.1): channel mapping family 0 (mono or stereo). */
export function opusHead(options: { channels: 1 | 2; preSkip: number; inputSampleRate: number }): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'), 0);
  head[8] = 1; // version
  head[9] = options.channels;
  view.setUint16(10, options.preSkip, true);
  view.setUint32(12, options.inputSampleRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // mapping family
  return head;
}

/**
 * The comment header (RFC 7845, 5.2): the vendor and the user comments, each
 * `FIELD=value` in UTF-8 (field names are ASCII 0x20-0x7D but '=', compared
 * without case).
 */
export function opusTags(vendor: string, comments: readonly VorbisComment[] = []): Uint8Array {
  const encoder = new TextEncoder();
  const name = encoder.encode(vendor);
  const entries = comments.map(([field, value]) => {
    if (!/^[\x20-\x3c\x3e-\x7d]+$/.test(field))
      throw new RangeError(`Not a Vorbis comment field name: ${field}`);
    return encoder.encode(`${field}=${value}`);
  });
  const tags = new Uint8Array(8 + 4 + name.length + 4 + entries.reduce((n, e) => n + 4 + e.length, 0));
  const view = new DataView(tags.buffer);
  tags.set(encoder.encode('OpusTags'), 0);
  view.setUint32(8, name.length, true);
  tags.set(name, 12);
  let at = 12 + name.length;
  view.setUint32(at, entries.length, true);
  at += 4;
  for (const entry of entries) {
    view.setUint32(at, entry.length, true);
    tags.set(entry, at + 4);
    at += 4 + entry.length;
  }
  return tags;
}

const toInt16 = (x: number) => {
  const v = Math.round(x * 32767);
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
};

/**
 * Frames of encoder history a part encodes before its first packet and throws
 * away: a fresh encoder's first packets lean on silence before them, which
 * would be heard where two parts join; after 200 ms of the audio that really
 * comes before, its packets are as good as one encoder's (ogg-opus.test.ts).
 */
export const OPUS_WARMUP_FRAMES = 10;

/** A run of frames, `[from, to)`, one encoder makes; `to` undefined runs to the end. */
export interface OpusPart {
  from: number;
  to?: number;
}

/** The audio as Opus takes it: at 48 kHz, mono or stereo (more channels keep the first two). */
export function opusInput(source: PcmSource): { pcm: PcmSource; channels: 1 | 2 } {
  if (source.frames === 0 || source.channels === 0) throw new AudioFormatError('The audio has no samples');
  const channels: 1 | 2 = source.channels === 1 ? 1 : 2;
  return { pcm: resample(firstChannels(source, channels), OPUS_RATE), channels };
}

/** Frames a stream of `length` samples (at 48 kHz) needs, the encoder's delay included. */
export const opusFrameCount = (length: number, preSkip: number) => Math.ceil((length + preSkip) / OPUS_FRAME);

/**
 * `count` parts of about equal length covering a stream of `length` samples
 * (at 48 kHz): how the frames are shared among encoders that run at once. A
 * part shorter than a second is not worth an encoder, so short audio gets
 * fewer parts.
 */
export function opusParts(length: number, count: number): OpusPart[] {
  const frames = Math.ceil(length / OPUS_FRAME);
  const parts = Math.max(1, Math.min(count, Math.floor(frames / 50)));
  return Array.from({ length: parts }, (_, i) => {
    const from = Math.round((i * frames) / parts);
    return i === parts - 1 ? { from } : { from, to: Math.round(((i + 1) * frames) / parts) };
  });
}

/**
 * Encodes one part of `pcm` (48 kHz, already at the stream's gain), one
 * second of audio per step so a caller can let other work run in between: the
 * packets of frames `[from, to)`, after {@link OPUS_WARMUP_FRAMES} of history
 * that are encoded and dropped (none before the first frame). A part without
 * `to` continues past the end until the encoder's delayed audio is out.
 */
export function* opusPacketSteps(
  pcm: PcmSource,
  encoder: OpusEncoder,
  part: OpusPart,
): Generator<void, Uint8Array[], void> {
  const channels = pcm.channels;
  const to = part.to ?? opusFrameCount(pcm.frames, encoder.lookahead);
  const first = Math.max(0, part.from - OPUS_WARMUP_FRAMES);
  const block = BLOCK_FRAMES * OPUS_FRAME;
  const planes = Array.from({ length: channels }, () => new Float32Array(block));
  const interleaved = new Int16Array(block * channels);
  const packets: Uint8Array[] = [];
  for (let frame = first; frame < to; frame += BLOCK_FRAMES) {
    const start = frame * OPUS_FRAME;
    for (let c = 0; c < channels; c++) pcm.read(c, start, planes[c] as Float32Array);
    for (let i = 0; i < block; i++)
      for (let c = 0; c < channels; c++)
        interleaved[i * channels + c] = toInt16((planes[c] as Float32Array)[i] as number);
    const frames = Math.min(BLOCK_FRAMES, to - frame);
    for (let f = 0; f < frames; f++) {
      const packet = encoder.encode(
        interleaved.subarray(f * OPUS_FRAME * channels, (f + 1) * OPUS_FRAME * channels),
        OPUS_FRAME,
      );
      if (frame + f >= part.from) packets.push(packet);
    }
    yield;
  }
  return packets;
}

/**
 * The Ogg Opus file of a stream's packets, in order: OpusHead and OpusTags,
 * then the audio; the last page's granule position trims the padding, so a
 * player plays exactly `length` samples after the pre-skip.
 */
export function oggOpusFile(
  packets: readonly Uint8Array[],
  stream: {
    channels: 1 | 2;
    preSkip: number;
    length: number;
    inputSampleRate: number;
    vendor: string;
    comments?: readonly VorbisComment[];
    serial?: number;
  },
): Uint8Array {
  const ogg = new OggStreamWriter(stream.serial ?? 0x54756e65, MAX_PAGE_DURATION);
  ogg.header(opusHead(stream));
  ogg.header(opusTags(stream.vendor, stream.comments));
  packets.forEach((packet, i) => {
    ogg.packet(packet, BigInt((i + 1) * OPUS_FRAME));
  });
  return ogg.finish(BigInt(stream.preSkip + stream.length));
}

/**
 * Encodes `source` as an Ogg Opus file with one encoder, one second of audio
 * per step, so a caller can let other work run in between (see
 * {@link encodeOggOpus}). The pre-skip is the encoder's lookahead. Throws
 * {@link AudioFormatError} for audio without samples.
 */
export function* oggOpusSteps(
  source: PcmSource,
  newEncoder: OpusEncoderFactory,
  options: OggOpusOptions = {},
): Generator<void, Uint8Array, void> {
  const { pcm, channels } = opusInput(source);
  const encoder = newEncoder({ channels, bitrate: options.bitrate ?? DEFAULT_BITRATES[channels] });
  try {
    const packets = yield* opusPacketSteps(pcm, encoder, { from: 0 });
    return oggOpusFile(packets, {
      channels,
      preSkip: encoder.lookahead,
      length: pcm.frames,
      inputSampleRate: source.sampleRate,
      vendor: encoder.vendor,
      ...(options.comments ? { comments: options.comments } : {}),
      ...(options.serial !== undefined ? { serial: options.serial } : {}),
    });
  } finally {
    encoder.close();
  }
}

/** {@link oggOpusSteps} all at once. */
export function encodeOggOpus(
  source: PcmSource,
  newEncoder: OpusEncoderFactory,
  options: OggOpusOptions = {},
): Uint8Array {
  const steps = oggOpusSteps(source, newEncoder, options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
