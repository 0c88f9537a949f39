import { createHash } from 'node:crypto';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { beforeEach, describe, expect, it } from 'vitest';
import { loudnessRecord, measureLoudness } from '../domain/audio/loudness';
import { type FileMarking, markWav, opusComments } from '../domain/audio/marking';
import type { PcmSource } from '../domain/audio/pcm';
import { computePeaks } from '../domain/audio/peaks';
import { beatAndChords, tone, wavFile } from '../domain/audio/testing';
import { parseWav } from '../domain/audio/wav';
import { trackDownload } from '../domain/generations/download';
import { MusicProviderError } from '../domain/generations/music-provider';
import type { GenerationDeps } from '../domain/generations/ports';
import { quotaWindowStart } from '../domain/generations/quota-window';
import { callbackWaitSeconds, MAX_CALLBACK_WAITS } from '../domain/generations/timing';
import { type Generation, isDownloadReady, storedTrackAudio, toTrack } from '../domain/tracks/track';
import { aBasicPlan } from '../testing/fixtures';
import { fakeClock } from '../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../testing/in-memory-generations';
import { inMemorySharePages, shareDeps } from '../testing/in-memory-share-pages';
import { type AudioWork, inThreadAudioWork } from './audio-work';
import {
  executionEndedStep,
  failStep,
  fileMarkingOf,
  finishStep,
  pollStep,
  prepareDownloadStep,
  submitStep,
  type TaskCallbacks,
  trackAudioKey,
  trackMasterKey,
  type WorkflowDeps,
  waitStep,
  webhookReceived,
} from './steps';
import {
  fakeAudioStore,
  fakeMusicProvider,
  fakeStreamEncoder,
  inMemoryCallbackStore,
  recordingLog,
  silentWav,
  testSite,
} from './testing';
import { wavDurationSeconds } from './wav';

const clock = fakeClock();
const now = clock.now();
const windowStart = quotaWindowStart(now);

const generation = (over: Partial<Generation> = {}): Generation => ({
  id: 'gen-1',
  userId: 'user-1',
  type: 'text-to-music',
  title: 'Song',
  tags: 'rock, upbeat',
  lyrics: '[verse]\nhello',
  duration: 30,
  status: 'pending',
  visibility: 'public',
  showInGallery: true,
  inputAudioUrl: null,
  audioUrl: null,
  seed: null,
  falRequestId: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  ...over,
});

function setup(fate: Parameters<typeof fakeMusicProvider>[0], initial = generation()) {
  const generations = inMemoryGenerationStore([initial]);
  const quota = inMemoryQuota();
  quota.counters.set('user-1', { used: 1, windowStart });
  const gdeps: GenerationDeps = { generations, quota, clock, newId: () => 'x' };
  const provider = fakeMusicProvider(fate);
  const files = new Map([['https://fal.example/out.wav', silentWav(12.5)]]);
  const audio = fakeAudioStore(files);
  const streamEncoder = fakeStreamEncoder();
  const log = recordingLog();
  const answers: { token: string; ok: boolean; detail: unknown }[] = [];
  const tasks: TaskCallbacks = {
    async success(token, output) {
      answers.push({ token, ok: true, detail: output });
    },
    async failure(token, error) {
      answers.push({ token, ok: false, detail: error });
    },
  };
  const sharePages = inMemorySharePages();
  const deps: WorkflowDeps = {
    generation: gdeps,
    provider,
    audio,
    streamEncoder,
    site: testSite,
    log,
    sharePages: shareDeps(generations, sharePages),
    webhookUrl: (id) => `https://api.example/webhooks/fal?generation=${id}`,
    callbacks: inMemoryCallbackStore(),
    tasks,
  };
  return { deps, generations, quota, provider, audio, streamEncoder, log, answers, sharePages };
}

const completedJob = (duration?: number) => () => ({
  status: 'completed' as const,
  result: { audioUrl: 'https://fal.example/out.wav', seed: 4242, ...(duration ? { duration } : {}) },
});

describe('wavDurationSeconds', () => {
  it('reads the length from the header', () => {
    expect(wavDurationSeconds(silentWav(2))).toBe(2);
    expect(wavDurationSeconds(silentWav(0.5, 22050, 1))).toBe(0.5);
    expect(wavDurationSeconds(new TextEncoder().encode('ID3 not a wav file'))).toBeUndefined();
  });
});

describe('workflow steps', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup(completedJob());
  });

  it('submits with the webhook URL and marks generating with the request id', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(job).toMatchObject({ requestId: 'req-1', kind: 'text', waits: 0 });
    expect(env.provider.jobs.get('req-1')?.webhookUrl).toBe(
      'https://api.example/webhooks/fal?generation=gen-1',
    );
    expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'generating', falRequestId: 'req-1' });
    // A retried submit reuses the accepted job.
    expect(await submitStep(env.deps, { generationId: 'gen-1' })).toEqual(job);
    expect(env.provider.jobs.size).toBe(1);
  });

  it('does not submit a generation that already ended', async () => {
    env.generations.all.set('gen-1', generation({ status: 'failed' }));
    await expect(submitStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
      name: 'Generation.Ended',
    });
    expect(env.provider.jobs.size).toBe(0);
  });

  it('a track deleted during the copy keeps no audio, and failing it is a no-op', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    const fetchResult = env.audio.fetch.bind(env.audio);
    env.audio.fetch = async (url) => {
      const bytes = await fetchResult(url);
      env.generations.all.delete('gen-1');
      return bytes;
    };
    await expect(finishStep(env.deps, { generationId: 'gen-1', job })).rejects.toMatchObject({
      name: 'Generation.NotFound',
    });
    // The master, the compressed copy and the peaks were stored, then removed.
    expect([...env.audio.types.keys()]).toEqual([
      'tracks/gen-1.master.wav',
      'tracks/gen-1.peaks.json',
      'tracks/gen-1.opus',
    ]);
    expect(env.audio.copies.size).toBe(0);
    expect(
      await failStep(env.deps, { generationId: 'gen-1', error: { Error: 'Generation.NotFound' } }),
    ).toEqual({
      refunded: false,
      reason: 'Generation.NotFound',
    });
    expect(env.quota.counters.get('user-1')?.used).toBe(1);
  });

  it('a track that failed during the copy keeps no audio and stays failed', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    const fetchResult = env.audio.fetch.bind(env.audio);
    env.audio.fetch = async (url) => {
      const bytes = await fetchResult(url);
      env.generations.all.set('gen-1', generation({ status: 'failed', falRequestId: job.requestId }));
      return bytes;
    };
    await expect(finishStep(env.deps, { generationId: 'gen-1', job })).rejects.toMatchObject({
      name: 'Generation.Ended',
    });
    expect(env.audio.copies.size).toBe(0);
    expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'failed', audioUrl: null });
  });

  it('completed path: copies the audio and stores seed, WAV duration and our URL', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    const out = await finishStep(env.deps, { generationId: 'gen-1', job });
    const master = trackMasterKey({ id: 'gen-1' });
    const key = trackAudioKey({ id: 'gen-1' });
    // The keys name the track, never its owner.
    expect([master, key]).toEqual(['tracks/gen-1.master.wav', 'tracks/gen-1.wav']);
    expect(key).not.toContain('user-1');
    expect(env.audio.copies.has(master)).toBe(true);
    expect(out).toEqual({
      audioUrl: `https://tracks.example/${master}`,
      streamAudioUrl: 'https://tracks.example/tracks/gen-1.opus',
      peaksUrl: 'https://tracks.example/tracks/gen-1.peaks.json',
      duration: 12.5,
      seed: 4242,
      downloadPending: true,
      timings: expect.any(Object),
    });
    // Each phase's time, for the bench and the logs (the measures run at once, so in no set order).
    expect(Object.keys(out.timings).sort()).toEqual(
      ['fetch', 'loudness', 'analysis', 'peaks', 'opus', 'store', 'record', 'sharePage'].sort(),
    );
    expect(env.generations.all.get('gen-1')).toMatchObject({
      status: 'completed',
      audioUrl: `https://tracks.example/${master}`,
      duration: 12.5,
      seed: 4242,
      downloadPending: true,
    });

    const prepared = await prepareDownloadStep(env.deps, { generationId: 'gen-1' });
    expect(prepared).toEqual({
      prepared: true,
      audioSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      timings: expect.any(Object),
    });
    expect(Object.keys(prepared.timings)).toEqual([
      'read',
      'marking',
      'hashing',
      'store',
      'record',
      'cleanup',
    ]);
    expect(env.audio.copies.has(key)).toBe(true);
    expect(env.audio.copies.has(master)).toBe(false);
    expect(env.generations.all.get('gen-1')).toMatchObject({
      status: 'completed',
      audioUrl: `https://tracks.example/${key}`,
      audioSha256: prepared.audioSha256,
      downloadPending: false,
    });
  });

  it('a public track gets its share page when it completes; a private one gets none', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(env.sharePages.documents.has('gen-1')).toBe(false);
    await finishStep(env.deps, { generationId: 'gen-1', job });
    expect(env.sharePages.documents.get('gen-1')).toContain('<meta property="og:title" content="Song" />');

    const secret = setup(completedJob(), generation({ visibility: 'private' }));
    await finishStep(secret.deps, {
      generationId: 'gen-1',
      job: await submitStep(secret.deps, { generationId: 'gen-1' }),
    });
    expect(secret.generations.all.get('gen-1')?.status).toBe('completed');
    expect(secret.sharePages.documents.size).toBe(0);
  });

  it('a share page that cannot be written leaves the track completed and says so in the log', async () => {
    const broken = setup(completedJob());
    broken.deps.sharePages = shareDeps(broken.generations, inMemorySharePages({ failPublish: () => true }));
    await finishStep(broken.deps, {
      generationId: 'gen-1',
      job: await submitStep(broken.deps, { generationId: 'gen-1' }),
    });
    expect(broken.generations.all.get('gen-1')?.status).toBe('completed');
    expect(broken.log.warnings.map((w) => w.message)).toContain(
      'the share page of a completed track was not written',
    );
  });

  it('makes the compressed copy from the same audio, beside it; players get the copy, downloads the WAV', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });

    expect(env.streamEncoder.inputs).toHaveLength(1);
    expect(env.streamEncoder.inputs[0]?.pcm.frames).toBe(12.5 * 44100);
    expect(new TextDecoder().decode(env.audio.copies.get('tracks/gen-1.opus'))).toBe(
      `OggS copy of ${12.5 * 44100} frames`,
    );
    expect(env.audio.types.get('tracks/gen-1.opus')).toBe('audio/ogg; codecs=opus');
    expect(env.audio.types.get('tracks/gen-1.master.wav')).toBe('audio/wav');
    const done = env.generations.all.get('gen-1') as Generation;
    expect(done).toMatchObject({
      status: 'completed',
      audioUrl: 'https://tracks.example/tracks/gen-1.master.wav',
      streamAudioUrl: 'https://tracks.example/tracks/gen-1.opus',
    });
    expect(toTrack(done).audioUrl).toBe('https://tracks.example/tracks/gen-1.opus');
    const subscriber = { id: 'user-1', planStatus: 'active' as const, planEndDate: null };
    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });
    const download = await trackDownload(env.deps.generation, subscriber, aBasicPlan(), 'gen-1');
    expect(download.audioUrl).toBe('https://tracks.example/tracks/gen-1.wav');
    expect(env.audio.types.get('tracks/gen-1.wav')).toBe('audio/wav');
    expect(env.log.warnings).toEqual([]);
  });

  it('a copy that cannot be made leaves the track completed with the WAV, and is logged', async () => {
    env.streamEncoder.failWith = new Error('Not a WAV file');
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    const out = await finishStep(env.deps, { generationId: 'gen-1', job });

    expect(out.streamAudioUrl).toBeNull();
    const done = env.generations.all.get('gen-1') as Generation;
    expect(done).toMatchObject({
      status: 'completed',
      audioUrl: 'https://tracks.example/tracks/gen-1.master.wav',
      streamAudioUrl: null,
    });
    // Players get the master until the download is prepared, then the WAV download.
    expect(toTrack(done).audioUrl).toBe('https://tracks.example/tracks/gen-1.master.wav');
    expect([...env.audio.copies.keys()]).toEqual(['tracks/gen-1.master.wav', 'tracks/gen-1.peaks.json']);
    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });
    expect(toTrack(env.generations.all.get('gen-1') as Generation).audioUrl).toBe(
      'https://tracks.example/tracks/gen-1.wav',
    );
    expect(env.log.warnings).toEqual([
      {
        message: expect.stringContaining('compressed copy'),
        fields: expect.objectContaining({ generationId: 'gen-1', error: env.streamEncoder.failWith }),
      },
    ]);

    // Storing it failing is no different.
    const stored = setup(completedJob());
    const put = stored.audio.put.bind(stored.audio);
    stored.audio.put = async (key, bytes, type) => {
      if (key.endsWith('.wav')) return put(key, bytes, type);
      throw new Error('SlowDown');
    };
    const job2 = await submitStep(stored.deps, { generationId: 'gen-1' });
    await finishStep(stored.deps, { generationId: 'gen-1', job: job2 });
    expect(stored.generations.all.get('gen-1')).toMatchObject({
      status: 'completed',
      streamAudioUrl: null,
      peaksUrl: null,
    });
    expect(stored.log.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('peaks'),
      expect.stringContaining('compressed copy'),
    ]);
  });

  it('without an encoder, tracks keep only the WAV', async () => {
    const { streamEncoder: _none, ...deps } = env.deps;
    const job = await submitStep(deps, { generationId: 'gen-1' });
    expect((await finishStep(deps, { generationId: 'gen-1', job })).streamAudioUrl).toBeNull();
    expect([...env.audio.copies.keys()]).toEqual(['tracks/gen-1.master.wav', 'tracks/gen-1.peaks.json']);
  });

  it("stores the waveform's peaks of the WAV beside it and records their URL", async () => {
    const wav = wavFile([tone(440, 2, 44100, 0.5)], { sampleRate: 44100 });
    env.audio.fetch = async () => wav;
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    const out = await finishStep(env.deps, { generationId: 'gen-1', job });

    expect(out.peaksUrl).toBe('https://tracks.example/tracks/gen-1.peaks.json');
    expect(env.audio.types.get('tracks/gen-1.peaks.json')).toBe('application/json');
    const stored = JSON.parse(new TextDecoder().decode(env.audio.copies.get('tracks/gen-1.peaks.json')));
    expect(stored).toEqual(computePeaks(parseWav(wav)));
    expect(stored).toMatchObject({ version: 2, channels: 1, bits: 8, samples_per_pixel: 2205, length: 40 });
    expect(Math.max(...stored.data)).toBe(64);
    const done = env.generations.all.get('gen-1') as Generation;
    expect(done).toMatchObject({ status: 'completed', peaksUrl: out.peaksUrl });
    expect(toTrack(done).peaksUrl).toBe(out.peaksUrl);
    expect(storedTrackAudio(done)).toContain(out.peaksUrl);
    expect(env.log.warnings).toEqual([]);
  });

  it('audio that is not a WAV completes as it came: hashed, unmeasured, without a copy or peaks, and logged', async () => {
    const notWav = new TextEncoder().encode('ID3 an mp3 after all');
    env.audio.fetch = async () => notWav;
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    const out = await finishStep(env.deps, { generationId: 'gen-1', job });

    // Its own download at once: nothing to prepare.
    expect(out).toMatchObject({ streamAudioUrl: null, peaksUrl: null, duration: 30, downloadPending: false });
    expect([...env.audio.copies.keys()]).toEqual(['tracks/gen-1.wav']);
    expect(env.audio.copies.get('tracks/gen-1.wav')).toEqual(notWav);
    const done = env.generations.all.get('gen-1') as Generation;
    expect(done).toMatchObject({
      status: 'completed',
      peaksUrl: null,
      loudness: null,
      audioSha256: createHash('sha256').update(notWav).digest('hex'),
    });
    expect(isDownloadReady(done)).toBe(true);
    expect(env.streamEncoder.inputs).toEqual([]);
    expect(env.log.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/not a WAV.*no compressed copy or peaks/),
    ]);
  });

  it('plays before its download is ready: the download, its hash and the export wait for PrepareDownload', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    const playing = env.generations.all.get('gen-1') as Generation;
    // Completed: the player has its stream and waveform ...
    expect(toTrack(playing)).toMatchObject({
      status: 'completed',
      audioUrl: 'https://tracks.example/tracks/gen-1.opus',
      peaksUrl: 'https://tracks.example/tracks/gen-1.peaks.json',
      downloadReady: false,
    });
    // ... the WAV download is not made yet, and asking for it says so.
    expect(env.audio.copies.has('tracks/gen-1.wav')).toBe(false);
    expect(playing.audioSha256).toBeNull();
    const subscriber = { id: 'user-1', planStatus: 'active' as const, planEndDate: null };
    await expect(trackDownload(env.deps.generation, subscriber, aBasicPlan(), 'gen-1')).rejects.toMatchObject(
      {
        kind: 'conflict',
        message: 'The download is being prepared',
      },
    );

    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });
    const ready = env.generations.all.get('gen-1') as Generation;
    expect(toTrack(ready)).toMatchObject({
      audioUrl: 'https://tracks.example/tracks/gen-1.opus',
      downloadReady: true,
    });
    const wav = env.audio.copies.get('tracks/gen-1.wav') as Uint8Array;
    expect(ready.audioSha256).toBe(createHash('sha256').update(wav).digest('hex'));
    expect(await trackDownload(env.deps.generation, subscriber, aBasicPlan(), 'gen-1')).toMatchObject({
      audioUrl: 'https://tracks.example/tracks/gen-1.wav',
    });
    // Nothing of the master is left behind, and the track's stored files are what it names.
    expect([...env.audio.copies.keys()].sort()).toEqual([
      'tracks/gen-1.opus',
      'tracks/gen-1.peaks.json',
      'tracks/gen-1.wav',
    ]);
    expect(storedTrackAudio(ready).sort()).toEqual(
      [...env.audio.copies.keys()].map((key) => `https://tracks.example/${key}`).sort(),
    );
  });

  it('a failure preparing the download throws for the retries, the track playing meanwhile; a retry prepares it', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    const put = env.audio.put.bind(env.audio);
    let failures = 2;
    env.audio.put = async (key, bytes, type) => {
      if (failures > 0) {
        failures--;
        throw Object.assign(new Error('SlowDown'), { name: 'SlowDown' });
      }
      return put(key, bytes, type);
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(prepareDownloadStep(env.deps, { generationId: 'gen-1' })).rejects.toThrow('SlowDown');
      // Never failed, never refunded: it plays, its download still pending, its master kept.
      expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'completed', downloadPending: true });
      expect(env.audio.copies.has('tracks/gen-1.master.wav')).toBe(true);
      expect(env.quota.counters.get('user-1')?.used).toBe(1);
    }
    // The workflow gave up here: the execution ends failed, which reports the track (counted and alarmed) ...
    expect(await executionEndedStep(env.deps, { generationId: 'gen-1', status: 'FAILED' })).toEqual({
      downloadPending: true,
    });
    expect(env.generations.all.get('gen-1')?.status).toBe('completed');
    expect(env.quota.counters.get('user-1')?.used).toBe(1);
    // ... and the next attempt (a retry, or the files backfill) prepares it.
    expect(await prepareDownloadStep(env.deps, { generationId: 'gen-1' })).toMatchObject({ prepared: true });
    expect(isDownloadReady(env.generations.all.get('gen-1') as Generation)).toBe(true);
    expect(env.audio.copies.has('tracks/gen-1.master.wav')).toBe(false);
  });

  it('a prepared track run again only loses a master left behind; a track deleted meanwhile keeps nothing', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    const remove = env.audio.remove.bind(env.audio);
    env.audio.remove = async () => {
      throw new Error('InternalError');
    };
    // The download is there, but removing the master failed: the step fails for a retry.
    await expect(prepareDownloadStep(env.deps, { generationId: 'gen-1' })).rejects.toThrow('InternalError');
    expect(isDownloadReady(env.generations.all.get('gen-1') as Generation)).toBe(true);
    env.audio.remove = remove;
    const wav = env.audio.copies.get('tracks/gen-1.wav');
    expect(await prepareDownloadStep(env.deps, { generationId: 'gen-1' })).toMatchObject({ prepared: false });
    expect(env.audio.copies.has('tracks/gen-1.master.wav')).toBe(false);
    expect(env.audio.copies.get('tracks/gen-1.wav')).toBe(wav);

    // Deleted while its download was made: the file made for it goes too.
    const gone = setup(completedJob());
    await finishStep(gone.deps, {
      generationId: 'gen-1',
      job: await submitStep(gone.deps, { generationId: 'gen-1' }),
    });
    const read = gone.audio.read.bind(gone.audio);
    gone.audio.read = async (stored) => {
      const bytes = await read(stored);
      gone.generations.all.delete('gen-1');
      gone.audio.copies.clear(); // what the delete route removes: the files the track names
      return bytes;
    };
    expect(await prepareDownloadStep(gone.deps, { generationId: 'gen-1' })).toMatchObject({
      prepared: false,
    });
    expect(gone.audio.copies.size).toBe(0);
  });

  it("prefers the provider's duration when it gives one", async () => {
    env = setup(completedJob(31));
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect((await finishStep(env.deps, { generationId: 'gen-1', job })).duration).toBe(31);
  });

  it('provider rejection at submit is a non-retried error; MarkFailed fails and refunds once', async () => {
    env.provider.submitErrors.push(new MusicProviderError('bad input', 'rejected', 422));
    await expect(submitStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
      name: 'Provider.Rejected',
    });
    env.provider.submitErrors.push(new MusicProviderError('down', 'unavailable', 503));
    await expect(submitStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
      name: 'Provider.Unavailable',
    });
    const first = await failStep(env.deps, {
      generationId: 'gen-1',
      error: { Error: 'Provider.Rejected', Cause: 'bad input' },
    });
    expect(first).toEqual({ refunded: true, reason: 'Provider.Rejected: bad input' });
    expect((await failStep(env.deps, { generationId: 'gen-1' })).refunded).toBe(false);
    expect(env.generations.all.get('gen-1')?.status).toBe('failed');
    expect(env.quota.counters.get('user-1')?.used).toBe(0);
  });

  it("raises track.completed once for the owner's webhooks, with the completed track", async () => {
    const raised: { type: string; status: string; id: string }[] = [];
    env.deps.trackEvents = {
      raise: async (type, g) => void raised.push({ type, status: g.status, id: g.id }),
    };
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    // A retried Finish finds the track completed: nothing is raised again.
    await finishStep(env.deps, { generationId: 'gen-1', job }).catch(() => undefined);
    expect(raised).toEqual([{ type: 'track.completed', status: 'completed', id: 'gen-1' }]);
  });

  it('raises track.failed once, from the call that failed the track', async () => {
    const raised: string[] = [];
    env.deps.trackEvents = { raise: async (type, g) => void raised.push(`${type} ${g.status}`) };
    await failStep(env.deps, { generationId: 'gen-1', error: { Error: 'Provider.Failed' } });
    await failStep(env.deps, { generationId: 'gen-1', error: { Error: 'Provider.Failed' } });
    expect(raised).toEqual(['track.failed failed']);
  });

  it('a webhook event that cannot be recorded never fails the track', async () => {
    env.deps.trackEvents = {
      raise: async () => {
        throw new Error('the table is down');
      },
    };
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    expect(env.generations.all.get('gen-1')?.status).toBe('completed');
    expect(env.log.warnings.map((w) => w.message)).toContain('a webhook event was not recorded');
  });

  it('failing a track cancels its job at the provider', async () => {
    env = setup(() => ({ status: 'running' }));
    await submitStep(env.deps, { generationId: 'gen-1' });
    await failStep(env.deps, { generationId: 'gen-1', error: { Error: 'States.Timeout' } });
    expect(env.provider.jobs.get('req-1')?.cancelled).toBe(true);
    expect(env.generations.all.get('gen-1')?.status).toBe('failed');
  });

  it('an execution that ended without MarkFailed: the track is failed and refunded once; a completed one stays', async () => {
    env = setup(() => ({ status: 'running' }));
    await submitStep(env.deps, { generationId: 'gen-1' });
    const ended = await executionEndedStep(env.deps, { generationId: 'gen-1', status: 'TIMED_OUT' });
    expect(ended).toEqual({
      refunded: true,
      reason: 'Execution.TIMED_OUT: The workflow execution ended TIMED_OUT',
    });
    expect(env.quota.counters.get('user-1')?.used).toBe(0);
    expect(await executionEndedStep(env.deps, { generationId: 'gen-1', status: 'ABORTED' })).toBeUndefined();
    expect(env.quota.counters.get('user-1')?.used).toBe(0);

    const done = setup(completedJob());
    const job = await submitStep(done.deps, { generationId: 'gen-1' });
    await finishStep(done.deps, { generationId: 'gen-1', job });
    await prepareDownloadStep(done.deps, { generationId: 'gen-1' });
    expect(await executionEndedStep(done.deps, { generationId: 'gen-1', status: 'FAILED' })).toBeUndefined();
    expect(done.generations.all.get('gen-1')?.status).toBe('completed');
    expect(await executionEndedStep(done.deps, { generationId: 'gone', status: 'FAILED' })).toBeUndefined();
  });

  it('a failed job (result errors) fails Finish with Provider.Failed and leaves the track active for MarkFailed', async () => {
    env = setup(() => ({ status: 'completed', error: new MusicProviderError('boom', 'failed', 400) }));
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await expect(finishStep(env.deps, { generationId: 'gen-1', job })).rejects.toMatchObject({
      name: 'Provider.Failed',
    });
    expect(env.generations.all.get('gen-1')?.status).toBe('generating');
  });

  it('submit scales the wait for the webhook to the requested duration', async () => {
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(job).toMatchObject({
      waits: 0,
      waitSeconds: callbackWaitSeconds(env.generations.all.get('gen-1')?.duration ?? null),
    });
    expect(callbackWaitSeconds(10)).toBe(120);
    expect(callbackWaitSeconds(240)).toBe(300);
    expect(callbackWaitSeconds(null)).toBeGreaterThanOrEqual(60);
  });

  it('after a wait: still running waits again, up to four waits, then cancels and fails; completed finishes', async () => {
    env = setup(() => ({ status: 'running' }));
    let job = await submitStep(env.deps, { generationId: 'gen-1' });
    for (let wait = 1; wait < MAX_CALLBACK_WAITS; wait++) {
      job = await pollStep(env.deps, { generationId: 'gen-1', job });
      expect(job).toMatchObject({ waits: wait, done: false });
      expect(env.provider.jobs.get('req-1')?.cancelled).toBeUndefined();
    }
    await expect(pollStep(env.deps, { generationId: 'gen-1', job })).rejects.toMatchObject({
      name: 'Generation.NotComplete',
    });
    expect(env.provider.jobs.get('req-1')?.cancelled).toBe(true);

    const done = setup(completedJob());
    const job2 = await submitStep(done.deps, { generationId: 'gen-1' });
    expect(await pollStep(done.deps, { generationId: 'gen-1', job: job2 })).toMatchObject({
      done: true,
      waits: 1,
    });
    expect(done.provider.jobs.get('req-1')?.cancelled).toBeUndefined();
  });

  it('the webhook answers the waiting task whichever comes first', async () => {
    // Token first, then the webhook.
    await waitStep(env.deps, { generationId: 'gen-1', requestId: 'req-1', taskToken: 't1' });
    expect(env.answers).toEqual([]);
    expect(await webhookReceived(env.deps, { requestId: 'req-1', status: 'OK' })).toEqual({
      delivered: true,
    });
    expect(env.answers).toEqual([{ token: 't1', ok: true, detail: { status: 'OK' } }]);

    // Webhook first (an ERROR), then the token: the wait step answers at once.
    expect(await webhookReceived(env.deps, { requestId: 'req-2', status: 'ERROR', error: 'x' })).toEqual({
      delivered: false,
    });
    await waitStep(env.deps, { generationId: 'gen-1', requestId: 'req-2', taskToken: 't2' });
    expect(env.answers[1]).toEqual({ token: 't2', ok: false, detail: 'Provider.Failed' });
  });
});

describe('submit picks the endpoint and input from the generation', () => {
  const parent = generation({
    id: 'p1',
    status: 'completed',
    duration: 30,
    audioUrl: 's3://tracks-bucket/tracks/p1.wav',
    streamAudioUrl: 's3://tracks-bucket/tracks/p1.opus',
  });
  function studio(child: Partial<Generation>, parentOver: Partial<Generation> | null = {}) {
    const env = setup(completedJob(), generation({ parentId: 'p1', ...child }));
    if (parentOver) env.generations.all.set('p1', { ...parent, ...parentOver });
    const signed: string[] = [];
    env.deps.trackAudioUrl = (stored) => {
      signed.push(stored);
      return `https://signed.example/${stored.replace('s3://', '')}?expires=900`;
    };
    return { ...env, signed };
  }

  it("extends at the end from a fresh link to the parent's WAV, and follows the job as an extend", async () => {
    const env = studio({ duration: 50, edit: { kind: 'extend', seconds: 20, at: 'end' } });

    const job = await submitStep(env.deps, { generationId: 'gen-1' });

    expect(job.kind).toBe('extend');
    expect(env.signed).toEqual(['s3://tracks-bucket/tracks/p1.wav']);
    expect(env.provider.jobs.get(job.requestId)).toMatchObject({
      kind: 'extend',
      request: {
        audioUrl: 'https://signed.example/tracks-bucket/tracks/p1.wav?expires=900',
        tags: 'rock, upbeat',
        lyrics: '[verse]\nhello',
        before: 0,
        after: 20,
        webhookUrl: 'https://api.example/webhooks/fal?generation=gen-1',
      },
    });
    // The child never records the parent's audio as its own input.
    expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'generating', inputAudioUrl: null });
    const done = await finishStep(env.deps, { generationId: 'gen-1', job });
    expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'completed', duration: done.duration });
  });

  it('waits (a retried submit) for a parent whose download is being prepared, then extends from its WAV', async () => {
    const env = studio(
      { duration: 50, edit: { kind: 'extend', seconds: 20, at: 'end' } },
      { audioUrl: 's3://tracks-bucket/tracks/p1.master.wav', downloadPending: true },
    );
    await expect(submitStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
      name: 'Provider.Unavailable',
    });
    expect(env.provider.jobs.size).toBe(0);
    env.generations.all.set('p1', parent);
    await submitStep(env.deps, { generationId: 'gen-1' });
    expect(env.signed).toEqual(['s3://tracks-bucket/tracks/p1.wav']);
  });

  it('extends at the start with the seconds before the song', async () => {
    const env = studio({ edit: { kind: 'extend', seconds: 12, at: 'start' } });

    const job = await submitStep(env.deps, { generationId: 'gen-1' });

    expect(env.provider.jobs.get(job.requestId)?.request).toMatchObject({ before: 12, after: 0 });
  });

  it('repaints the section with its variance', async () => {
    const env = studio({ edit: { kind: 'repaint', start: 4, end: 9.5, variance: 0.25 }, tags: 'jazz' });

    const job = await submitStep(env.deps, { generationId: 'gen-1' });

    expect(job.kind).toBe('repaint');
    expect(env.provider.jobs.get(job.requestId)?.request).toMatchObject({
      audioUrl: 'https://signed.example/tracks-bucket/tracks/p1.wav?expires=900',
      tags: 'jazz',
      start: 4,
      end: 9.5,
      variance: 0.25,
    });
  });

  it("runs a variation as its parent's kind again: text with the duration, a restyle with the upload", async () => {
    const text = studio({ edit: { kind: 'variation' }, duration: 30 });
    const textJob = await submitStep(text.deps, { generationId: 'gen-1' });
    expect(textJob.kind).toBe('text');
    expect(text.provider.jobs.get(textJob.requestId)?.request).toMatchObject({ duration: 30 });
    expect(text.signed).toEqual([]);

    const restyle = studio({
      edit: { kind: 'variation' },
      type: 'audio-to-music',
      inputAudioUrl: 'uploads/user-1/song.wav',
    });
    const audioJob = await submitStep(restyle.deps, { generationId: 'gen-1' });
    expect(audioJob.kind).toBe('audio');
    expect(restyle.provider.jobs.get(audioJob.requestId)?.request).toMatchObject({
      audioUrl: 'uploads/user-1/song.wav',
    });
  });

  it('asks for an instrumental: text by its flag (each model says it its own way), ACE-Step studio jobs by [instrumental]', async () => {
    const text = studio({ instrumental: true, lyrics: '', edit: null });
    const textJob = await submitStep(text.deps, { generationId: 'gen-1' });
    expect(text.provider.jobs.get(textJob.requestId)?.request).toMatchObject({
      model: 'ace-step',
      lyrics: '',
      instrumental: true,
    });
    const extend = studio({
      instrumental: true,
      lyrics: '',
      edit: { kind: 'extend', seconds: 5, at: 'end' },
    });
    const extendJob = await submitStep(extend.deps, { generationId: 'gen-1' });
    expect(extend.provider.jobs.get(extendJob.requestId)?.request).toMatchObject({
      lyrics: '[instrumental]',
    });
  });

  it('refuses the job when the parent is gone, unfinished or not the owner’s, and failing it refunds the unit', async () => {
    const cases: Array<Partial<Generation> | null> = [
      null,
      { status: 'generating', audioUrl: null },
      { userId: 'someone-else' },
    ];
    for (const parentOver of cases) {
      const env = studio({ edit: { kind: 'repaint', start: 0, end: 5, variance: 0.5 } }, parentOver);
      const error = await submitStep(env.deps, { generationId: 'gen-1' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'Provider.Rejected' });
      expect(env.provider.jobs.size).toBe(0);
      expect(env.signed).toEqual([]);

      const failed = await failStep(env.deps, {
        generationId: 'gen-1',
        error: { Error: 'Provider.Rejected', Cause: (error as Error).message },
      });
      expect(failed.refunded).toBe(true);
      expect(env.generations.all.get('gen-1')?.status).toBe('failed');
      expect(env.quota.counters.get('user-1')?.used).toBe(0);
    }
  });

  // A remix (decision 060) restyles another user's listed, remixable track: its WAV, linked at submit.
  function remixOf(sourceOver: Partial<Generation> | null) {
    const env = setup(
      completedJob(),
      generation({
        type: 'audio-to-music',
        inputAudioUrl: null,
        remixOf: { trackId: 'src', userId: 'someone-else', sha256: null },
      }),
    );
    if (sourceOver)
      env.generations.all.set('src', {
        ...parent,
        id: 'src',
        userId: 'someone-else',
        audioUrl: 's3://tracks-bucket/tracks/src.wav',
        remixable: true,
        ...sourceOver,
      });
    const signed: string[] = [];
    env.deps.trackAudioUrl = (stored) => {
      signed.push(stored);
      return `https://signed.example/${stored.replace('s3://', '')}`;
    };
    return { ...env, signed };
  }

  it("restyles a remix's source from a fresh link to its WAV", async () => {
    const env = remixOf({});
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    expect(job.kind).toBe('audio');
    expect(env.signed).toEqual(['s3://tracks-bucket/tracks/src.wav']);
    expect(env.provider.jobs.get(job.requestId)?.request).toMatchObject({
      audioUrl: 'https://signed.example/tracks-bucket/tracks/src.wav',
    });
  });

  it('refuses a remix whose source is gone, private, hidden or no longer remixable', async () => {
    for (const sourceOver of [
      null,
      { visibility: 'private' as const },
      { hidden: true },
      { remixable: false },
    ]) {
      const env = remixOf(sourceOver);
      await expect(submitStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
        name: 'Provider.Rejected',
      });
      expect(env.provider.jobs.size).toBe(0);
      expect(env.signed).toEqual([]);
    }
  });

  it('polls and cancels an extend or repaint job under its own kind', async () => {
    const env = studio({ edit: { kind: 'extend', seconds: 5, at: 'end' } });
    const calls: string[] = [];
    const status = env.provider.status.bind(env.provider);
    env.provider.status = async (kind, id) => {
      calls.push(`status ${kind}`);
      return status(kind, id);
    };
    env.provider.cancel = async (kind) => {
      calls.push(`cancel ${kind}`);
    };
    const job = await submitStep(env.deps, { generationId: 'gen-1' });

    await pollStep(env.deps, { generationId: 'gen-1', job });
    await failStep(env.deps, { generationId: 'gen-1' });

    expect(calls).toEqual(['status extend', 'cancel extend']);
  });
});

describe('the files of a finished track', () => {
  const license = {
    commercialUse: false,
    summary: 'Personal, non-commercial use only.',
    termsUrl: 'https://tunesmith.example/terms#license',
  };
  const origin = {
    provider: 'fal.ai',
    model: 'ACE-Step',
    endpoint: 'fal-ai/ace-step',
    parameters: { tags: 'rock, upbeat' },
    inputs: [],
    plan: 'Free',
    license,
  };

  /** A finished track whose provider result is `master`. */
  async function finished(master: Uint8Array, over: Partial<Generation> = {}) {
    const env = setup(completedJob(), generation({ title: 'Small Hours', origin, ...over }));
    env.audio.fetch = async () => master;
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });
    const done = env.generations.all.get('gen-1') as Generation;
    return { ...env, done, wav: env.audio.copies.get('tracks/gen-1.wav') as Uint8Array };
  }

  const stereo = (amplitude: number, seconds = 3) =>
    wavFile([tone(440, seconds, 44100, amplitude), tone(554, seconds, 44100, amplitude)], {
      sampleRate: 44100,
    });

  const samplesOf = (pcm: PcmSource) =>
    Array.from({ length: pcm.channels }, (_, c) => {
      const out = new Float32Array(pcm.frames);
      pcm.read(c, 0, out);
      return out;
    });

  it('stores the master with its marking as the WAV download: the samples untouched, its hash and loudness recorded', async () => {
    const master = stereo(0.5);
    const { done, wav, log } = await finished(master);

    const { common } = await parseBuffer(wav, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Small Hours');
    expect(common.artist).toBe('Tunesmith');
    expect(common.comment?.map((c) => c.text)).toEqual([
      'Made with AI (ACE-Step) on Tunesmith. Provenance: https://tunesmith.example/api/track/gen-1/provenance License: Personal, non-commercial use only.',
    ]);
    expect(new TextDecoder().decode(wav)).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`);
    const stored = samplesOf(parseWav(wav));
    const original = samplesOf(parseWav(master));
    for (let c = 0; c < 2; c++)
      expect(
        Buffer.compare(
          Buffer.from(stored[c]?.buffer as ArrayBuffer),
          Buffer.from(original[c]?.buffer as ArrayBuffer),
        ),
      ).toBe(0);

    expect(done.audioSha256).toBe(createHash('sha256').update(wav).digest('hex'));
    expect(done.loudness).toEqual(loudnessRecord(measureLoudness(parseWav(master))));
    expect(toTrack(done).loudness).toEqual(done.loudness);
    expect(done.loudness?.integratedLufs).toBeGreaterThan(-10);
    expect(log.warnings).toEqual([]);
  });

  it("makes the stream from the master at the stream's gain alone: a loud track down to -14 LUFS, never above -1 dBTP", async () => {
    const master = stereo(0.9);
    const { done, streamEncoder } = await finished(master);

    const gain = done.loudness?.streamGainDb as number;
    expect(gain).toBeLessThan(-8);
    const input = streamEncoder.inputs[0];
    const factor = 10 ** (gain / 20);
    const original = samplesOf(parseWav(master));
    for (let c = 0; c < 2; c++) {
      const expected = (original[c] as Float32Array).map((x) => Math.fround(x * factor));
      expect(
        Buffer.compare(Buffer.from(input?.channels[c]?.buffer as ArrayBuffer), Buffer.from(expected.buffer)),
      ).toBe(0);
    }
    const stream = measureLoudness(input?.pcm as PcmSource);
    expect(Math.abs((stream.integratedLufs as number) + 14)).toBeLessThanOrEqual(0.1);
    expect(stream.truePeakDbtp).toBeLessThanOrEqual(-1);
  });

  it('lifts a quiet track only as far as its true peak allows (-1 dBTP)', async () => {
    const quiet = tone(440, 4, 44100, 0.02);
    // One loud bar near the end.
    quiet.set(tone(440, 0.05, 44100, 0.5), 44100 * 3);
    const { done, streamEncoder } = await finished(wavFile([quiet, quiet], { sampleRate: 44100 }));

    expect(done.loudness?.integratedLufs as number).toBeLessThan(-20);
    const stream = measureLoudness(streamEncoder.inputs[0]?.pcm as PcmSource);
    expect(stream.truePeakDbtp).toBeLessThanOrEqual(-1);
    expect(stream.truePeakDbtp).toBeGreaterThan(-1.05);
    expect(stream.integratedLufs as number).toBeLessThan(-14);
  });

  it('gives the stream the same marking in its Vorbis comments', async () => {
    const { streamEncoder } = await finished(stereo(0.3));
    expect(streamEncoder.inputs[0]?.comments).toEqual(
      opusComments({
        title: 'Small Hours',
        siteName: 'Tunesmith',
        model: 'ACE-Step',
        endpoint: 'fal-ai/ace-step',
        provenanceUrl: 'https://tunesmith.example/api/track/gen-1/provenance',
        createdAt: now.toISOString(),
        license,
      }),
    );
  });

  it('measures loudness, tempo and key and peaks at once through its audio work, and encodes before tempo and key are known', async () => {
    const pcm = beatAndChords(126, 57, 'minor', 20);
    const master = wavFile(samplesOf(pcm), { sampleRate: pcm.sampleRate });
    const env = setup(completedJob(), generation({ title: 'Small Hours', origin }));
    env.audio.fetch = async () => master;
    const events: string[] = [];
    let encodeStarted!: () => void;
    const encoding = new Promise<void>((resolve) => {
      encodeStarted = resolve;
    });
    const encode = env.streamEncoder.encode;
    env.streamEncoder.encode = (audio, comments) => {
      events.push('encode');
      encodeStarted();
      return encode(audio, comments);
    };
    const work: AudioWork = {
      prepare: () => events.push('prepare'),
      loudness: async (audio) => {
        events.push('loudness');
        return inThreadAudioWork.loudness(audio);
      },
      peaks: async (audio) => {
        events.push('peaks');
        return inThreadAudioWork.peaks(audio);
      },
      tempoAndKey: async (audio) => {
        events.push('tempoAndKey');
        // Still measuring when the copy's encode begins.
        await encoding;
        return inThreadAudioWork.tempoAndKey(audio);
      },
    };
    env.deps.audioWork = work;
    const job = await submitStep(env.deps, { generationId: 'gen-1' });

    await finishStep(env.deps, { generationId: 'gen-1', job });

    expect(events).toEqual(['prepare', 'loudness', 'tempoAndKey', 'peaks', 'encode']);
    const done = env.generations.all.get('gen-1') as Generation;
    expect(done.analysis).toMatchObject({ bpm: 126, key: 'A minor' });
    expect(Object.fromEntries(env.streamEncoder.inputs[0]?.comments ?? [])).toMatchObject({
      BPM: '126',
      KEY: 'A minor',
    });
    expect(done.loudness).toEqual(loudnessRecord(measureLoudness(parseWav(master))));
    expect(env.audio.copies.get('tracks/gen-1.peaks.json')).toBeDefined();
  });

  it('asks the model for a tempo and key as tags, and records the tempo and key measured, in the track and its files', async () => {
    const pcm = beatAndChords(126, 57, 'minor', 20);
    const master = wavFile(samplesOf(pcm), { sampleRate: pcm.sampleRate });
    const { done, wav, streamEncoder, provider, log } = await finished(master, {
      tags: 'synthwave',
      tempo: 126,
      musicalKey: 'A minor',
    });

    expect([...provider.jobs.values()][0]?.request).toMatchObject({ tags: 'synthwave, 126 bpm, A minor' });
    expect(done.analysis).toEqual({ bpm: 126, key: 'A minor', confidence: expect.any(Number) });
    expect(toTrack(done).analysis).toEqual(done.analysis);
    const comments = Object.fromEntries(streamEncoder.inputs[0]?.comments ?? []);
    expect(comments).toMatchObject({ BPM: '126', KEY: 'A minor' });
    const xmp = new TextDecoder().decode(wav);
    expect(xmp).toContain('xmpDM:tempo="126"');
    expect(xmp).toContain('xmpDM:key="A"');
    expect(xmp).toContain('xmpDM:scaleType="Minor"');
    expect(log.warnings).toEqual([]);
  });

  it('a track too short to measure completes without tempo and key', async () => {
    const { done, streamEncoder } = await finished(stereo(0.3, 2));
    expect(done.status).toBe('completed');
    expect(done.analysis).toBeUndefined();
    expect(toTrack(done).analysis).toBeNull();
    expect((streamEncoder.inputs[0]?.comments ?? []).map(([field]) => field)).not.toContain('BPM');
  });

  it('names a track without a title Untitled Track, and a track from before licenses gets no license line', async () => {
    const { wav } = await finished(stereo(0.3), { title: null, origin: null });
    const { common } = await parseBuffer(wav, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Untitled Track');
    expect(common.comment?.[0]?.text).toBe(
      'Made with AI (ACE-Step) on Tunesmith. Provenance: https://tunesmith.example/api/track/gen-1/provenance',
    );
  });

  it('uses the site name as it is when the track completes', async () => {
    const env = setup(completedJob(), generation({ title: 'Renamed Site' }));
    env.deps.site = { origin: 'https://music.example', name: async () => 'Music Corner' };
    env.audio.fetch = async () => stereo(0.3, 1);
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });
    const { common } = await parseBuffer(env.audio.copies.get('tracks/gen-1.wav') as Uint8Array, {
      mimeType: 'audio/wav',
    });
    expect(common.artist).toBe('Music Corner');
    expect(common.comment?.[0]?.text).toBe(
      'Made with AI (ACE-Step) on Music Corner. Provenance: https://music.example/api/track/gen-1/provenance',
    );
  });

  it('stores the WAV as signed with content credentials, and hashes what it stored', async () => {
    const env = setup(completedJob(), generation({ title: 'Small Hours' }));
    env.audio.fetch = async () => stereo(0.3, 1);
    const signedWith: FileMarking[] = [];
    env.deps.contentCredentials = {
      async sign(wav, marking) {
        signedWith.push(marking);
        // A stand-in manifest chunk at the end.
        const out = new Uint8Array(wav.length + 12);
        out.set(wav);
        out.set(new TextEncoder().encode('C2PA\u0004\u0000\u0000\u0000jumb'), wav.length);
        new DataView(out.buffer).setUint32(4, out.length - 8, true);
        return out;
      },
    };
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });

    const wav = env.audio.copies.get('tracks/gen-1.wav') as Uint8Array;
    expect(new TextDecoder().decode(wav.subarray(-12, -8))).toBe('C2PA');
    expect(signedWith.map((m) => m.title)).toEqual(['Small Hours']);
    expect(env.generations.all.get('gen-1')?.audioSha256).toBe(
      createHash('sha256').update(wav).digest('hex'),
    );
    expect((await parseBuffer(wav, { mimeType: 'audio/wav' })).common.title).toBe('Small Hours');
  });

  it('keeps the marked WAV when signing fails, logs it, and completes', async () => {
    const env = setup(completedJob(), generation({ title: 'Small Hours' }));
    const master = stereo(0.3, 1);
    env.audio.fetch = async () => master;
    const failure = new Error('no key');
    env.deps.contentCredentials = {
      sign: async () => {
        throw failure;
      },
    };
    const job = await submitStep(env.deps, { generationId: 'gen-1' });
    await finishStep(env.deps, { generationId: 'gen-1', job });
    await prepareDownloadStep(env.deps, { generationId: 'gen-1' });

    const wav = env.audio.copies.get('tracks/gen-1.wav') as Uint8Array;
    expect(
      Buffer.compare(
        wav,
        markWav(master, await fileMarkingOf(testSite, generation({ title: 'Small Hours' }))),
      ),
    ).toBe(0);
    expect(env.generations.all.get('gen-1')).toMatchObject({ status: 'completed' });
    expect(env.log.warnings).toEqual([
      {
        message: expect.stringContaining('content credentials'),
        fields: expect.objectContaining({ error: failure }),
      },
    ]);
  });
});
