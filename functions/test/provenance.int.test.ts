import { createHash, randomUUID } from 'node:crypto';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DIGITAL_SOURCE_TYPE, type Provenance, provenanceSchema } from '@tunesmith/shared/ownership';
import type { Track } from '@tunesmith/shared/tracks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../src/adapters/dynamo/plan-repository';
import { keys } from '../src/data/keys';
import type { AdminUser } from '../src/domain/accounts/admin';
import type { Generation } from '../src/domain/tracks/track';
import {
  adminSignIn,
  adminTestPassword,
  createTestAdmin,
  removeTestAdmin,
  signedInUser,
} from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, Browser } from './support/http';
import { subscribe } from './support/plans';
import { paidGeneration } from './support/run';
import { storage, wavBytes } from './support/storage';
import { storedTrack as storedTrackOf } from './support/tracks';

// A track's provenance record and license through the HTTP API: written when
// the track is created (the endpoint, what the model was asked, the inputs as
// hashed when they arrived, the plan in force and its license), never changed
// by a later plan change, and shown to whoever may see the track. Then the
// plan's commercial-use switch from the admin form to the public plan list.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const plans = dynamoPlanRepository(store.documents, store.tableName);

afterAll(() => {
  files.close();
  store.close();
});

const SETTLE_WITHIN_MS = 60_000;
const PIPELINE_TEST_TIMEOUT_MS = 150_000;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const termsUrl = `${apiUrl}/terms#license`;
const personal = {
  commercialUse: false,
  summary: 'Personal, non-commercial use only.',
  termsUrl,
};
const commercial = {
  commercialUse: true,
  summary: 'Commercial use allowed: you may use this track in ads, products and paid content.',
  termsUrl,
};

/** The provenance call, its record checked against the shared schema when it answers 200. */
async function provenance(browser: Browser, id: string): Promise<{ status: number; record?: Provenance }> {
  const res = await browser.get(`/api/track/${id}/provenance`);
  if (res.status !== 200) {
    expect(res.body.message).toBe('Track not found');
    return { status: res.status };
  }
  return { status: 200, record: provenanceSchema.parse(res.body) };
}

async function settled(browser: Browser, id: string): Promise<string> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    // Completed plays at once; the record's hash is there once the download is prepared.
    const { status, downloadReady } = (await browser.get(`/api/generation/${id}/status`)).body as {
      status: string;
      downloadReady: boolean;
    };
    if ((status === 'completed' && downloadReady) || status === 'failed') return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish within ${SETTLE_WITHIN_MS / 1000} s`);
}

const storedTrack = (userId: string, over: Partial<Generation> = {}) =>
  storedTrackOf({ generations, files }, userId, { id: `prov-${randomUUID()}`, ...over });

const text = (browser: Browser, body: Record<string, unknown> = {}) =>
  browser.post('/api/generate-text-to-music', {
    tags: 'synthwave, steady beat',
    lyrics: '[verse]\nneon over water',
    duration: 8,
    ...body,
  });

describe('the record of a text track', () => {
  paidGeneration.it(
    'names the text endpoint, what the model was asked, no inputs, the Free plan and its seed once completed',
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const { browser } = await signedInUser();

      const res = await text(browser);
      expect(res.status).toBe(201);
      const id = String(res.body.generationId);
      expect(await settled(browser, id)).toBe('completed');

      const { status, record } = await provenance(browser, id);
      const stored = (await generations.get(id)) as Generation;
      expect(status).toBe(200);
      expect(record).toMatchObject({
        trackId: id,
        createdAt: stored.createdAt,
        aiGenerated: true,
        digitalSourceType: DIGITAL_SOURCE_TYPE,
        provider: 'fal.ai',
        model: 'ACE-Step',
        endpoint: 'fal-ai/ace-step',
        parameters: {
          tags: 'synthwave, steady beat',
          lyrics: '[verse]\nneon over water',
          duration: 8,
          instrumental: false,
        },
        inputs: [],
        parentId: null,
        plan: 'Free',
        license: personal,
      });
      expect(record?.seed).toBe(stored.seed);
      expect(typeof record?.seed).toBe('number');
      // The WAV download's hash, recorded once the download was prepared.
      expect(record?.audioSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(record?.audioSha256).toBe(stored.audioSha256);
      // The track itself carries the same license, and so does the status answer the Create page reads.
      expect(((await browser.get(`/api/track/${id}`)).body as unknown as Track).license).toEqual(personal);
      expect((await browser.get(`/api/generation/${id}/status`)).body.license).toEqual(personal);
    },
  );
});

describe('the record of a restyle', () => {
  type Signed = Awaited<ReturnType<typeof signedInUser>>;
  /** Uploads as the upload dialog does: a link, the browser's PUT, then the check that takes it in. */
  async function uploaded(user: Signed, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
    const reserved = await user.browser.post('/api/objects/upload', {
      filename: 'song.wav',
      contentType: 'audio/wav',
    });
    const { uploadURL } = reserved.body as { uploadURL: string };
    const put = await fetch(uploadURL, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'audio/wav' },
    });
    await put.arrayBuffer();
    expect(put.status).toBe(200);
    const normalized = await user.browser.post('/api/objects/normalize-path', { uploadURL });
    expect(normalized.status).toBe(200);
    return String(normalized.body.objectPath);
  }
  const restyle = (browser: Browser, inputAudioUrl: string) =>
    browser.post('/api/generate-audio-to-music', {
      tags: 'rock, electric guitar',
      lyrics: '',
      inputAudioUrl,
      visibility: 'public',
    });

  paidGeneration.it('names its upload by the SHA-256 of the bytes the browser sent', async () => {
    const user = await signedInUser();
    const bytes = wavBytes({ seconds: 2 });
    const objectPath = await uploaded(user, bytes);

    // Hashed when it arrived, and the hash kept with the file.
    const kept = await files.client.send(
      new HeadObjectCommand({ Bucket: files.uploadsBucket, Key: objectPath.replace(/^\/objects\//, '') }),
    );
    expect(kept.Metadata?.sha256).toBe(sha256(bytes));

    const res = await restyle(user.browser, objectPath);

    expect(res.status).toBe(201);
    const { record } = await provenance(user.browser, String(res.body.generationId));
    expect(record).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-to-audio',
      parameters: { tags: 'rock, electric guitar', lyrics: '', duration: null, instrumental: false },
      inputs: [{ kind: 'upload', sha256: sha256(bytes) }],
      parentId: null,
    });
  });

  paidGeneration.it(
    'hashes an upload taken in before hashes were kept when a track is made from it',
    async () => {
      const user = await signedInUser();
      const bytes = wavBytes({ seconds: 1 });
      const key = `uploads/${user.id}/${randomUUID()}.wav`;
      await files.putUpload(key, bytes);

      const res = await restyle(user.browser, `/objects/${key}`);

      expect(res.status).toBe(201);
      const { record } = await provenance(user.browser, String(res.body.generationId));
      expect(record?.inputs).toEqual([{ kind: 'upload', sha256: sha256(bytes) }]);
    },
  );
});

describe('the record of a studio track', () => {
  paidGeneration.it(
    'names the track it was made from, with that track’s recorded hash, and the edit',
    async () => {
      const { browser, id: userId } = await signedInUser();
      const parent = await storedTrack(userId, {
        duration: 30,
        audioSha256: sha256(wavBytes({ seconds: 1 })),
      });

      const extended = await browser.post(`/api/generation/${parent.id}/extend`, { seconds: 10, at: 'end' });
      const repainted = await browser.post(`/api/generation/${parent.id}/repaint`, {
        start: 2,
        end: 12,
        variance: 0.4,
      });

      expect([extended.status, repainted.status]).toEqual([201, 201]);
      const recorded = (await generations.get(parent.id)) as Generation;
      const asInput = { kind: 'parent', trackId: parent.id, sha256: recorded.audioSha256 ?? null };
      const extension = (await provenance(browser, String(extended.body.generationId))).record;
      const repaint = (await provenance(browser, String(repainted.body.generationId))).record;
      expect(extension).toMatchObject({
        endpoint: 'fal-ai/ace-step/audio-outpaint',
        parentId: parent.id,
        inputs: [asInput],
        parameters: { tags: 'ambient', duration: 40, edit: { kind: 'extend', seconds: 10, at: 'end' } },
      });
      expect(repaint).toMatchObject({
        endpoint: 'fal-ai/ace-step/audio-inpaint',
        parentId: parent.id,
        inputs: [asInput],
        parameters: { duration: 30, edit: { kind: 'repaint', start: 2, end: 12, variance: 0.4 } },
      });
    },
  );
});

describe('who sees a record', () => {
  it('shows a public track’s record to anyone and a private one to its owner only', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const visitor = new Browser();
    const shared = await storedTrack(owner.id, { visibility: 'public' });
    const hidden = await storedTrack(owner.id, { visibility: 'private' });

    expect((await provenance(visitor, shared.id)).status).toBe(200);
    expect((await provenance(other.browser, shared.id)).status).toBe(200);
    expect((await provenance(owner.browser, hidden.id)).record?.trackId).toBe(hidden.id);
    expect((await provenance(other.browser, hidden.id)).status).toBe(404);
    expect((await provenance(visitor, hidden.id)).status).toBe(404);
    expect((await provenance(visitor, `prov-${randomUUID()}`)).status).toBe(404);
  });

  paidGeneration.it(
    'names the private track a public version was made from, and its hash, to their owner only',
    async () => {
      const owner = await signedInUser();
      const other = await signedInUser();
      const parentHash = sha256(wavBytes({ seconds: 1 }));
      const parent = await storedTrack(owner.id, { visibility: 'private', audioSha256: parentHash });
      // A free plan keeps no private tracks: the variation of a private track is public.
      const made = await owner.browser.post(`/api/generation/${parent.id}/variation`, {});
      expect(made.status).toBe(201);
      const id = String(made.body.generationId);
      expect((await generations.get(id))?.visibility).toBe('public');

      expect((await provenance(owner.browser, id)).record).toMatchObject({
        parentId: parent.id,
        inputs: [{ kind: 'parent', trackId: parent.id, sha256: parentHash }],
      });
      expect((await owner.browser.get(`/api/track/${id}`)).body).toMatchObject({ parentId: parent.id });
      for (const viewer of [new Browser(), other.browser]) {
        const record = await viewer.get(`/api/track/${id}/provenance`);
        const page = await viewer.get(`/api/track/${id}`);
        expect([record.status, page.status]).toEqual([200, 200]);
        expect(provenanceSchema.parse(record.body)).toMatchObject({
          parentId: null,
          inputs: [{ kind: 'parent', sha256: null }],
        });
        expect(page.body).toMatchObject({ parentId: null, family: { parent: null } });
        for (const told of [JSON.stringify(record.body), JSON.stringify(page.body)]) {
          expect(told).not.toContain(parent.id);
          expect(told).not.toContain(parentHash);
        }
      }
    },
  );

  it('answers a track from before provenance with plan Unknown and the personal license, never cached', async () => {
    const owner = await signedInUser();
    const old = await storedTrack(owner.id, { seed: 77 });

    const res = await new Browser().get(`/api/track/${old.id}/provenance`);

    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(provenanceSchema.parse(res.body)).toMatchObject({
      seed: 77,
      endpoint: 'fal-ai/ace-step',
      plan: 'Unknown',
      license: personal,
    });
  });
});

describe('the license follows the plan at creation', () => {
  paidGeneration.it(
    'gives Premium tracks a commercial license and Basic ones personal use, unchanged by a later plan change',
    async () => {
      const premium = await signedInUser();
      const basic = await signedInUser();
      await subscribe(store, premium.id, 'premium');
      await subscribe(store, basic.id, 'basic');

      const onPremium = String((await text(premium.browser, { visibility: 'private' })).body.generationId);
      const onBasic = String((await text(basic.browser)).body.generationId);

      const before = (await provenance(premium.browser, onPremium)).record;
      expect(before).toMatchObject({ plan: 'Premium', license: commercial });
      expect((await provenance(basic.browser, onBasic)).record).toMatchObject({
        plan: 'Basic',
        license: personal,
      });

      // The Premium subscription ends and Basic upgrades to Premium: neither track's license moves.
      await store.documents.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: keys.user(premium.id),
          UpdateExpression: 'SET planStatus = :expired, subscriptionPlanId = :none',
          ExpressionAttributeValues: { ':expired': 'expired', ':none': null },
        }),
      );
      await subscribe(store, basic.id, 'premium');
      await premium.browser.call('PATCH', `/api/generation/${onPremium}/visibility`, {
        title: 'Renamed after the downgrade',
        visibility: 'private',
      });

      expect((await provenance(premium.browser, onPremium)).record).toMatchObject({
        plan: 'Premium',
        license: commercial,
        createdAt: before?.createdAt,
      });
      expect((await provenance(basic.browser, onBasic)).record).toMatchObject({
        plan: 'Basic',
        license: personal,
      });
      const track = (await premium.browser.get(`/api/track/${onPremium}`)).body as unknown as Track;
      expect([track.title, track.license]).toEqual(['Renamed after the downgrade', commercial]);
      // A track made after the upgrade gets the new plan's license.
      const later = String((await text(basic.browser)).body.generationId);
      expect((await provenance(basic.browser, later)).record).toMatchObject({
        plan: 'Premium',
        license: commercial,
      });
    },
  );
});

describe('a plan’s commercial use', () => {
  const username = `prov-${Date.now().toString(36)}`;
  const password = adminTestPassword();
  let admin: Browser;
  let created: AdminUser | undefined;
  beforeAll(async () => {
    created = await createTestAdmin(store, username, password);
    admin = new Browser();
    expect((await adminSignIn(admin, username, password)).status).toBe(200);
  });
  afterAll(() => removeTestAdmin(store, created));

  it('is saved by the admin form, changed by an edit and stored with the plan', async () => {
    const made = await admin.post('/api/admin/plans', {
      name: `Label ${randomUUID().slice(0, 6)}`,
      monthlyPrice: 0,
      isActive: false,
      commercialUse: true,
    });
    expect(made.status).toBe(201);
    const id = String(made.body.id);
    try {
      expect(made.body.commercialUse).toBe(true);
      expect((await plans.get(id))?.commercialUse).toBe(true);

      const edited = await admin.put(`/api/admin/plans/${id}`, { ...made.body, commercialUse: false });

      expect(edited.body.commercialUse).toBe(false);
      const listed = (await admin.get('/api/admin/plans')).body as unknown as {
        id: string;
        commercialUse: boolean;
      }[];
      expect(listed.find((plan) => plan.id === id)?.commercialUse).toBe(false);
      expect((await plans.get(id))?.commercialUse).toBe(false);
    } finally {
      await admin.call('DELETE', `/api/admin/plans/${id}`);
    }
  });

  it('is answered by the public plan list: the seed’s Premium is commercial, Free and Basic are not', async () => {
    const listed = (await new Browser().get('/api/plans')).body as unknown as {
      name: string;
      commercialUse: boolean;
    }[];
    const byName = new Map(listed.map((plan) => [plan.name, plan.commercialUse]));

    expect([byName.get('Free'), byName.get('Basic'), byName.get('Premium')]).toEqual([false, false, true]);
  });

  it('reads as false on a plan stored before the switch existed', async () => {
    const id = `prov-plan-${randomUUID()}`;
    const at = new Date().toISOString();
    await store.documents.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...keys.plan(id),
          entity: 'plan',
          id,
          name: 'Older plan',
          description: null,
          weeklyPrice: 0,
          monthlyPrice: 0,
          yearlyPrice: 0,
          weeklyPriceId: null,
          monthlyPriceId: null,
          yearlyPriceId: null,
          maxGenerations: 5,
          generationsNumber: 5,
          features: [],
          isActive: false,
          sortOrder: 9,
          createdAt: at,
          updatedAt: at,
        },
      }),
    );
    try {
      expect((await plans.get(id))?.commercialUse).toBe(false);
    } finally {
      await plans.delete(id);
    }
  });
});
