import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Emulator, startS3 } from '../../local/src/emulators';
import { type MusicProvider, startMusicProvider } from '../../local/src/music/provider-server';
import { createWorkflowRunner, type WorkflowRunner } from '../../local/src/workflow/runner';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { falMusicProvider } from '../src/adapters/fal/fal-provider';
import { falWebhookVerifier } from '../src/adapters/fal/fal-webhook';
import { s3AudioStore } from '../src/adapters/s3/audio-store';
import { s3Of } from '../src/adapters/s3/client';
import { keys } from '../src/data/keys';
import type { MusicProvider as ProviderPort } from '../src/domain/generations/music-provider';
import type { GenerationDeps } from '../src/domain/generations/ports';
import { quotaWindowStart } from '../src/domain/generations/quota-window';
import type { Generation } from '../src/domain/tracks/track';
import { aUser } from '../src/testing/fixtures';
import { callbackKey, dynamoCallbackStore } from '../src/workflow/dynamo-callback-store';
import { webhookReceived } from '../src/workflow/steps';
import { testSite } from '../src/workflow/testing';
import { wavDurationSeconds } from '../src/workflow/wav';
import { direct } from './support/direct';
import { localOnly, onStage } from './support/run';

// The workflow end to end on the same ASL file as the cloud: the local runner,
// the embedded provider through the real fal adapter and signed webhooks, and the
// generation and quota stores on the real table. A stage runs its own state
// machine instead, which the generation tests drive through the API.

const store = direct();
const { documents, tableName } = store;
const generations = dynamoGenerationStore(documents, tableName);
const quota = dynamoQuotaStore(documents, tableName);
const callbacks = dynamoCallbackStore(documents, tableName);
const deps: GenerationDeps = { generations, quota, clock: { now: () => new Date() }, newId: randomUUID };

let provider: MusicProvider;
let runner: WorkflowRunner;
let webhookServer: Server;
let s3: Emulator;
let s3Client: S3Client;
const s3Dir = mkdtempSync(path.join(tmpdir(), 'tunesmith-workflow-s3-'));
const BUCKET = 'tracks-it';
const cleanup: Record<string, string>[] = [];

beforeAll(async () => {
  if (onStage) return;
  provider = await startMusicProvider({ minProcessingMs: 200, queueMs: 50 });
  const verifier = falWebhookVerifier({ jwksUrl: provider.jwksUrl });
  webhookServer = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const verified = await verifier.verify({
      headers: req.headers as Record<string, string | undefined>,
      rawBody: Buffer.concat(chunks),
      now: new Date(),
    });
    if (!verified) return void res.writeHead(401).end();
    await webhookReceived({ callbacks, tasks: runner.tasks }, verified);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => webhookServer.listen(0, '127.0.0.1', r));
  const webhookBase = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  s3 = await startS3({ port: 0, dir: s3Dir, buckets: [BUCKET], credentials });
  s3Client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials,
  });
  const audio = s3AudioStore(s3Of(s3Client), BUCKET);
  runner = await createWorkflowRunner(
    {
      generation: deps,
      provider: pollsCounted(falMusicProvider({ key: provider.env.FAL_KEY, baseUrl: provider.url })),
      audio,
      site: testSite,
      webhookUrl: (id) => `${webhookBase}/api/webhooks/fal?generationId=${id}`,
      callbacks,
    },
    { timeoutOverrideSeconds: 4, retryIntervalMs: 10 },
  );
});

afterAll(async () => {
  runner?.stop();
  await provider?.stop();
  if (webhookServer) await new Promise((r) => webhookServer.close(r));
  s3Client?.destroy();
  await s3?.stop();
  rmSync(s3Dir, { recursive: true, force: true });
  for (const Key of cleanup) await documents.send(new DeleteCommand({ TableName: tableName, Key }));
  store.close();
});

/** The request ids the workflow asked the provider the status of (its one poll after a lost webhook). */
const polled: string[] = [];
function pollsCounted(inner: ProviderPort): ProviderPort {
  return {
    ...inner,
    status: (kind, requestId) => {
      polled.push(requestId);
      return inner.status(kind, requestId);
    },
  };
}

/** A user with one unit reserved and a pending generation, as startGeneration leaves them. */
async function pendingGeneration(tags: string): Promise<Generation> {
  const now = new Date();
  const userId = `it-workflow-${randomUUID()}`;
  const email = `${userId}@example.test`;
  await store.users.create(aUser({ id: userId, email, firstName: 'Workflow', lastName: 'Tester' }));
  cleanup.push(keys.user(userId), keys.emailClaim(email));
  const reserved = await quota.reserve(userId, {
    limit: 5,
    windowStart: quotaWindowStart(now),
    now: now.toISOString(),
  });
  expect(reserved).toEqual({ ok: true, used: 1 });
  const g: Generation = {
    id: randomUUID(),
    userId,
    type: 'text-to-music',
    title: null,
    tags,
    lyrics: '',
    duration: 5,
    status: 'pending',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: null,
    seed: null,
    falRequestId: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await generations.create(g);
  cleanup.push(keys.generation(g.id));
  return g;
}

async function run(tags: string) {
  const g = await pendingGeneration(tags);
  const execution = await runner.startExecution({ name: g.id, input: { generationId: g.id } });
  const outcome = await execution.done;
  const after = await generations.get(g.id);
  if (after?.falRequestId) cleanup.push(callbackKey(after.falRequestId));
  const used = (await quota.read(g.userId))?.used;
  return { outcome, after, used };
}

localOnly('runs the ASL on the local runner with the embedded provider and a local S3').describe(
  'generation workflow (local runner, embedded provider, DynamoDB)',
  () => {
    it('webhook path: completed with the audio copied, its WAV duration and the seed', async () => {
      const { outcome, after, used } = await run('jazz, piano');
      expect(outcome.status).toBe('SUCCEEDED');
      expect(after).toMatchObject({ status: 'completed', duration: 5 });
      expect(typeof after?.seed).toBe('number');
      const key = `tracks/${after?.id}.wav`;
      expect(after?.audioUrl).toBe(`s3://${BUCKET}/${key}`);
      const object = await s3Client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      const bytes = (await object.Body?.transformToByteArray()) as Uint8Array;
      expect(wavDurationSeconds(bytes)).toBeCloseTo(5, 1);
      // The stored WAV says what made it, and its hash and loudness are on the track.
      const { common } = await parseBuffer(bytes, { mimeType: 'audio/wav' });
      expect(common.comment?.[0]?.text).toBe(
        `Made with AI (ACE-Step) on Tunesmith. Provenance: https://tunesmith.example/api/track/${after?.id}/provenance`,
      );
      expect(new TextDecoder().decode(bytes)).toContain(
        `Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`,
      );
      expect(after?.audioSha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(after?.loudness).toEqual({
        integratedLufs: expect.any(Number),
        truePeakDbtp: expect.any(Number),
        streamGainDb: expect.any(Number),
      });
      expect(provider.deliveries.some((d) => d.requestId === after?.falRequestId && d.status === 200)).toBe(
        true,
      );
      // The webhook, not the 4 s timeout and its poll, moved it on.
      expect(polled).not.toContain(after?.falRequestId);
      expect(used).toBe(1);
    });

    it('lost webhook: times out, one poll finds it completed', async () => {
      const { outcome, after, used } = await run('rock, no-webhook');
      expect(outcome.status).toBe('SUCCEEDED');
      expect(after?.status).toBe('completed');
      expect(provider.deliveries.some((d) => d.requestId === after?.falRequestId)).toBe(false);
      expect(used).toBe(1);
    });

    it('provider error: failed and the unit refunded', async () => {
      const { outcome, after, used } = await run('pop, fail:provider');
      expect(outcome.status).toBe('FAILED');
      expect(after).toMatchObject({ status: 'failed', audioUrl: null });
      expect(used).toBe(0);
    });

    it('timeout: the job never finishes, the poll fails it and the unit is refunded', async () => {
      const { outcome, after, used } = await run('ambient, fail:timeout');
      expect(outcome.status).toBe('FAILED');
      expect(after?.status).toBe('failed');
      expect(used).toBe(0);
    });
  },
);
