import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleLambda } from '../../../../infra/lib/lambda-bundle';
import { withGain } from '../../domain/audio/loudness';
import type { VorbisComment } from '../../domain/audio/marking';
import { OPUS_FRAME, opusParts } from '../../domain/audio/ogg-opus';
import { planarSource } from '../../domain/audio/pcm';
import { readOggPages } from '../../domain/audio/testing';
import { inThreadAudioWork } from '../../workflow/audio-work';
import { audioWorkerPool, workerAudio } from './audio-workers';
import { oggOpusStreamEncoder } from './opus-encoder';
import { decode, music, snrDb } from './testing';

const pool = audioWorkerPool(3);
const { work, streamEncoder } = workerAudio(pool);
afterAll(() => pool.close());

/** Eight seconds of music at 48 kHz: three parts of the copy, two joins. */
const song = planarSource({ sampleRate: 48_000, planes: music(8, 48_000) });

describe('audio worker threads', () => {
  it('measure loudness, tempo and key and peaks exactly as this thread does', async () => {
    const [loudness, tempoAndKey, peaks] = await Promise.all([
      work.loudness(song),
      work.tempoAndKey(song),
      work.peaks(song),
    ]);

    expect(loudness).toEqual(await inThreadAudioWork.loudness(song));
    expect(tempoAndKey).toEqual(await inThreadAudioWork.tempoAndKey(song));
    expect(peaks).toEqual(await inThreadAudioWork.peaks(song));
    expect(loudness.integratedLufs).toBeLessThan(-5);
  });

  it('encode the copy in parts that join without a seam, as good as one encoder, at the gain asked', async () => {
    const parts = opusParts(song.frames, pool.size);
    expect(parts).toHaveLength(3);
    const comments = Promise.resolve<VorbisComment[]>([['TITLE', 'In Parts']]);

    const joined = decode(await streamEncoder.encode(withGain(song, -6), comments));
    const single = decode(await oggOpusStreamEncoder.encode(withGain(song, -6), []));

    expect(joined.length).toBe(song.frames);
    expect(joined.preSkip).toBe(single.preSkip);
    const source = music(8, 48_000).map((plane) => plane.map((x) => x * 10 ** (-6 / 20)));
    for (const c of [0, 1]) {
      const played = joined.channels[c] as Float32Array;
      const reference = single.channels[c] as Float32Array;
      expect(snrDb(played, source[c] as Float32Array)).toBeGreaterThan(
        snrDb(reference, source[c] as Float32Array) - 0.5,
      );
      // 10 ms before each join to 20 ms after, where a fresh encoder without history is 17-25 dB worse
      // than one encoder (two parts' encoders decide apart after a join: ±4 dB either way in 30 ms).
      for (const { from } of parts.slice(1)) {
        const at = from * OPUS_FRAME;
        const window = [at - 480, at + 960] as const;
        expect(snrDb(played, source[c] as Float32Array, 0, ...window)).toBeGreaterThan(
          snrDb(reference, source[c] as Float32Array, 0, ...window) - 4,
        );
      }
    }
  });

  it('write the comments into the header once they come', async () => {
    const ogg = await streamEncoder.encode(song, Promise.resolve<VorbisComment[]>([['BPM', '120']]));

    const tags = new TextDecoder().decode(readOggPages(ogg)[1]?.packets[0]);
    expect(tags).toContain('BPM=120');
  });

  it('carry our errors back as themselves', async () => {
    await expect(
      pool.run({ kind: 'opus', audio: { sampleRate: 48_000, planes: [] }, gainDb: 0, part: { from: 0 } }),
    ).rejects.toMatchObject({ name: 'Audio.Format', message: 'The audio has no samples' });
    // The thread that threw is still there for the next task.
    expect((await work.loudness(song)).integratedLufs).toBeLessThan(-5);
  });

  it('fail what is queued when the pool closes', async () => {
    const own = audioWorkerPool(1);
    const running = own.run({ kind: 'peaks', audio: { sampleRate: 48_000, planes: music(8, 48_000) } });
    const queued = own.run({ kind: 'peaks', audio: { sampleRate: 48_000, planes: music(8, 48_000) } });
    const outcomes = Promise.allSettled([running, queued]);
    await own.close();
    const [first, second] = await outcomes;
    expect(first).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/stopped/) },
    });
    expect(second).toMatchObject({
      status: 'rejected',
      reason: { message: 'The audio worker pool was closed' },
    });
  });

  it('replace a thread that dies: its task fails, the next task runs on a new thread', async () => {
    const own = audioWorkerPool(1, new URL('./test-workers/dies-on-peaks.ts', import.meta.url));
    try {
      const silence = { sampleRate: 48_000, planes: [new Float32Array(48_000)] };
      await expect(own.run({ kind: 'peaks', audio: silence })).rejects.toThrow(
        'An audio worker thread stopped (exit code 3)',
      );
      const measured = await own.run({
        kind: 'loudness',
        audio: { sampleRate: 48_000, planes: music(8, 48_000) },
      });
      expect(measured.integratedLufs).toBeLessThan(-5);
    } finally {
      await own.close();
    }
  });

  it('fail every queued task, once, when a thread cannot start', async () => {
    const own = audioWorkerPool(1, new URL('./test-workers/cannot-start.ts', import.meta.url));
    const audio = { sampleRate: 48_000, planes: music(1, 48_000) };
    const outcomes = await Promise.allSettled([
      own.run({ kind: 'peaks', audio }),
      own.run({ kind: 'loudness', audio }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(outcomes[0]).toMatchObject({ reason: { message: 'This audio worker cannot start' } });
    expect(outcomes[1]).toMatchObject({ reason: { message: 'This audio worker cannot start' } });
    await own.close();
  });

  it('run bundled as the stack bundles a Lambda: the worker is an entry beside the function', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tunesmith-audio-workers-bundle-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(
        entry,
        `import { audioWorkerPool, workerAudio } from ${JSON.stringify(fileURLToPath(new URL('./audio-workers.ts', import.meta.url)))};
         import { planarSource } from ${JSON.stringify(fileURLToPath(new URL('../../domain/audio/pcm.ts', import.meta.url)))};
         import { writeFileSync } from 'node:fs';
         const pool = audioWorkerPool(2);
         const { work, streamEncoder } = workerAudio(pool);
         const left = new Float32Array(96000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 48000));
         const song = planarSource({ sampleRate: 48000, planes: [left, left] });
         const loudness = await work.loudness(song);
         writeFileSync(process.argv[2], await streamEncoder.encode(song, []));
         writeFileSync(process.argv[3], JSON.stringify(loudness));
         await pool.close();`,
      );
      bundleLambda(entry, join(dir, 'out'));
      expect(existsSync(join(dir, 'out', 'audio-worker.mjs'))).toBe(true);

      execFileSync(
        process.execPath,
        [join(dir, 'out', 'index.mjs'), join(dir, 'out.opus'), join(dir, 'loudness.json')],
        {
          cwd: dir,
        },
      );

      const { length } = decode(new Uint8Array(readFileSync(join(dir, 'out.opus'))));
      expect(length).toBe(96_000);
      const loudness = JSON.parse(readFileSync(join(dir, 'loudness.json'), 'utf8')) as {
        integratedLufs: number;
      };
      // A 440 Hz sine at 0.3 in both ears: about -10.5 LUFS (K-weighting adds a little at 440 Hz).
      expect(loudness.integratedLufs).toBeGreaterThan(-12);
      expect(loudness.integratedLufs).toBeLessThan(-9);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
