/**
 * Worker threads for the audio work of a finished track (decision 050):
 * loudness, tempo and key, peaks and the stream copy's Opus encode run at
 * once, each on a core of its own, the copy in parts that join without a
 * seam (domain/audio/ogg-opus.ts). The track's samples are read once into
 * shared memory that every thread reads.
 *
 * Bundled for Lambda, the worker is an entry of its own beside the
 * function's (infra/lib/lambda-bundle.ts); run from source (the local cloud,
 * tests, scripts), it is the TypeScript file, loaded through tsx.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { gainOf } from '../../domain/audio/loudness';
import type { VorbisComment } from '../../domain/audio/marking';
import { oggOpusFile, opusInput, opusParts } from '../../domain/audio/ogg-opus';
import { type PcmSource, type PlanarPcm, planarSource, readPlanes } from '../../domain/audio/pcm';
import type { AudioWork } from '../../workflow/audio-work';
import type { StreamEncoder } from '../../workflow/steps';
import { type AudioResult, type AudioTask, type CarriedError, restoreError } from './audio-tasks';
import { oggOpusStreamEncoder } from './opus-encoder';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
/** The worker's entry: the bundle's `audio-worker.mjs` (AUDIO_WORKER_ENTRY), or the source file. */
export const AUDIO_WORKER_FILE = new URL(
  FROM_SOURCE ? './audio-worker.ts' : './audio-worker.mjs',
  import.meta.url,
);
const EXEC_ARGV = FROM_SOURCE ? ['--import', 'tsx'] : [];

/** The most threads a pool starts: Lambda gives at most 6 vCPUs, and a track has four measures to run. */
const MOST_THREADS = 4;

export interface AudioWorkerPool {
  /** Threads the pool runs at most. */
  readonly size: number;
  /** Starts the threads now rather than on the first task (they take tens of ms to load). */
  start(): void;
  run<T extends AudioTask>(task: T): Promise<AudioResult<T>>;
  /** Stops every thread; tasks still queued or running fail. */
  close(): Promise<void>;
}

interface Job {
  task: AudioTask;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * A pool of `size` audio worker threads (the machine's cores, at most
 * {@link MOST_THREADS}), started when first needed. Tasks queue in order; an
 * idle thread does not keep the process alive. A thread that dies fails its
 * task and is replaced on the next; one that cannot start fails every queued
 * task rather than being started again and again.
 */
export function audioWorkerPool(
  size = Math.max(1, Math.min(MOST_THREADS, availableParallelism())),
  /** The threads' entry (tests start one that fails on purpose). */
  file: URL = AUDIO_WORKER_FILE,
): AudioWorkerPool {
  const threads = new Set<Worker>();
  const idle: Worker[] = [];
  const running = new Map<Worker, Job & { id: number }>();
  const queue: Job[] = [];
  let nextId = 0;

  const lose = (worker: Worker, error: Error, started: boolean) => {
    if (!threads.delete(worker)) return;
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    running.get(worker)?.reject(error);
    running.delete(worker);
    if (!started) for (const job of queue.splice(0)) job.reject(error);
    dispatch();
  };

  const spawn = () => {
    const worker = new Worker(file, { execArgv: EXEC_ARGV });
    let started = false;
    worker.once('online', () => {
      started = true;
    });
    worker.on(
      'message',
      (answer: { id: number; ok: true; value: unknown } | { id: number; ok: false; error: CarriedError }) => {
        const job = running.get(worker);
        if (!job || job.id !== answer.id) return;
        running.delete(worker);
        worker.unref();
        idle.push(worker);
        if (answer.ok) job.resolve(answer.value);
        else job.reject(restoreError(answer.error));
        dispatch();
      },
    );
    worker.on('error', (error) => lose(worker, error, started));
    worker.on('exit', (code) =>
      lose(worker, new Error(`An audio worker thread stopped (exit code ${code})`), started),
    );
    worker.unref();
    threads.add(worker);
    idle.push(worker);
  };

  const dispatch = () => {
    while (queue.length > 0) {
      if (idle.length === 0 && threads.size < size) spawn();
      const worker = idle.shift();
      if (!worker) return;
      const job = queue.shift() as Job;
      const id = nextId++;
      running.set(worker, { ...job, id });
      // A task under way keeps the process alive, as any other awaited work does.
      worker.ref();
      worker.postMessage({ id, task: job.task });
    }
  };

  return {
    size,
    start() {
      while (threads.size < size) spawn();
    },
    run<T extends AudioTask>(task: T) {
      return new Promise<AudioResult<T>>((resolve, reject) => {
        queue.push({ task, resolve: resolve as (value: unknown) => void, reject });
        dispatch();
      });
    },
    async close() {
      const stopping = [...threads].map((worker) => worker.terminate());
      for (const job of queue.splice(0)) job.reject(new Error('The audio worker pool was closed'));
      await Promise.all(stopping);
    },
  };
}

/**
 * The workflow's audio work and stream encoder on `pool`: each measure a task
 * of its own, the Opus copy one task per thread (Ogg Opus as
 * {@link oggOpusStreamEncoder} writes it, its comments awaited only when the
 * header is written, after the encode).
 */
export function workerAudio(pool: AudioWorkerPool): { work: AudioWork; streamEncoder: StreamEncoder } {
  const shared = new WeakMap<PcmSource, PlanarPcm>();
  const planesOf = (pcm: PcmSource) => {
    let audio = shared.get(pcm);
    if (!audio) {
      audio = readPlanes(pcm, (bytes) => new SharedArrayBuffer(bytes));
      shared.set(pcm, audio);
    }
    return audio;
  };
  return {
    work: {
      prepare: () => pool.start(),
      loudness: (pcm) => pool.run({ kind: 'loudness', audio: planesOf(pcm) }),
      tempoAndKey: (pcm) => pool.run({ kind: 'tempoAndKey', audio: planesOf(pcm) }),
      peaks: (pcm) => pool.run({ kind: 'peaks', audio: planesOf(pcm) }),
    },
    streamEncoder: {
      contentType: oggOpusStreamEncoder.contentType,
      extension: oggOpusStreamEncoder.extension,
      async encode(pcm, comments: readonly VorbisComment[] | Promise<readonly VorbisComment[]>) {
        // The gain is applied by each thread as it reads: the samples are shared as they were measured.
        const { source, gainDb } = gainOf(pcm);
        const audio = planesOf(source);
        const { pcm: input, channels } = opusInput(planarSource(audio));
        const parts = await Promise.all(
          opusParts(input.frames, pool.size).map((part) => pool.run({ kind: 'opus', audio, gainDb, part })),
        );
        const first = parts[0] as AudioResult<{ kind: 'opus' } & AudioTask>;
        return oggOpusFile(
          parts.flatMap((encoded) => encoded.packets),
          {
            channels,
            preSkip: first.lookahead,
            length: input.frames,
            inputSampleRate: source.sampleRate,
            vendor: first.vendor,
            comments: await comments,
          },
        );
      },
    },
  };
}
