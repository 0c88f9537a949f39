import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { bundleLambda } from '../../../../infra/lib/lambda-bundle';
import { measureLoudness, streamGainDb, withGain } from '../../domain/audio/loudness';
import type { VorbisComment } from '../../domain/audio/marking';
import type { PcmSource } from '../../domain/audio/pcm';
import { readOggPages, wavFile } from '../../domain/audio/testing';
import { parseWav } from '../../domain/audio/wav';
import { oggOpusStreamEncoder, wavToOggOpus } from './opus-encoder';
import { at48k, bestLag, decode, music, snrDb } from './testing';

describe('wavToOggOpus (libopus)', () => {
  it('makes an Ogg Opus file that decodes back to the track, in time and in the right ears', async () => {
    const wav = wavFile(music(3, 44100), { sampleRate: 44100 });

    const ogg = await wavToOggOpus(wav);

    const pages = readOggPages(ogg);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    const { channels, preSkip, length } = decode(ogg);
    // libopus's lookahead for music at 48 kHz: 2.5 ms + 4 ms.
    expect(preSkip).toBe(312);
    expect(length).toBe(144_000);
    const source = parseWav(wav);
    const left = at48k(source, 0);
    const right = at48k(source, 1);
    // A perceptual codec does not keep the waveform exactly, but close; best with no shift at all
    // (a wrong pre-skip would shift it by hundreds of samples).
    expect(snrDb(channels[0] as Float32Array, left)).toBeGreaterThan(12);
    expect(snrDb(channels[1] as Float32Array, right)).toBeGreaterThan(12);
    expect(bestLag(channels[0] as Float32Array, left)).toBe(0);
    expect(snrDb(channels[0] as Float32Array, right)).toBeLessThan(3);
    // Well under the WAV's 1411 kbit/s: at most about the 96 kbit/s asked for.
    expect((ogg.length * 8) / 3).toBeLessThan(110_000);
  });

  it('refuses what is not a WAV', async () => {
    await expect(wavToOggOpus(new TextEncoder().encode('ID3 an mp3 file'))).rejects.toMatchObject({
      name: 'Audio.Format',
    });
  });

  it('says what it makes', () => {
    expect(oggOpusStreamEncoder).toMatchObject({ contentType: 'audio/ogg; codecs=opus', extension: '.opus' });
  });

  it("the workflow's stream of a loud track, at its stream gain, decodes at -14 LUFS ±0.5, marked", async () => {
    // Louder than any streaming service plays: about -5 LUFS.
    const loud = music(8, 44100).map((channel) => channel.map((x) => x * 1.9));
    const master = parseWav(wavFile(loud, { sampleRate: 44100 }));
    const before = measureLoudness(master);
    expect(before.integratedLufs as number).toBeGreaterThan(-8);
    const gain = streamGainDb(before);
    const comments: VorbisComment[] = [
      ['TITLE', 'Loud One'],
      ['DIGITALSOURCETYPE', DIGITAL_SOURCE_TYPE],
    ];

    const ogg = await oggOpusStreamEncoder.encode(withGain(master, gain), comments);

    const { channels, length } = decode(ogg);
    const played: PcmSource = {
      sampleRate: 48_000,
      channels: 2,
      frames: length,
      read: (c, start, into) => into.set((channels[c] as Float32Array).subarray(start, start + into.length)),
    };
    const after = measureLoudness(played);
    expect(Math.abs((after.integratedLufs as number) + 14)).toBeLessThanOrEqual(0.5);
    expect(after.truePeakDbtp).toBeLessThan(-0.5);
    const { common, native } = await parseBuffer(ogg, { mimeType: 'audio/ogg' });
    expect(common.title).toBe('Loud One');
    expect(native.vorbis?.find((t) => t.id === 'DIGITALSOURCETYPE')?.value).toBe(DIGITAL_SOURCE_TYPE);
  });

  it('works bundled as the stack bundles a Lambda (no node_modules beside it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tunesmith-opus-bundle-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(
        entry,
        `import { wavToOggOpus } from ${JSON.stringify(fileURLToPath(new URL('./opus-encoder.ts', import.meta.url)))};
         import { readFileSync, writeFileSync } from 'node:fs';
         writeFileSync(process.argv[3], await wavToOggOpus(readFileSync(process.argv[2])));`,
      );
      bundleLambda(entry, join(dir, 'out'));
      const wav = wavFile(music(1, 48000), { sampleRate: 48000 });
      writeFileSync(join(dir, 'in.wav'), wav);
      execFileSync(
        process.execPath,
        [join(dir, 'out', 'index.mjs'), join(dir, 'in.wav'), join(dir, 'out.opus')],
        {
          cwd: dir,
        },
      );
      const { channels, length } = decode(new Uint8Array(readFileSync(join(dir, 'out.opus'))));
      expect(length).toBe(48_000);
      expect(snrDb(channels[0] as Float32Array, at48k(parseWav(wav), 0))).toBeGreaterThan(12);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
