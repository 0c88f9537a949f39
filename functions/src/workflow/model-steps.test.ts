import { describe, expect, it } from 'vitest';
import type { GenerationDeps } from '../domain/generations/ports';
import type { Generation } from '../domain/tracks/track';
import { fakeClock } from '../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../testing/in-memory-generations';
import { failStep, finishStep, pollStep, submitStep, type WorkflowDeps } from './steps';
import {
  fakeAudioStore,
  fakeMusicProvider,
  fakeStreamEncoder,
  inMemoryCallbackStore,
  recordingLog,
  silentWav,
  testSite,
} from './testing';

const clock = fakeClock();
const now = clock.now().toISOString();

const generation = (over: Partial<Generation> = {}): Generation => ({
  id: 'gen-1',
  userId: 'user-1',
  type: 'text-to-music',
  title: 'Song',
  tags: 'pop, 96 bpm, A minor',
  lyrics: '[verse]\nhello there my friend',
  duration: 30,
  status: 'pending',
  visibility: 'private',
  showInGallery: false,
  inputAudioUrl: null,
  audioUrl: null,
  seed: null,
  falRequestId: null,
  createdAt: now,
  updatedAt: now,
  ...over,
});

function setup(initial: Generation, status: 'completed' | 'running' = 'completed') {
  const generations = inMemoryGenerationStore([initial]);
  const gdeps: GenerationDeps = { generations, quota: inMemoryQuota(), clock, newId: () => 'x' };
  const provider = fakeMusicProvider(() => ({
    status,
    result: { audioUrl: 'https://fal.example/out.wav', seed: 9 },
  }));
  const deps: WorkflowDeps = {
    generation: gdeps,
    provider,
    audio: fakeAudioStore(new Map([['https://fal.example/out.wav', silentWav(3)]])),
    streamEncoder: fakeStreamEncoder(),
    site: testSite,
    log: recordingLog(),
    webhookUrl: (id) => `https://api.example/webhooks/fal?generation=${id}`,
    callbacks: inMemoryCallbackStore(),
  };
  return { deps, provider, generations };
}

describe('the workflow and the model a track is made with', () => {
  it('submits the generation’s model and follows the job at that model’s endpoint', async () => {
    const env = setup(generation({ model: 'cassetteai' }));
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(job).toMatchObject({ kind: 'text', endpoint: 'CassetteAI/music-generator' });
    expect(env.provider.jobs.get(job.requestId)?.request).toMatchObject({
      model: 'cassetteai',
      tags: 'pop, 96 bpm, A minor',
      duration: 30,
    });
    await pollStep(env.deps, { generationId: 'gen-1', job });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    expect(env.provider.jobs.get(job.requestId)?.followedAt).toEqual([
      'CassetteAI/music-generator',
      'CassetteAI/music-generator',
    ]);
  });

  it('gives a model that decides the length no duration, and sends the lyrics as written', async () => {
    const env = setup(generation({ model: 'minimax-music-2', duration: null }));
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(job.endpoint).toBe('fal-ai/minimax-music/v2');
    expect(env.provider.jobs.get(job.requestId)?.request).toMatchObject({
      model: 'minimax-music-2',
      duration: null,
      lyrics: '[verse]\nhello there my friend',
      instrumental: false,
    });
  });

  it('runs a track without a model (made before the choice) on ACE-Step, with 60 s when it has no duration', async () => {
    const env = setup(generation({ duration: null }));
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(job.endpoint).toBe('fal-ai/ace-step');
    expect(env.provider.jobs.get(job.requestId)?.request).toMatchObject({ model: 'ace-step', duration: 60 });
  });

  it('follows a job from before the endpoint was recorded at its kind’s ACE-Step endpoint', async () => {
    const env = setup(generation({ status: 'generating', falRequestId: 'req-1' }));
    env.provider.jobs.set('req-1', {
      kind: 'text',
      status: 'completed',
      result: { audioUrl: 'https://fal.example/out.wav', seed: 1 },
    });
    const old = { requestId: 'req-1', kind: 'text' as const, waitSeconds: 60, waits: 0 };
    await finishStep(env.deps, { generationId: 'gen-1', job: old });
    expect(env.provider.jobs.get('req-1')?.followedAt).toEqual([undefined]);
    expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'completed' });
  });

  it('cancels a job it gives up on at the endpoint of the track’s model', async () => {
    const env = setup(generation({ model: 'stable-audio-2.5' }), 'running');
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await failStep(env.deps, { generationId: 'gen-1', error: { Error: 'States.Timeout' } });
    expect(env.provider.jobs.get(job.requestId)).toMatchObject({
      cancelled: true,
      followedAt: ['fal-ai/stable-audio-25/text-to-audio'],
    });
  });

  it('refuses a studio job for a model that does not run it, before anything is submitted', async () => {
    const env = setup(
      generation({
        model: 'minimax-music-2.5',
        parentId: 'p1',
        edit: { kind: 'extend', seconds: 10, at: 'end' },
      }),
    );
    await expect(submitStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
      name: 'Provider.Rejected',
    });
    expect(env.provider.jobs.size).toBe(0);
  });
});
