import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GenerationDeps } from '@tunesmith/functions/domain/generations/ports';
import { quotaWindowStart } from '@tunesmith/functions/domain/generations/quota-window';
import type { Generation } from '@tunesmith/functions/domain/tracks/track';
import { fakeClock } from '@tunesmith/functions/testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '@tunesmith/functions/testing/in-memory-generations';
import { type WorkflowDeps, webhookReceived } from '@tunesmith/functions/workflow/steps';
import {
  fakeAudioStore,
  fakeMusicProvider,
  inMemoryCallbackStore,
  silentWav,
  testSite,
} from '@tunesmith/functions/workflow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkflowRunner, type WorkflowRunner } from './runner';

const clock = fakeClock();
const now = clock.now();

const generation = (): Generation => ({
  id: 'gen-1',
  userId: 'user-1',
  type: 'text-to-music',
  title: null,
  tags: 'jazz',
  lyrics: '',
  duration: 3,
  status: 'pending',
  visibility: 'public',
  showInGallery: true,
  inputAudioUrl: null,
  audioUrl: null,
  seed: null,
  falRequestId: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

let runner: WorkflowRunner | undefined;
afterEach(() => runner?.stop());

async function setup(
  fate: Parameters<typeof fakeMusicProvider>[0],
  options: { timeoutOverrideSeconds?: number; submitError?: Error; validatedDir?: string } = {},
) {
  const generations = inMemoryGenerationStore([generation()]);
  const quota = inMemoryQuota();
  quota.counters.set('user-1', { used: 1, windowStart: quotaWindowStart(now) });
  const gdeps: GenerationDeps = { generations, quota, clock, newId: () => 'x' };
  const provider = fakeMusicProvider(fate);
  if (options.submitError) provider.submitErrors.push(options.submitError);
  const callbacks = inMemoryCallbackStore();
  const deps: WorkflowDeps = {
    generation: gdeps,
    provider,
    audio: fakeAudioStore(new Map([['https://fal.example/a.wav', silentWav(3)]])),
    site: testSite,
    webhookUrl: (id) => `http://local/webhook/${id}`,
    callbacks,
  };
  runner = await createWorkflowRunner(deps, {
    retryIntervalMs: 0,
    ...(options.timeoutOverrideSeconds ? { timeoutOverrideSeconds: options.timeoutOverrideSeconds } : {}),
    ...(options.validatedDir ? { validatedDir: options.validatedDir } : {}),
  });
  const r = runner;
  /** The provider's webhook: once the job exists, through the same path the webhook route uses. */
  const webhook = async (status: 'OK' | 'ERROR') => {
    while (!generations.all.get('gen-1')?.falRequestId) await new Promise((res) => setTimeout(res, 5));
    const requestId = generations.all.get('gen-1')?.falRequestId as string;
    return webhookReceived({ callbacks, tasks: r.tasks }, { requestId, status, error: 'job failed' });
  };
  const start = () => r.startExecution({ name: 'gen-1', input: { generationId: 'gen-1' } });
  return { generations, quota, provider, webhook, start };
}

const ok = () => ({
  status: 'completed' as const,
  result: { audioUrl: 'https://fal.example/a.wav', seed: 7 },
});

describe('local workflow runner on generation.asl.json', () => {
  it('records a definition that passed validation, per definition, and runs from the record', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-validated-'));
    try {
      await setup(ok, { validatedDir: dir });
      const records = readdirSync(dir);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatch(/^valid-[0-9a-f]{24}$/);
      runner?.stop();
      // Another definition (a shortened wait) is validated and recorded on its own.
      await setup(ok, { validatedDir: dir, timeoutOverrideSeconds: 1 });
      expect(readdirSync(dir)).toHaveLength(2);
      runner?.stop();
      // Started from the record: the same definition runs as validated.
      const env = await setup(ok, { validatedDir: dir });
      const execution = await env.start();
      await env.webhook('OK');
      expect((await execution.done).status).toBe('SUCCEEDED');
      expect(readdirSync(dir)).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('webhook path: completes with seed, duration and our audio URL', async () => {
    const env = await setup(ok);
    const execution = await env.start();
    await env.webhook('OK');
    const done = await execution.done;
    expect(done.status).toBe('SUCCEEDED');
    expect(env.generations.all.get('gen-1')).toMatchObject({
      status: 'completed',
      seed: 7,
      duration: 3,
      audioUrl: 'https://tracks.example/tracks/gen-1.wav',
      downloadPending: false,
    });
    // Finish made it playable, then PrepareDownload made the download; each says what its phases took.
    const output = done.output as {
      track: { downloadPending: boolean; timings: Record<string, number> };
      download: { prepared: boolean; timings: Record<string, number> };
    };
    expect(output.track.downloadPending).toBe(true);
    expect(Object.keys(output.track.timings)).toEqual(expect.arrayContaining(['fetch', 'opus', 'record']));
    expect(output.download.prepared).toBe(true);
    expect(Object.keys(output.download.timings)).toEqual(
      expect.arrayContaining(['marking', 'hashing', 'store']),
    );
    expect(execution.output).toEqual(done.output);
    expect(env.quota.counters.get('user-1')?.used).toBe(1);
  });

  it('lost webhook: the wait times out, one poll finds it completed', async () => {
    const env = await setup(ok, { timeoutOverrideSeconds: 1 });
    const execution = await env.start();
    expect((await execution.done).status).toBe('SUCCEEDED');
    expect(env.generations.all.get('gen-1')?.status).toBe('completed');
  });

  it('webhook ERROR: failed and refunded', async () => {
    const env = await setup(() => ({ status: 'completed', error: new Error('x') }));
    const execution = await env.start();
    await env.webhook('ERROR');
    expect((await execution.done).status).toBe('FAILED');
    expect(env.generations.all.get('gen-1')?.status).toBe('failed');
    expect(env.quota.counters.get('user-1')?.used).toBe(0);
  });

  it('provider rejects the submit: failed and refunded once, no retry', async () => {
    const { MusicProviderError } = await import('@tunesmith/functions/domain/generations/music-provider');
    const env = await setup(ok, { submitError: new MusicProviderError('no', 'rejected', 422) });
    const execution = await env.start();
    expect((await execution.done).status).toBe('FAILED');
    expect(env.generations.all.get('gen-1')?.status).toBe('failed');
    expect(env.provider.jobs.size).toBe(0);
    expect(env.quota.counters.get('user-1')?.used).toBe(0);
  });

  it('busy queue: still running after a wait, waited for again, then finished without cancelling', async () => {
    const env = await setup(() => ({ status: 'running' }), { timeoutOverrideSeconds: 1 });
    const execution = await env.start();
    // The first wait ends and the poll finds it still running; it finishes during the second wait.
    await new Promise((r) => setTimeout(r, 1500));
    const job = env.provider.jobs.get('req-1');
    if (!job) throw new Error('no job');
    Object.assign(job, ok());
    expect((await execution.done).status).toBe('SUCCEEDED');
    expect(env.generations.all.get('gen-1')?.status).toBe('completed');
    expect(job.cancelled).toBeUndefined();
  });

  it('timeout: the job never finishes, the last poll fails it, the job is cancelled', async () => {
    const env = await setup(() => ({ status: 'running' }), { timeoutOverrideSeconds: 1 });
    const execution = await env.start();
    expect((await execution.done).status).toBe('FAILED');
    expect(env.generations.all.get('gen-1')?.status).toBe('failed');
    expect(env.provider.jobs.get('req-1')?.cancelled).toBe(true);
    expect(env.quota.counters.get('user-1')?.used).toBe(0);
    // About 4 s of the state's own waits: more than vitest's default 5 s leaves on a busy machine.
  }, 20_000);
});
