import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { REPORTS_PER_WINDOW } from '@tunesmith/shared/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAuditLog } from '../src/adapters/dynamo/audit-log';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { creatorKeys as profileKeys } from '../src/data/community-keys';
import { refreshSharePage } from '../src/domain/tracks/share-page';
import type { Generation } from '../src/domain/tracks/track';
import { signedInTestAdmin, signedInUser, testPassword } from './support/accounts';
import { direct } from './support/direct';
import { type ApiResponse, Browser } from './support/http';
import { apiUrl } from './support/run';
import { storage } from './support/storage';
import { storedTrack } from './support/tracks';

// Reports (decision 061) through the HTTP API: a user reports a track or a profile, an administrator
// lists the reports and hides, dismisses, suspends or restores; hidden content is gone at once for
// everyone but its owner, and a suspended account can neither sign in nor use its sessions or keys.

const store = direct();
const buckets = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const shareDeps = buckets.sharePages(generations);
const auditLog = dynamoAuditLog(store.documents, store.tableName);
let admin: Browser;
let removeAdmin: (() => Promise<void>) | undefined;
const profiles: { userId: string; handle: string }[] = [];

beforeAll(async () => {
  ({ browser: admin, remove: removeAdmin } = await signedInTestAdmin(store, 'reports'));
});
afterAll(async () => {
  await removeAdmin?.();
  for (const { userId, handle } of profiles) {
    for (const Key of [profileKeys.handle(handle), profileKeys.profile(userId)])
      await store.documents.send(new DeleteCommand({ TableName: store.tableName, Key }));
  }
  store.close();
  buckets.close();
});

/** A finished public track of `userId` with its share page written, as the workflow leaves one. */
async function sharedTrack(
  userId: string,
  title = `Reported ${randomUUID().slice(0, 6)}`,
): Promise<Generation> {
  const track = await storedTrack({ generations, files: buckets }, userId, { title });
  expect(await refreshSharePage(shareDeps, track.id)).toBe('published');
  return track;
}

/** The share page as a link preview reads it: whether it says anything about the track. */
async function sharePageNames(id: string): Promise<boolean> {
  const html = await (await fetch(`${apiUrl}/track/${id}`)).text();
  return html.includes('og:title') && html.includes(id);
}

async function reportsOf(subjectId: string): Promise<Record<string, unknown>[]> {
  const listed = await admin.get('/api/admin/reports');
  expect(listed.status).toBe(200);
  return (listed.body.reports as { subject: { id: string } }[]).filter((r) => r.subject.id === subjectId);
}

const resolve = (reportId: string, action: string): Promise<ApiResponse> =>
  admin.post(`/api/admin/reports/${reportId}`, { action });

async function galleryIds(): Promise<string[]> {
  const res = await fetch(`${apiUrl}/api/public-tracks`);
  return ((await res.json()) as { id: string }[]).map((t) => t.id);
}

describe('reporting a track and hiding it', () => {
  it('lists the report for an administrator; hide takes the track out of the gallery, its page, audio and share page for everyone but its owner; restore brings it back; each audited', async () => {
    const owner = await signedInUser();
    const reporter = await signedInUser();
    const second = await signedInUser();
    const track = await sharedTrack(owner.id);
    expect(await galleryIds()).toContain(track.id);
    expect(await sharePageNames(track.id)).toBe(true);

    const reported = await reporter.browser.post(`/api/track/${track.id}/report`, {
      reason: 'spam',
      details: 'Links to a shop',
    });
    expect([reported.status, reported.body]).toEqual([201, { reported: true }]);
    // A repeat is accepted, not kept twice.
    expect((await reporter.browser.post(`/api/track/${track.id}/report`, { reason: 'hate' })).status).toBe(
      201,
    );
    expect((await second.browser.post(`/api/track/${track.id}/report`, { reason: 'hate' })).status).toBe(201);

    const open = await reportsOf(track.id);
    expect(open).toHaveLength(2);
    const first = open.find((r) => r.reporterId === reporter.id);
    expect(first).toMatchObject({
      subject: { kind: 'track', id: track.id, label: track.title },
      ownerId: owner.id,
      reason: 'spam',
      details: 'Links to a shop',
      status: 'open',
      resolvedAt: null,
    });

    const hidden = await resolve(String(first?.id), 'hide');
    expect(hidden.status).toBe(200);
    expect(hidden.body.status).toBe('hidden');
    // The subject's other open report was resolved the same way.
    expect((await reportsOf(track.id)).map((r) => r.status)).toEqual(['hidden', 'hidden']);

    expect(await galleryIds()).not.toContain(track.id);
    for (const path of [
      `/api/track/${track.id}`,
      `/api/track/${track.id}/provenance`,
      `/api/track/${track.id}/audio`,
    ]) {
      expect((await fetch(`${apiUrl}${path}`, { redirect: 'manual' })).status).toBe(404);
      expect((await reporter.browser.get(path)).status).toBe(404);
    }
    expect(await sharePageNames(track.id)).toBe(false);
    // Its owner still sees it, told why.
    const own = await owner.browser.get(`/api/track/${track.id}`);
    expect(own.status).toBe(200);
    expect(own.body.hidden).toBe(true);
    // A hidden track cannot be reported any more: for the reporter it is not found.
    expect((await reporter.browser.post(`/api/track/${track.id}/report`, { reason: 'spam' })).status).toBe(
      404,
    );

    const restored = await resolve(String(first?.id), 'restore');
    expect([restored.status, restored.body.status]).toEqual([200, 'restored']);
    expect(await galleryIds()).toContain(track.id);
    expect((await fetch(`${apiUrl}/api/track/${track.id}`)).status).toBe(200);
    expect(await sharePageNames(track.id)).toBe(true);

    const recent = await auditLog.recent(100);
    expect(recent.filter((e) => e.target === first?.id).map((e) => e.action)).toEqual([
      'report.restore',
      'report.hide',
    ]);
  });

  it('dismisses a report: the track stays, the report is closed; a resolved report is not resolved again', async () => {
    const owner = await signedInUser();
    const reporter = await signedInUser();
    const track = await sharedTrack(owner.id);
    await reporter.browser.post(`/api/track/${track.id}/report`, { reason: 'other' });
    const [report] = await reportsOf(track.id);
    const dismissed = await resolve(String(report?.id), 'dismiss');
    expect([dismissed.status, dismissed.body.status]).toEqual([200, 'dismissed']);
    expect(await galleryIds()).toContain(track.id);
    expect(await sharePageNames(track.id)).toBe(true);
    const again = await resolve(String(report?.id), 'hide');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This report has already been resolved.');
    expect((await resolve(String(report?.id), 'restore')).status).toBe(409);
    expect((await resolve('no-such-report', 'hide')).status).toBe(404);
    expect((await admin.post(`/api/admin/reports/${String(report?.id)}`, { action: 'ban' })).status).toBe(
      400,
    );
    const recent = await auditLog.recent(100);
    expect(recent.find((e) => e.target === report?.id)?.action).toBe('report.dismiss');
  });

  it('refuses reporting one’s own track (400), an unseen track (404), and a bad reason (400)', async () => {
    const owner = await signedInUser();
    const track = await sharedTrack(owner.id);
    const own = await owner.browser.post(`/api/track/${track.id}/report`, { reason: 'spam' });
    expect([own.status, own.body.message]).toEqual([400, 'You cannot report your own content.']);
    const hiddenFromOthers = await storedTrack({ generations, files: buckets }, owner.id, {
      visibility: 'private',
    });
    const reporter = await signedInUser();
    expect(
      (await reporter.browser.post(`/api/track/${hiddenFromOthers.id}/report`, { reason: 'spam' })).status,
    ).toBe(404);
    expect((await reporter.browser.post(`/api/track/${track.id}/report`, { reason: 'boring' })).status).toBe(
      400,
    );
    expect((await new Browser().post(`/api/track/${track.id}/report`, { reason: 'spam' })).status).toBe(401);
    expect(await reportsOf(track.id)).toEqual([]);
  });

  it(`allows ${REPORTS_PER_WINDOW} reports an hour per user, then 429 with a message`, async () => {
    const owner = await signedInUser();
    const reporter = await signedInUser();
    const at = new Date().toISOString();
    const ids: string[] = [];
    for (let i = 0; i <= REPORTS_PER_WINDOW; i++) {
      const id = randomUUID();
      await generations.create({
        id,
        userId: owner.id,
        type: 'text-to-music',
        title: `Many ${i}`,
        tags: 'ambient',
        lyrics: '',
        duration: 30,
        status: 'completed',
        visibility: 'public',
        showInGallery: false,
        inputAudioUrl: null,
        audioUrl: null,
        seed: 1,
        falRequestId: null,
        createdAt: at,
        updatedAt: at,
      });
      ids.push(id);
    }
    for (const id of ids.slice(0, REPORTS_PER_WINDOW))
      expect((await reporter.browser.post(`/api/track/${id}/report`, { reason: 'spam' })).status).toBe(201);
    const refused = await reporter.browser.post(`/api/track/${ids.at(-1)}/report`, { reason: 'spam' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('You have sent many reports in a short time. Try again in an hour.');
    expect(await reportsOf(String(ids.at(-1)))).toEqual([]);
  });
});

describe('reporting a profile and suspending its owner', () => {
  it('suspends: sign-in, sessions and API keys are refused with the reason, the profile is hidden; restore lifts it', async () => {
    const owner = await signedInUser();
    const reporter = await signedInUser();
    const handle = `Owner_${randomUUID().slice(0, 8)}`;
    // A public profile, chosen as a user chooses one (decision 059).
    expect(
      (await owner.browser.put('/api/user/public-profile', { handle, displayName: 'Owner Quill' })).status,
    ).toBe(200);
    profiles.push({ userId: owner.id, handle });
    // Their public playlist's preview names them while their profile may be seen.
    const playlist = await owner.browser.post('/api/playlists', { title: 'Quills', visibility: 'public' });
    expect(playlist.status).toBe(201);
    const preview = async () => (await fetch(`${apiUrl}/playlist/${String(playlist.body.id)}`)).text();
    expect(await preview()).toContain('by Owner Quill');
    const created = await owner.browser.post('/api/user/api-keys', { name: 'CI', scopes: ['read'] });
    expect(created.status).toBe(201);
    const key = String(created.body.key);
    const withKey = () => new Browser().get('/api/v1/tracks', { authorization: `Bearer ${key}` });
    expect((await withKey()).status).toBe(200);

    expect(
      (await reporter.browser.post(`/api/creators/${handle.toLowerCase()}/report`, { reason: 'harassment' }))
        .status,
    ).toBe(201);
    expect((await owner.browser.post(`/api/creators/${handle}/report`, { reason: 'spam' })).status).toBe(400);
    expect((await reporter.browser.post('/api/creators/nobody-here/report', { reason: 'spam' })).status).toBe(
      404,
    );
    const [report] = await reportsOf(owner.id);
    expect(report).toMatchObject({
      subject: { kind: 'profile', id: owner.id, label: handle },
      status: 'open',
    });

    const suspended = await resolve(String(report?.id), 'suspend');
    expect([suspended.status, suspended.body.status]).toEqual([200, 'suspended']);

    expect((await owner.browser.get('/api/auth/user')).status).toBe(401);
    const login = await new Browser().post('/api/auth/login', { email: owner.email, password: testPassword });
    expect([login.status, login.body.message]).toEqual([403, 'This account is suspended.']);
    const refusedKey = await withKey();
    expect(refusedKey.status).toBe(403);
    expect(JSON.stringify(refusedKey.body)).toContain('This account is suspended.');
    const withdrawn = await preview();
    expect(withdrawn).toContain('Quills');
    expect(withdrawn).not.toContain('Owner Quill');
    // The hidden profile can no longer be reported: it is not found.
    expect((await reporter.browser.post(`/api/creators/${handle}/report`, { reason: 'spam' })).status).toBe(
      404,
    );

    // A suspension ends every token issued up to the whole second it was made (token times are whole
    // seconds): a sign-in after the lift is in a later second, as it is for any person.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await resolve(String(report?.id), 'restore')).status).toBe(200);
    const back = new Browser();
    expect((await back.post('/api/auth/login', { email: owner.email, password: testPassword })).status).toBe(
      200,
    );
    expect((await back.get('/api/auth/user')).status).toBe(200);
    expect((await withKey()).status).toBe(200);
    expect(await preview()).toContain('by Owner Quill');
    expect((await reporter.browser.post(`/api/creators/${handle}/report`, { reason: 'spam' })).status).toBe(
      201,
    );

    const actions = (await auditLog.recent(100)).filter((e) => e.target === report?.id).map((e) => e.action);
    expect(actions).toEqual(['report.restore', 'report.suspend']);
  });
});

describe('reports and account deletion', () => {
  it("removes the deleted user's reports and closes the open reports about their content", async () => {
    const leaving = await signedInUser();
    const other = await signedInUser();
    const theirs = await sharedTrack(leaving.id);
    const someoneElses = await sharedTrack(other.id);
    expect((await other.browser.post(`/api/track/${theirs.id}/report`, { reason: 'spam' })).status).toBe(201);
    expect(
      (await leaving.browser.post(`/api/track/${someoneElses.id}/report`, { reason: 'spam' })).status,
    ).toBe(201);
    expect((await admin.call('DELETE', `/api/admin/regular-users/${leaving.id}`)).status).toBe(204);

    expect(await reportsOf(someoneElses.id)).toEqual([]);
    const about = await reportsOf(theirs.id);
    expect(about.map((r) => [r.reporterId, r.status])).toEqual([[other.id, 'closed']]);
  });
});

describe('who may act on reports', () => {
  it('refuses users and visitors on the admin calls, and admins on the report calls', async () => {
    const user = await signedInUser();
    for (const browser of [user.browser, new Browser()]) {
      expect((await browser.get('/api/admin/reports')).status).toBe(401);
      expect((await browser.post('/api/admin/reports/any', { action: 'hide' })).status).toBe(401);
    }
    const track = await sharedTrack(user.id);
    expect((await admin.post(`/api/track/${track.id}/report`, { reason: 'spam' })).status).toBe(401);
  });
});
