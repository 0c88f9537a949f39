import { describe, expect, it } from 'vitest';
import { OGG_BEGINNING_OF_STREAM, OGG_END_OF_STREAM } from './ogg';
import {
  encodeOggOpus,
  OPUS_FRAME,
  type OpusEncoder,
  type OpusEncoderFactory,
  oggOpusSteps,
} from './ogg-opus';
import { AudioFormatError } from './pcm';
import { readOggPages, tone, wavFile } from './testing';
import { parseWav } from './wav';

/**
 * An encoder that keeps what it is given: each "packet" is the frame's index
 * and its first left sample, padded to a size that varies (some over 255 bytes).
 */
function recordingEncoder(lookahead = 312) {
  const frames: Int16Array[] = [];
  const made: { channels: number; bitrate: number }[] = [];
  let closed = 0;
  const factory: OpusEncoderFactory = (options) => {
    made.push(options);
    const encoder: OpusEncoder = {
      lookahead,
      vendor: 'test encoder',
      encode(pcm, frameSize) {
        expect(frameSize).toBe(OPUS_FRAME);
        expect(pcm.length).toBe(frameSize * options.channels);
        frames.push(pcm.slice());
        const packet = new Uint8Array(200 + ((frames.length * 37) % 200));
        new DataView(packet.buffer).setUint32(0, frames.length - 1, true);
        new DataView(packet.buffer).setInt16(4, pcm[0] as number, true);
        return packet;
      },
      close: () => {
        closed += 1;
      },
    };
    return encoder;
  };
  return { factory, frames, made, closed: () => closed };
}

const head = (packet: Uint8Array) => {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  return {
    magic: new TextDecoder().decode(packet.subarray(0, 8)),
    version: packet[8],
    channels: packet[9],
    preSkip: view.getUint16(10, true),
    inputSampleRate: view.getUint32(12, true),
    gain: view.getInt16(16, true),
    mapping: packet[18],
    length: packet.length,
  };
};

describe('encodeOggOpus', () => {
  it('writes OpusHead and OpusTags pages, then audio pages ending at pre-skip + length', () => {
    const seconds = 2.5;
    const source = parseWav(
      wavFile([tone(440, seconds, 44100), tone(660, seconds, 44100)], { sampleRate: 44100 }),
    );
    const encoder = recordingEncoder(312);

    const pages = readOggPages(encodeOggOpus(source, encoder.factory, { serial: 99 }));

    expect(pages.every((p) => p.crcOk && p.serial === 99)).toBe(true);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    const [first, second, ...audio] = pages;
    expect(first?.flags).toBe(OGG_BEGINNING_OF_STREAM);
    expect(first?.packets).toHaveLength(1);
    expect(head(first?.packets[0] as Uint8Array)).toEqual({
      magic: 'OpusHead',
      version: 1,
      channels: 2,
      preSkip: 312,
      inputSampleRate: 44100,
      gain: 0,
      mapping: 0,
      length: 19,
    });
    const tags = second?.packets[0] as Uint8Array;
    expect(new TextDecoder().decode(tags.subarray(0, 8))).toBe('OpusTags');
    expect(new TextDecoder().decode(tags.subarray(12, 24))).toBe('test encoder');
    expect(second?.granule).toBe(0n);

    // 2.5 s at 48 kHz plus the encoder's delay, in 20 ms frames: ceil((120000 + 312) / 960) = 126.
    const length = 120_000;
    expect(encoder.frames).toHaveLength(126);
    expect(encoder.made).toEqual([{ channels: 2, bitrate: 96_000 }]);
    expect(encoder.closed()).toBe(1);
    const packets = audio.flatMap((p) => p.packets);
    expect(packets.map((p) => new DataView(p.buffer, p.byteOffset).getUint32(0, true))).toEqual(
      Array.from({ length: 126 }, (_, i) => i),
    );
    // A page is at most a second; each page's granule is the samples through its last packet,
    // the last one trimmed to pre-skip + the source's length.
    let before = 0;
    for (const page of audio.slice(0, -1)) {
      before += page.packets.length;
      expect(page.granule).toBe(BigInt(before * OPUS_FRAME));
      expect(page.packets.length).toBeLessThanOrEqual(50);
      expect(page.flags).toBe(0);
    }
    expect(audio.at(-1)?.flags).toBe(OGG_END_OF_STREAM);
    expect(audio.at(-1)?.granule).toBe(BigInt(312 + length));
    expect(Number(audio.at(-2)?.granule)).toBeLessThan(312 + length);
  });

  it('feeds the encoder the resampled audio, interleaved, then silence', () => {
    const left = tone(1000, 0.1, 48000, 0.5);
    const right = tone(1000, 0.1, 48000, -0.25);
    const encoder = recordingEncoder();
    encodeOggOpus(parseWav(wavFile([left, right], { sampleRate: 48000 })), encoder.factory);
    const pcm = new Int16Array(encoder.frames.length * OPUS_FRAME * 2);
    encoder.frames.forEach((frame, i) => {
      pcm.set(frame, i * OPUS_FRAME * 2);
    });
    for (const i of [0, 10, 1234, 4799]) {
      expect(pcm[2 * i]).toBeCloseTo(Math.round((left[i] as number) * 32767), -1);
      expect(pcm[2 * i + 1]).toBeCloseTo(Math.round((right[i] as number) * 32767), -1);
    }
    expect(pcm.subarray(2 * 4800).every((x) => x === 0)).toBe(true);
  });

  it('keeps mono mono, at a lower bitrate, and plays more than two channels as the first two', () => {
    const mono = recordingEncoder();
    const monoPages = readOggPages(
      encodeOggOpus(parseWav(wavFile([tone(440, 0.1, 16000)], { sampleRate: 16000 })), mono.factory),
    );
    expect(head(monoPages[0]?.packets[0] as Uint8Array)).toMatchObject({
      channels: 1,
      inputSampleRate: 16000,
    });
    expect(mono.made).toEqual([{ channels: 1, bitrate: 64_000 }]);

    const surround = recordingEncoder();
    const six = Array.from({ length: 6 }, (_, c) => tone(440, 0.05, 48000, 0.1 * (c + 1)));
    encodeOggOpus(parseWav(wavFile(six, { sampleRate: 48000 })), surround.factory, { bitrate: 128_000 });
    expect(surround.made).toEqual([{ channels: 2, bitrate: 128_000 }]);
    const frame = surround.frames[0] as Int16Array;
    expect(frame[2 * 100 + 1]).toBeCloseTo(Math.round((six[1]?.[100] as number) * 32767), -1);
  });

  it('refuses audio without samples, and closes the encoder when encoding fails', () => {
    const empty = parseWav(wavFile([new Float32Array(0)], { sampleRate: 44100 }));
    expect(() => encodeOggOpus(empty, recordingEncoder().factory)).toThrow(AudioFormatError);

    let closed = false;
    const failing: OpusEncoderFactory = () => ({
      lookahead: 312,
      vendor: 'x',
      encode: () => {
        throw new Error('libopus encoding failed (-3)');
      },
      close: () => {
        closed = true;
      },
    });
    const source = parseWav(wavFile([tone(440, 0.1, 48000)], { sampleRate: 48000 }));
    expect(() => encodeOggOpus(source, failing)).toThrow(/encoding failed/);
    expect(closed).toBe(true);
  });

  it('works a second of audio per step', () => {
    const source = parseWav(wavFile([tone(440, 3, 48000)], { sampleRate: 48000 }));
    const steps = oggOpusSteps(source, recordingEncoder().factory);
    let count = 0;
    let next = steps.next();
    while (!next.done) {
      count += 1;
      next = steps.next();
    }
    // 3 s + pre-skip = 151 frames: four steps of up to 50.
    expect(count).toBe(4);
    expect(readOggPages(next.value).at(-1)?.granule).toBe(BigInt(312 + 144_000));
  });
});
