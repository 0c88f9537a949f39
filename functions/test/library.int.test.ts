import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { Browser } from './support/http';

// The library calls through the HTTP API: a user sees and changes only their own tracks.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
afterAll(() => store.close());

async function aTrack(userId: string, overrides: Partial<Generation> = {}): Promise<Generation> {
  const now = new Date().toISOString();
  const generation: Generation = {
    id: `lib-${randomUUID()}`,
    userId,
    type: 'text-to-music',
    title: 'Morning',
    tags: 'lo-fi, chill',
    lyrics: null,
    duration: 42,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: 'http://127.0.0.1/files/a.wav',
    seed: 7,
    falRequestId: 'req',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  await generations.create(generation);
  return generation;
}

describe('the library', () => {
  it('lists only the signed-in user’s tracks, newest first, without owner fields', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const older = await aTrack(alice.id, { createdAt: '2026-01-01T00:00:00.000Z' });
    const newer = await aTrack(alice.id, { createdAt: '2026-02-01T00:00:00.000Z', visibility: 'private' });
    await aTrack(bob.id);

    const res = await alice.browser.get('/api/my-generations');
    expect(res.status).toBe(200);
    const list = res.body as unknown as Record<string, unknown>[];
    expect(list.map((t) => t.id)).toEqual([newer.id, older.id]);
    expect(list[0]).not.toHaveProperty('userId');
    expect(list[0]).not.toHaveProperty('seed');

    expect((await new Browser().get('/api/my-generations')).status).toBe(401);
  });

  it('answers a generation’s status to its owner only', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const track = await aTrack(alice.id, { status: 'generating', audioUrl: null, duration: null });

    const own = await alice.browser.get(`/api/generation/${track.id}/status`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      status: 'generating',
      audioUrl: null,
      duration: null,
      tags: 'lo-fi, chill',
      type: 'text-to-music',
    });
    expect((await bob.browser.get(`/api/generation/${track.id}/status`)).status).toBe(404);
    expect((await alice.browser.get('/api/generation/no-such-id/status')).status).toBe(404);
    expect((await new Browser().get(`/api/generation/${track.id}/status`)).status).toBe(401);
  });

  it('renames with the title rules and refuses everyone but the owner', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const track = await aTrack(alice.id);
    const path = `/api/generation/${track.id}/visibility`;

    const renamed = await alice.browser.call('PATCH', path, { title: '  Evening  ', visibility: 'public' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Evening');
    expect((await generations.get(track.id))?.title).toBe('Evening');

    const empty = await alice.browser.call('PATCH', path, { title: '   ', visibility: 'public' });
    expect([empty.status, empty.body.message]).toEqual([400, 'Title cannot be empty.']);
    const long = await alice.browser.call('PATCH', path, { title: 'x'.repeat(101), visibility: 'public' });
    expect([long.status, long.body.message]).toEqual([400, 'Title must be 100 characters or less.']);

    const foreign = await bob.browser.call('PATCH', path, { title: 'Mine now', visibility: 'public' });
    expect(foreign.status).toBe(404);
    expect((await generations.get(track.id))?.title).toBe('Evening');
  });

  it('keeps private tracks for paid plans: a free user is told to upgrade', async () => {
    const alice = await signedInUser();
    const track = await aTrack(alice.id);
    const res = await alice.browser.call('PATCH', `/api/generation/${track.id}/visibility`, {
      title: 'Morning',
      visibility: 'private',
    });
    expect(res.status).toBe(402);
    expect(String(res.body.message)).toMatch(/paid plan/i);
    expect((await generations.get(track.id))?.visibility).toBe('public');
  });
});
