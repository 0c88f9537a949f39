import { randomUUID } from 'node:crypto';
import { routes } from '@tunesmith/shared/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoGenerationStore } from '../../src/adapters/dynamo/generation-store';
import { dynamoLyricsStore } from '../../src/adapters/dynamo/lyrics-store';
import type { Generation } from '../../src/domain/tracks/track';
import { signedInTestAdmin, signedInUser } from '../support/accounts';
import { direct } from '../support/direct';
import { Browser } from '../support/http';

// A track hidden after a report (decision 061) is answered to its owner only: every public call of
// the track page (the catalogue's: the track, its provenance, lyrics, stems and audio) answers 404 to
// visitors, other users and administrators' sessions alike, as for a private track. And the report
// calls are the users', the resolving calls the administrators'.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
let owner: { browser: Browser; id: string };
let other: Browser;
let admin: Browser;
let removeAdmin: (() => Promise<void>) | undefined;
let hidden: Generation;

beforeAll(async () => {
  owner = await signedInUser();
  other = (await signedInUser()).browser;
  ({ browser: admin, remove: removeAdmin } = await signedInTestAdmin(store, 'hidden'));
  const now = new Date().toISOString();
  hidden = {
    id: `hidden-${randomUUID()}`,
    userId: owner.id,
    type: 'text-to-music',
    title: 'Hidden song',
    tags: 'folk',
    lyrics: '[verse]\nHidden',
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    hidden: true,
    inputAudioUrl: null,
    // Finished with audio, so only who asks decides whether its audio is answered.
    audioUrl: 's3://tunesmith-tracks/tracks/hidden-track.wav',
    seed: 1,
    falRequestId: null,
    createdAt: now,
    updatedAt: now,
  };
  await generations.create(hidden);
  await dynamoLyricsStore(store.documents, store.tableName).put(hidden.id, {
    source: 'aligned',
    lines: [{ start: 1, end: 2, text: 'Hidden', words: [{ start: 1, end: 2, text: 'Hidden' }] }],
  });
});

afterAll(async () => {
  await removeAdmin?.();
  store.close();
});

describe('a hidden track', () => {
  it("tells visitors, other users and admin sessions nothing of it on the track page's public calls", async () => {
    const trackCalls = routes.filter(
      (r) => r.group === 'catalog' && r.auth === 'public' && r.path.startsWith('/api/track/{id}'),
    );
    expect(trackCalls.map((r) => r.id)).toEqual(
      expect.arrayContaining(['getTrack', 'getTrackProvenance', 'getTrackLyrics', 'getTrackAudio']),
    );
    for (const route of trackCalls) {
      const path = route.path.replace('{id}', hidden.id);
      for (const actor of [new Browser(), other, admin]) {
        const res = await actor.call(route.method, path);
        expect(res.status, `${route.method} ${route.path}`).toBe(404);
        expect(res.headers.get('location'), `${route.method} ${route.path}`).toBeNull();
      }
      // Its owner is answered: the refusals above come from who asks.
      expect((await owner.browser.call(route.method, path)).status, route.path).toBeLessThan(400);
    }
    const gallery = await new Browser().get('/api/public-tracks');
    expect((gallery.body as unknown as { id: string }[]).map((t) => t.id)).not.toContain(hidden.id);
  });

  it('is not found for another user to report, and its owner still may not report their own', async () => {
    expect((await other.post(`/api/track/${hidden.id}/report`, { reason: 'spam' })).status).toBe(404);
    expect((await owner.browser.post(`/api/track/${hidden.id}/report`, { reason: 'spam' })).status).toBe(400);
  });
});

describe('the report calls', () => {
  it('refuse visitors and admin sessions; the resolving calls refuse visitors and users', async () => {
    const reportCalls = routes.filter((r) => r.id === 'reportTrack' || r.id === 'reportCreator');
    const adminCalls = routes.filter((r) => r.id === 'adminListReports' || r.id === 'adminResolveReport');
    expect(reportCalls.map((r) => r.auth)).toEqual(['user', 'user']);
    expect(adminCalls.map((r) => r.auth)).toEqual(['admin', 'admin']);
    const pathOf = (path: string) => path.replace('{id}', hidden.id).replace(/\{[^}]+\}/, 'someone');
    for (const route of reportCalls)
      for (const actor of [new Browser(), admin])
        expect((await actor.call(route.method, pathOf(route.path), { reason: 'spam' })).status).toBe(401);
    for (const route of adminCalls)
      for (const actor of [new Browser(), other])
        expect(
          (
            await actor.call(
              route.method,
              pathOf(route.path),
              route.method === 'GET' ? undefined : { action: 'hide' },
            )
          ).status,
        ).toBe(401);
  });
});
