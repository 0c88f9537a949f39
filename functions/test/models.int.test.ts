import { randomUUID } from 'node:crypto';
import type { AdminModels, ModelSettings, ModelsAnswer } from '@tunesmith/shared/model-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import type { AdminUser } from '../src/domain/accounts/admin';
import { keptUploadKey, newUploadKey, objectPathOf } from '../src/domain/uploads/uploads';
import {
  adminSignIn,
  adminTestPassword,
  createTestAdmin,
  removeTestAdmin,
  signedInUser,
} from './support/accounts';
import { direct } from './support/direct';
import { Browser } from './support/http';
import { subscribe } from './support/plans';
import { localOnly, paidGeneration } from './support/run';
import { storage, wavBytes } from './support/storage';

// Choosing a model (decision 051) through the HTTP API against the local
// cloud (or a stage): the models on offer, a song made with each model, what
// each refuses before anything is reserved, the plans' gating, the admin
// Models calls, and a model turned off while a song of it is being made.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const quota = dynamoQuotaStore(store.documents, store.tableName);
const username = `models-${Date.now().toString(36)}`;
const password = adminTestPassword();
let admin: Browser;
let created: AdminUser | undefined;

beforeAll(async () => {
  created = await createTestAdmin(store, username, password);
  admin = new Browser();
  expect((await adminSignIn(admin, username, password)).status).toBe(200);
});
afterAll(async () => {
  await removeTestAdmin(store, created);
  files.close();
  store.close();
});

/** Tests that wait for generations to finish get longer than the suite's 60 s. */
const PIPELINE_TEST_TIMEOUT_MS = 120_000;
const SETTLE_WITHIN_MS = 90_000;

type Status = { status: string; duration: number | null; model?: string; instrumental?: boolean };

/** Polls the status call until the track is completed or failed. */
async function settled(browser: Browser, id: string): Promise<Status> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const res = await browser.get(`/api/generation/${id}/status`);
    expect(res.status).toBe(200);
    const body = res.body as unknown as Status;
    if (body.status === 'completed' || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish within ${SETTLE_WITHIN_MS / 1000} s`);
}

const usedOf = async (userId: string) => (await quota.read(userId))?.used ?? 0;

/** The settings in force, read through the admin call. */
async function settingsNow(): Promise<ModelSettings> {
  const res = await admin.get('/api/admin/models');
  expect(res.status).toBe(200);
  return (res.body as unknown as AdminModels).settings;
}

/** Saves a settings document through the admin call (applies at once in the process that serves the API). */
async function save(settings: ModelSettings) {
  const res = await admin.put('/api/admin/models', settings);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

/** A song's worth of lyrics for the models that sing. */
const LYRICS = '[verse]\nWe drove all night with the windows down\n[chorus]\nHome is a song we sing';

describe('the models on offer', () => {
  it('shows a visitor every model that is on, none available; a Free user the three Free offers', async () => {
    const visitor = await new Browser().get('/api/models');
    expect(visitor.status).toBe(200);
    const offered = visitor.body as unknown as ModelsAnswer;
    expect(offered.defaultModel).toBe('ace-step');
    expect(offered.models.map((m) => m.id)).toEqual(
      expect.arrayContaining([
        'ace-step',
        'minimax-music-2',
        'minimax-music-2.5',
        'cassetteai',
        'stable-audio-2.5',
      ]),
    );
    expect(offered.models.every((m) => m.available === false)).toBe(true);
    expect(offered.models.find((m) => m.id === 'stable-audio-2.5')).toMatchObject({
      quotaCost: 4,
      duration: { min: 1, max: 190 },
      lyrics: 'none',
      plans: [
        { id: 'basic', name: 'Basic' },
        { id: 'premium', name: 'Premium' },
      ],
    });

    const { browser } = await signedInUser();
    const mine = (await browser.get('/api/models')).body as unknown as ModelsAnswer;
    const available = mine.models.filter((m) => m.available).map((m) => m.id);
    expect(available).toEqual(['ace-step', 'minimax-music-2', 'cassetteai']);
  });
});

describe('refusals, before anything is reserved', () => {
  it("refuses fields a model cannot honour, with the model's limits", async () => {
    const { browser, id } = await signedInUser();
    const refusals: [Record<string, unknown>, string][] = [
      [
        { model: 'cassetteai', tags: 'lo-fi beat', lyrics: 'la la' },
        'CassetteAI makes instrumentals only: leave the lyrics empty.',
      ],
      [
        { model: 'minimax-music-2', tags: 'indie pop, warm' },
        'MiniMax Music 2.0 always sings: write lyrics of 10 to 3000 characters.',
      ],
      [
        { model: 'minimax-music-2', tags: 'indie pop, warm', lyrics: LYRICS, duration: 60 },
        'MiniMax Music 2.0 decides the length of its songs itself: leave the duration out.',
      ],
      [
        { model: 'cassetteai', tags: 'lo-fi beat', duration: 200 },
        'CassetteAI makes 10 to 180 seconds: the duration must be a whole number of seconds in that range.',
      ],
      [
        { model: 'ace-step', tags: 'rock', duration: 3 },
        'ACE-Step makes 5 to 240 seconds: the duration must be a whole number of seconds in that range.',
      ],
      [{ model: 'suno', tags: 'rock' }, 'There is no model "suno". Choose one of the models offered.'],
    ];
    for (const [body, message] of refusals) {
      const res = await browser.post('/api/generate-text-to-music', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await usedOf(id)).toBe(0);
  });

  it('restyles only with a model that runs audio, naming the ones that can', async () => {
    const { browser, id } = await signedInUser();
    await subscribe(store, id, 'basic');
    const key = keptUploadKey(newUploadKey(id, randomUUID(), 'song.wav'));
    await files.putUpload(key, wavBytes({ seconds: 1 }));
    const res = await browser.post('/api/generate-audio-to-music', {
      tags: 'ambient pads',
      inputAudioUrl: objectPathOf(key),
      model: 'stable-audio-2.5',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Stable Audio 2.5 cannot restyle an upload. ACE-Step can.');
    expect(await usedOf(id)).toBe(0);
  });

  it("refuses a model the user's plan does not offer, naming the plans that do; a paid plan may use it", async () => {
    const { browser, id } = await signedInUser();
    const body = { model: 'stable-audio-2.5', tags: 'cinematic strings', duration: 5 };
    const refused = await browser.post('/api/generate-text-to-music', body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Stable Audio 2.5 is in Basic and Premium. Upgrade to use it.');
    expect(await usedOf(id)).toBe(0);

    await subscribe(store, id, 'basic');
    const offered = (await browser.get('/api/models')).body as unknown as ModelsAnswer;
    expect(offered.models.find((m) => m.id === 'stable-audio-2.5')?.available).toBe(true);
  });
});

describe('a song with each model', () => {
  paidGeneration.it(
    'ACE-Step: made, recorded with its model, one unit, its provenance naming the model, endpoint and terms',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser, id: userId } = await signedInUser();
      const before = (await admin.get('/api/admin/dashboard/stats')).body as {
        models: { id: string; generations: number; spendUsd: number }[];
      };
      const res = await browser.post('/api/generate-text-to-music', {
        model: 'ace-step',
        tags: 'jazz, piano',
        duration: 5,
      });
      expect(res.status).toBe(201);
      const generationId = String(res.body.generationId);
      expect(await settled(browser, generationId)).toMatchObject({ status: 'completed', model: 'ace-step' });
      expect((await generations.get(generationId))?.model).toBe('ace-step');
      expect(await usedOf(userId)).toBe(1);

      const provenance = await browser.get(`/api/track/${generationId}/provenance`);
      expect(provenance.body).toMatchObject({
        model: 'ACE-Step',
        endpoint: 'fal-ai/ace-step',
        modelId: 'ace-step',
        modelTerms: 'https://fal.ai/models/fal-ai/ace-step',
      });

      // The dashboard counts it, and what fal charged for its length.
      const after = (await admin.get('/api/admin/dashboard/stats')).body as typeof before;
      const ace = (stats: typeof before) => stats.models.find((m) => m.id === 'ace-step');
      expect(ace(after)?.generations).toBeGreaterThanOrEqual((ace(before)?.generations ?? 0) + 1);
      expect(ace(after)?.spendUsd).toBeGreaterThanOrEqual((ace(before)?.spendUsd ?? 0) + 0.0002 * 4.5);

      // A variation runs on the track's own model and says so.
      const variation = await browser.post(`/api/generation/${generationId}/variation`, {});
      expect(variation.status).toBe(201);
      expect(variation.body.model).toBe('ace-step');
      expect((variation.body.track as { model?: string }).model).toBe('ace-step');
      await settled(browser, String(variation.body.generationId));
    },
  );

  // These run the other models' endpoints on the embedded provider (or fal on a stage).
  const songs: {
    model: string;
    name: string;
    endpoint: string;
    body: Record<string, unknown>;
    plan?: 'basic';
    units: number;
  }[] = [
    {
      model: 'minimax-music-2',
      name: 'MiniMax Music 2.0',
      endpoint: 'fal-ai/minimax-music/v2',
      body: { tags: 'indie pop, warm, female vocal', lyrics: LYRICS },
      units: 1,
    },
    {
      model: 'minimax-music-2.5',
      name: 'MiniMax Music 2.5',
      endpoint: 'fal-ai/minimax-music/v2.5',
      body: { tags: 'soul ballad, piano', lyrics: LYRICS },
      plan: 'basic',
      units: 3,
    },
    {
      model: 'cassetteai',
      name: 'CassetteAI',
      endpoint: 'CassetteAI/music-generator',
      body: { tags: 'lo-fi hip hop beat', duration: 10 },
      units: 1,
    },
    {
      model: 'stable-audio-2.5',
      name: 'Stable Audio 2.5',
      endpoint: 'fal-ai/stable-audio-25/text-to-audio',
      body: { tags: 'ambient drone, evolving pads', duration: 5 },
      plan: 'basic',
      units: 4,
    },
  ];
  for (const song of songs) {
    paidGeneration.it(
      `${song.name}: made through the API, recorded with its model and cost, its provenance naming its endpoint`,
      { timeout: PIPELINE_TEST_TIMEOUT_MS },
      async () => {
        const { browser, id: userId } = await signedInUser();
        if (song.plan) await subscribe(store, userId, song.plan);
        const res = await browser.post('/api/generate-text-to-music', { model: song.model, ...song.body });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const generationId = String(res.body.generationId);
        expect(await usedOf(userId)).toBe(song.units);

        const done = await settled(browser, generationId);
        expect(done.status).toBe('completed');
        expect(done.model).toBe(song.model);
        expect(done.duration).toBeGreaterThan(0);
        expect(await usedOf(userId)).toBe(song.units);
        const provenance = await browser.get(`/api/track/${generationId}/provenance`);
        expect(provenance.body).toMatchObject({
          model: song.name,
          endpoint: song.endpoint,
          modelId: song.model,
        });
      },
    );
  }
});

describe('the admin Models calls', () => {
  it('saves the settings (audited), and the next generation honours them: a new plan, a new cost', async () => {
    const original = await settingsNow();
    try {
      const changed = structuredClone(original);
      changed.models['minimax-music-2.5'] = {
        enabled: true,
        quotaCost: 2,
        plans: ['free', 'basic', 'premium'],
      };
      await save(changed);

      const read = await settingsNow();
      expect(read.models['minimax-music-2.5']).toEqual({
        enabled: true,
        quotaCost: 2,
        plans: ['free', 'basic', 'premium'],
      });
      const stats = await admin.get('/api/admin/dashboard/stats');
      expect(stats.body.recentActivity).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ actor: username, action: 'models.update', target: 'models' }),
        ]),
      );

      const { browser, id } = await signedInUser();
      const offered = (await browser.get('/api/models')).body as unknown as ModelsAnswer;
      expect(offered.models.find((m) => m.id === 'minimax-music-2.5')).toMatchObject({
        available: true,
        quotaCost: 2,
      });
      const res = await browser.post('/api/generate-text-to-music', {
        model: 'minimax-music-2.5',
        tags: 'soul ballad',
        lyrics: LYRICS,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const stored = await generations.get(String(res.body.generationId));
      expect(stored).toMatchObject({ model: 'minimax-music-2.5', quotaUnits: 2 });
      expect(await usedOf(id)).toBe(2);
    } finally {
      await save(original);
    }
  });

  it('refuses a document that breaks the rules, saving nothing', async () => {
    const original = await settingsNow();
    const paidDefault = { ...structuredClone(original), defaultModel: 'stable-audio-2.5' };
    const res = await admin.put('/api/admin/models', paidDefault);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The default model must be offered on every plan: Stable Audio 2.5 is not in Free.',
    );
    const cost = structuredClone(original);
    cost.models.cassetteai = { enabled: true, quotaCost: 11, plans: [] };
    expect((await admin.put('/api/admin/models', cost)).status).toBe(400);
    expect(await settingsNow()).toEqual(original);
  });

  it('is refused to users and visitors', async () => {
    const { browser } = await signedInUser();
    expect((await browser.get('/api/admin/models')).status).toBe(401);
    expect((await new Browser().put('/api/admin/models', {})).status).toBe(401);
  });
});

describe('a model turned off while a song of it is being made', () => {
  paidGeneration.it(
    'finishes what it started; the next request for it is refused',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const original = await settingsNow();
      const { browser, id } = await signedInUser();
      try {
        const res = await browser.post('/api/generate-text-to-music', {
          model: 'cassetteai',
          tags: 'lo-fi hip hop beat',
          duration: 10,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const generationId = String(res.body.generationId);

        const off = structuredClone(original);
        off.models.cassetteai = {
          ...(original.models.cassetteai as ModelSettings['models'][string]),
          enabled: false,
        };
        await save(off);
        const meanwhile = await browser.get(`/api/generation/${generationId}/status`);
        expect(['pending', 'generating']).toContain(meanwhile.body.status);

        expect(await settled(browser, generationId)).toMatchObject({
          status: 'completed',
          model: 'cassetteai',
        });
        expect(await usedOf(id)).toBe(1);
        const again = await browser.post('/api/generate-text-to-music', {
          model: 'cassetteai',
          tags: 'lo-fi hip hop beat',
          duration: 10,
        });
        expect(again.status).toBe(400);
        expect(again.body.message).toBe('CassetteAI is turned off. Choose another model.');
      } finally {
        await save(original);
      }
    },
  );
});

localOnly('steers the embedded music provider with its failure tag').describe(
  'a failed song of a dearer model',
  () => {
    it('gives back every unit its model cost', { timeout: PIPELINE_TEST_TIMEOUT_MS }, async () => {
      const { browser, id } = await signedInUser();
      await subscribe(store, id, 'basic');
      const res = await browser.post('/api/generate-text-to-music', {
        model: 'stable-audio-2.5',
        tags: 'ambient drone, fail:provider',
        duration: 5,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(await usedOf(id)).toBe(4);
      expect((await settled(browser, String(res.body.generationId))).status).toBe('failed');
      expect(await usedOf(id)).toBe(0);
    });
  },
);
