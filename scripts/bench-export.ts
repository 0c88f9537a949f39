/**
 * `npm run bench -- export`: export everything against a throwaway local
 * cloud. A library of 100 finished tracks (each a 30 s stereo WAV from the
 * embedded synthesiser, stored where the workflow stores audio) is exported
 * through the API (POST /api/user/export, then GET until ready): the time from
 * the start to the ready export, and the memory of the process that runs the
 * job (the local cloud's process: its Lambda endpoint runs the jobs handler
 * there, beside s3rver and its proxy). The same export of 10 tracks first
 * shows whether memory grows with the library. A report, never a gate.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoGenerationStore } from '../functions/src/adapters/dynamo/generation-store';
import type { Generation } from '../functions/src/domain/tracks/track';
import type { LocalCloud } from '../local/src/cloud';
import { encodeWav, renderTrack } from '../local/src/music/synth';

export interface ExportBenchOptions {
  cloud: LocalCloud;
  documents: DynamoDBDocumentClient;
  /** Signs a new user in; answers its cookies. */
  signIn: (label: string) => Promise<string>;
  say: (line?: string) => void;
}

const MB = 1_000_000;
const TRACK_SECONDS = 30;

/** A process's resident memory from /proc (Linux): now, and its peak since the last reset. */
function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const status = readFileSync(file, 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
}

/** Resets the process's peak resident memory to what it uses now (Linux: clear_refs 5). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function exportOnce(
  options: ExportBenchOptions,
  wav: Uint8Array,
  tracks: number,
): Promise<{ ms: number; size: number; before: number; peak: number; sampledPeak: number }> {
  const { cloud } = options;
  const cookie = await options.signIn(`export-${tracks}`);
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${cloud.url}${path}`, {
      ...init,
      headers: { origin: cloud.url, 'content-type': 'application/json', cookie, ...init.headers },
    });
  const me = (await (await call('/api/auth/user')).json()) as { id: string };
  const s3 = new S3Client({
    region: cloud.env.AWS_REGION,
    endpoint: cloud.env.S3_ENDPOINT,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials: {
      accessKeyId: cloud.env.AWS_ACCESS_KEY_ID,
      secretAccessKey: cloud.env.AWS_SECRET_ACCESS_KEY,
    },
  });
  const store = dynamoGenerationStore(options.documents, cloud.env.TABLE_NAME);
  try {
    const start = Date.now() - tracks * 60_000;
    for (let i = 0; i < tracks; i++) {
      const id = `bench-export-${me.id.slice(0, 8)}-${i}`;
      const key = `tracks/${id}.wav`;
      await s3.send(
        new PutObjectCommand({
          Bucket: cloud.env.TRACKS_BUCKET,
          Key: key,
          Body: wav,
          ContentType: 'audio/wav',
        }),
      );
      const at = new Date(start + i * 60_000).toISOString();
      const track: Generation = {
        id,
        userId: me.id,
        type: 'text-to-music',
        title: `Bench track ${i + 1}`,
        tags: 'pop, upbeat',
        lyrics: '[verse]\nla la la',
        duration: TRACK_SECONDS,
        status: 'completed',
        visibility: 'private',
        showInGallery: false,
        inputAudioUrl: null,
        audioUrl: `s3://${cloud.env.TRACKS_BUCKET}/${key}`,
        seed: i,
        falRequestId: null,
        createdAt: at,
        updatedAt: at,
      };
      await store.create(track);
    }
  } finally {
    s3.destroy();
  }

  const pid = cloud.pids[0] as number;
  const peakReset = resetPeak(pid);
  const before = memoryOf(pid)?.rss ?? Number.NaN;
  let sampledPeak = before;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, memoryOf(pid)?.rss ?? 0);
  }, 20);
  const started = performance.now();
  try {
    const answer = await call('/api/user/export', { method: 'POST', body: '{}' });
    if (answer.status !== 202) throw new Error(`POST /api/user/export answered ${answer.status}`);
    const { exportId } = (await answer.json()) as { exportId: string };
    for (;;) {
      const state = (await (await call(`/api/user/export/${exportId}`)).json()) as {
        status: string;
        size?: number;
        tracksDone: number;
      };
      if (state.status === 'failed') throw new Error('the export failed');
      if (state.status === 'ready') {
        if (state.tracksDone !== tracks) throw new Error(`exported ${state.tracksDone} of ${tracks} tracks`);
        const ms = performance.now() - started;
        const peak = peakReset ? (memoryOf(pid)?.peak ?? Number.NaN) : Number.NaN;
        return { ms, size: state.size ?? 0, before, peak, sampledPeak };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    clearInterval(sampler);
  }
}

export async function exportBench(options: ExportBenchOptions): Promise<void> {
  const wav = encodeWav(
    renderTrack({
      tags: 'pop, upbeat, female singer',
      lyrics: '[verse]\nla la la',
      duration: TRACK_SECONDS,
      seed: 1,
    }),
  );
  const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
  options.say(
    `Export everything (local cloud; each track a ${TRACK_SECONDS} s stereo WAV of ${mb(wav.length)}; memory of the cloud's process, which runs the job, s3rver and its proxy):`,
  );
  for (const tracks of [10, 100]) {
    const run = await exportOnce(options, wav, tracks);
    const peak = Number.isFinite(run.peak) ? Math.max(run.peak, run.sampledPeak) : run.sampledPeak;
    options.say(
      `  ${String(tracks).padStart(3)} tracks (${mb(tracks * wav.length)}): start to ready ${(run.ms / 1000).toFixed(1)} s (${(run.size / MB / (run.ms / 1000)).toFixed(1)} MB/s), zip ${mb(run.size)}; RSS before ${mb(run.before)}, peak ${mb(peak)} (+${mb(peak - run.before)})`,
    );
  }
}
