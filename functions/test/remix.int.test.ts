import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { remixMessages } from '@tunesmith/shared/community';
import type { Provenance } from '@tunesmith/shared/ownership';
import type { Track } from '@tunesmith/shared/tracks';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../src/adapters/dynamo/quota-store';
import { dynamoRemixIndex } from '../src/adapters/dynamo/remix-index';
import { remixKeys } from '../src/data/community-keys';
import { keys } from '../src/data/keys';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser, testPassword } from './support/accounts';
import { direct } from './support/direct';
import type { Browser } from './support/http';
import { paidGeneration } from './support/run';
import { storage } from './support/storage';
import { storedTrack as storedTrackOf } from './support/tracks';

// Remixes with credit (decision 060) through the HTTP API: the owner's permission, who may remix
// what, the remixer's quota, the credit and provenance that name the source, and the source's list.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const quota = dynamoQuotaStore(store.documents, store.tableName);
const remixIndex = dynamoRemixIndex(store.documents, store.tableName);

afterAll(() => {
  files.close();
  store.close();
});

const PIPELINE_TEST_TIMEOUT_MS = 150_000;
const SETTLE_WITHIN_MS = 60_000;
const restyle = { tags: 'jazz, brushed drums', lyrics: '[verse]\nsame tune, new coat', visibility: 'public' };

const storedTrack = (userId: string, over: Partial<Generation> = {}) =>
  storedTrackOf({ generations, files }, userId, { audioSha256: 'a'.repeat(64), ...over });
const used = async (userId: string) => (await quota.read(userId))?.used ?? 0;
const allow = (browser: Browser, id: string, remixable: boolean) =>
  browser.call('PATCH', `/api/generation/${id}/remixable`, { remixable });

async function settled(browser: Browser, id: string): Promise<string> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const body = (await browser.get(`/api/generation/${id}/status`)).body;
    if ((body.status === 'completed' && body.downloadReady) || body.status === 'failed')
      return String(body.status);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish`);
}

describe('the remix permission', () => {
  it("is the owner's to give, off by default, on public tracks only", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const source = await storedTrack(owner.id);
    expect((await owner.browser.get(`/api/track/${source.id}`)).body.remixable).toBe(false);

    const res = await allow(owner.browser, source.id, true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: source.id, remixable: true });
    expect((await other.browser.get(`/api/track/${source.id}`)).body.remixable).toBe(true);

    // Someone else's track is not found; a private one cannot be offered.
    expect((await allow(other.browser, source.id, false)).status).toBe(404);
    const secret = await storedTrack(owner.id, { visibility: 'private' });
    const refused = await allow(owner.browser, secret.id, true);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(remixMessages.privateNotRemixable);
    expect((await generations.get(secret.id))?.remixable).toBeUndefined();
  });
});

describe('starting a remix', () => {
  it('is refused with the reason, or not found, and spends nothing', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const closed = await storedTrack(owner.id);
    const open = await storedTrack(owner.id, { remixable: true });
    const secret = await storedTrack(owner.id, { visibility: 'private', remixable: true });

    const off = await other.browser.post(`/api/generation/${closed.id}/remix`, restyle);
    expect(off.status).toBe(403);
    expect(off.body.message).toBe(remixMessages.cannotRemix);
    expect((await other.browser.post(`/api/generation/${secret.id}/remix`, restyle)).status).toBe(404);
    expect((await other.browser.post('/api/generation/no-such-track/remix', restyle)).status).toBe(404);
    const own = await owner.browser.post(`/api/generation/${open.id}/remix`, restyle);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(remixMessages.ownTrack);
    expect(await used(other.id)).toBe(0);
    expect(await used(owner.id)).toBe(0);
  });

  paidGeneration.it(
    "restyles the source's audio on the remixer's quota, credits and names the source, and keeps playing once the source is private",
    { timeout: PIPELINE_TEST_TIMEOUT_MS },
    async () => {
      const owner = await signedInUser();
      const other = await signedInUser();
      const visitor = await signedInUser();
      const source = await storedTrack(owner.id, { title: 'Harbour Lights', remixable: true });

      const res = await other.browser.post(`/api/generation/${source.id}/remix`, {
        ...restyle,
        title: 'Harbour Lights (jazz)',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const remixId = String(res.body.generationId);
      expect(await used(other.id)).toBeGreaterThan(0);
      expect(await used(owner.id)).toBe(0);
      expect(await generations.get(remixId)).toMatchObject({
        userId: other.id,
        type: 'audio-to-music',
        remixOf: { trackId: source.id, userId: owner.id, sha256: source.audioSha256 },
      });
      expect(await settled(other.browser, remixId)).toBe('completed');

      const page = (await visitor.browser.get(`/api/track/${remixId}`)).body as unknown as Track;
      expect(page.remixOf).toEqual({
        available: true,
        trackId: source.id,
        title: 'Harbour Lights',
        creator: null,
      });
      const provenance = (await visitor.browser.get(`/api/track/${remixId}/provenance`))
        .body as unknown as Provenance;
      expect(provenance.inputs).toEqual([
        { kind: 'remix', trackId: source.id, sha256: source.audioSha256, creator: 'anonymous' },
      ]);

      // The source's page lists it; its owner also hears of the private ones.
      const privateRemix = await storedTrack(visitor.id, {
        visibility: 'private',
        remixOf: { trackId: source.id, userId: owner.id, sha256: null },
      });
      await remixIndex.add(source.id, privateRemix);
      const listed = (await visitor.browser.get(`/api/track/${source.id}/remixes`)).body;
      expect((listed.remixes as Track[]).map((t) => t.id)).toEqual([remixId]);
      expect((listed.remixes as Track[])[0]?.remixOf).toMatchObject({ available: true, trackId: source.id });
      expect(listed.privateCount).toBeUndefined();
      const ownView = (await owner.browser.get(`/api/track/${source.id}/remixes`)).body;
      expect((ownView.remixes as Track[]).map((t) => t.id)).toEqual([remixId]);
      expect(ownView.privateCount).toBe(1);

      // Made private, the source is no longer named; the remix still plays.
      // (A free owner may not make a track private through the API: the table is changed as a paid plan would.)
      await generations.update(source.id, (g) => ({ ...g, visibility: 'private' }));
      const after = (await visitor.browser.get(`/api/track/${remixId}`)).body as unknown as Track;
      expect(after.remixOf).toEqual({ available: false, trackId: null, title: null, creator: null });
      expect(after.audioUrl).toBeTruthy();
      const withheld = (await visitor.browser.get(`/api/track/${remixId}/provenance`))
        .body as unknown as Provenance;
      expect(withheld.inputs).toEqual([{ kind: 'remix', sha256: null }]);
    },
  );
});

describe('deleting an account', () => {
  const entriesOf = async (sourceId: string) =>
    (
      await store.documents.send(
        new QueryCommand({
          TableName: store.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': remixKeys.partition(sourceId) },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];

  async function gone(userId: string) {
    const until = Date.now() + 30_000;
    while (
      (await store.documents.send(new GetCommand({ TableName: store.tableName, Key: keys.user(userId) })))
        .Item
    ) {
      if (Date.now() > until) throw new Error(`The account ${userId} was not deleted`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("takes a deleted remixer's remixes out of their sources' lists, and a deleted source's list with it", async () => {
    const owner = await signedInUser();
    const remixer = await signedInUser();
    const source = await storedTrack(owner.id, { remixable: true });
    const of = { trackId: source.id, userId: owner.id, sha256: null };
    const theirs = await storedTrack(remixer.id, { remixOf: of });
    const kept = await storedTrack(owner.id, { remixOf: { ...of, trackId: theirs.id } });
    await remixIndex.add(source.id, theirs);
    await remixIndex.add(theirs.id, kept);
    expect((await entriesOf(source.id)).map((e) => e.remixId)).toEqual([theirs.id]);

    const answer = await remixer.browser.call('DELETE', '/api/user', { currentPassword: testPassword });
    expect(answer.status).toBe(202);
    await gone(remixer.id);

    // Nothing in the source's list points at the deleted user's remix, and the list of their own track is gone.
    expect(await entriesOf(source.id)).toEqual([]);
    expect(await entriesOf(theirs.id)).toEqual([]);
    expect((await owner.browser.get(`/api/track/${source.id}/remixes`)).body).toEqual({
      remixes: [],
      privateCount: 0,
    });
  });
});
