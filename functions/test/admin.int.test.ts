import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { adminMessages } from '@tunesmith/shared/admin';
import { routes } from '@tunesmith/shared/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cognitoIdentityProvider } from '../src/adapters/cognito/identity-provider';
import { dynamoTrackDirectory, dynamoUserDirectory } from '../src/adapters/dynamo/admin-directory';
import { dynamoApiKeyStore } from '../src/adapters/dynamo/api-key-store';
import { dynamoAuditLog } from '../src/adapters/dynamo/audit-log';
import { dynamoBillingAccounts } from '../src/adapters/dynamo/billing-accounts';
import { dynamoSiteCounters } from '../src/adapters/dynamo/counters';
import { dynamoExportRepository } from '../src/adapters/dynamo/export-repository';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoLikesAndPlaysRemoval } from '../src/adapters/dynamo/like-store';
import { dynamoPlanRepository } from '../src/adapters/dynamo/plan-repository';
import { dynamoPlaylistStore } from '../src/adapters/dynamo/playlist-store';
import { dynamoSettingsRepository } from '../src/adapters/dynamo/settings-repository';
import { dynamoWebhookDeliveries, dynamoWebhookEndpoints } from '../src/adapters/dynamo/webhook-store';
import { s3Of } from '../src/adapters/s3/client';
import { s3Sweeper } from '../src/adapters/s3/sweeper';
import { deleteEveryVersion, s3VersionSweeper } from '../src/adapters/s3/versions';
import { keys } from '../src/data/keys';
import type { AdminUser } from '../src/domain/accounts/admin';
import type { AdminDeps } from '../src/domain/admin/ports';
import { deleteUser } from '../src/domain/admin/users';
import { deleteUserWebhooks } from '../src/domain/developers/webhooks';
import type { Generation } from '../src/domain/tracks/track';
import { creatorRemoval } from '../src/lambdas/creator-removal';
import { settingsFromEnv } from '../src/lambdas/settings-wiring';
import { fakePayments } from '../src/testing/in-memory-billing';
import { inMemoryPricingPage } from '../src/testing/in-memory-pricing-page';
import {
  adminSignIn,
  adminTestPassword,
  createTestAdmin,
  removeTestAdmin,
  signedInUser,
  testPassword,
} from './support/accounts';
import { direct } from './support/direct';
import { Browser, cloudEnv, uniqueEmail } from './support/http';
import { clientConfig, localOnly, onStage, skippedWhen, target } from './support/run';
import { storage } from './support/storage';
import { poolIssuer } from './support/target';

// The admin area's calls through the HTTP API against the emulators (or a
// stage): who may call them, what they answer, and what they leave in the
// table, the buckets and the user pool.

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const exportRecords = dynamoExportRepository(store.documents, store.tableName);
const buckets = storage();
const clock = { now: () => new Date() };
const username = `ops-${Date.now().toString(36)}`;
const password = adminTestPassword();
const cognito = new CognitoIdentityProviderClient(clientConfig('cognito'));
const userIdentity = cognitoIdentityProvider({
  client: cognito,
  userPoolId: cloudEnv.USER_POOL_ID ?? '',
  clientId: cloudEnv.USER_POOL_CLIENT_ID ?? '',
  issuer: poolIssuer(target, cloudEnv, cloudEnv.USER_POOL_ID ?? ''),
});
let admin: Browser;
let created: AdminUser | undefined;

beforeAll(async () => {
  created = await createTestAdmin(store, username, password);
  admin = new Browser();
  expect((await adminSignIn(admin, username, password)).status).toBe(200);
});
afterAll(async () => {
  await removeTestAdmin(store, created);
  store.close();
  buckets.close();
  cognito.destroy();
});

const patch = (browser: Browser, path: string, body: unknown) => browser.call('PATCH', path, body);
const del = (browser: Browser, path: string) => browser.call('DELETE', path);
const list = <T = Record<string, unknown>>(body: unknown) => body as unknown as T[];

async function aTrack(userId: string, overrides: Partial<Generation> = {}): Promise<Generation> {
  const now = new Date().toISOString();
  const id = `adm-${randomUUID()}`;
  const generation: Generation = {
    id,
    userId,
    type: 'text-to-music',
    title: 'Harbour Lights',
    tags: 'ambient, piano',
    lyrics: null,
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: await buckets.putTrackAudio(userId, id),
    seed: 1,
    falRequestId: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  await generations.create(generation);
  return generation;
}

const item = async (key: { pk: string; sk: string }) =>
  (await store.documents.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true })))
    .Item;

const stats = async () => (await admin.get('/api/admin/dashboard/stats')).body;

describe('who may call the admin area', () => {
  const dataRoutes = routes.filter((r) => r.group === 'admin');
  const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x');

  it('refuses visitors and signed-in users on every admin data call, and admins on user calls', async () => {
    const { browser: user } = await signedInUser();
    for (const route of dataRoutes) {
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const asVisitor = await new Browser().call(route.method, concrete(route.path), body);
      const asUser = await user.call(route.method, concrete(route.path), body);
      expect([route.id, asVisitor.status]).toEqual([route.id, 401]);
      expect([route.id, asUser.status]).toEqual([route.id, 401]);
    }
    expect((await admin.get('/api/my-generations')).status).toBe(401);
    expect((await admin.get('/api/auth/user')).body).not.toHaveProperty('id');
  });
});

describe('dashboard', () => {
  it('counts users and generations as they are made, "today" being the UTC day', async () => {
    const before = await stats();
    const { id } = await signedInUser();
    await aTrack(id);
    await aTrack(id, { visibility: 'private' });
    const after = await stats();

    expect(after.day).toBe(new Date().toISOString().slice(0, 10));
    expect(Number(after.totalUsers)).toBeGreaterThanOrEqual(Number(before.totalUsers) + 1);
    expect(Number(after.newUsersToday)).toBeGreaterThanOrEqual(Number(before.newUsersToday) + 1);
    expect(Number(after.totalGenerations)).toBeGreaterThanOrEqual(Number(before.totalGenerations) + 2);
    expect(Number(after.generationsToday)).toBeGreaterThanOrEqual(Number(before.generationsToday) + 2);
    expect(Number(after.publicTracks)).toBeGreaterThanOrEqual(Number(before.publicTracks) + 1);
    expect(Number(after.privateTracks)).toBeGreaterThanOrEqual(Number(before.privateTracks) + 1);
    expect(Array.isArray(after.recentActivity)).toBe(true);
  });
});

describe('usage analytics', () => {
  localOnly(
    'the local cloud runs the daily job when it starts; a stage runs it at 00:05 UTC, so one deployed today has no record yet',
  ).it('has the record of the day that ended, written by the daily job when the cloud started', async () => {
    const dayBefore = (ms: number) => new Date(ms - 86_400_000).toISOString().slice(0, 10);
    const now = Date.now();
    // The day that ended when the job last ran: at the cloud's start, then at 00:05 UTC. Before the
    // night's run (a cloud started before midnight), that is still the day before yesterday.
    const midnight = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate(),
    );
    const ended = now - midnight < 10 * 60_000 ? [dayBefore(now), dayBefore(midnight - 1)] : [dayBefore(now)];
    let record: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !record; i++) {
      for (const date of ended) record ??= await item(keys.usageAnalytics(date));
      if (!record) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(record).toMatchObject({
      date: expect.toSatisfy((date: string) => ended.includes(date)),
      totalUsers: expect.any(Number),
      newUsers: expect.any(Number),
      totalGenerations: expect.any(Number),
      textToMusicGenerations: expect.any(Number),
      audioToMusicGenerations: expect.any(Number),
      publicTracks: expect.any(Number),
      privateTracks: expect.any(Number),
    });
  });
});

describe('users', () => {
  it('lists users newest first in pages, and finds them by the start of a name or email', async () => {
    const marker = `zq${randomUUID().slice(0, 8)}`;
    const first = await signedInUser(uniqueEmail(`${marker}-a`));
    const second = await signedInUser(uniqueEmail(`${marker}-b`));
    await admin.put(`/api/admin/regular-users/${second.id}`, { lastName: `Marker${marker}` });

    const page1 = await admin.get('/api/admin/regular-users?limit=1');
    expect(page1.status).toBe(200);
    expect(list(page1.body.users)).toHaveLength(1);
    expect(typeof page1.body.nextCursor).toBe('string');
    expect(Number(page1.body.total)).toBeGreaterThanOrEqual(2);
    const page2 = await admin.get(`/api/admin/regular-users?limit=1&cursor=${page1.body.nextCursor}`);
    expect(list<{ id: string }>(page2.body.users)[0]?.id).not.toBe(
      list<{ id: string }>(page1.body.users)[0]?.id,
    );

    const byEmail = await admin.get(`/api/admin/regular-users?q=${marker.toUpperCase()}`);
    expect(
      list<{ id: string }>(byEmail.body.users)
        .map((u) => u.id)
        .sort(),
    ).toEqual([first.id, second.id].sort());
    const byName = await admin.get(`/api/admin/regular-users?q=${encodeURIComponent(`marker${marker}`)}`);
    expect(list<{ id: string }>(byName.body.users).map((u) => u.id)).toEqual([second.id]);
    const byFullName = await admin.get(
      `/api/admin/regular-users?q=${encodeURIComponent(`ada marker${marker}`)}`,
    );
    expect(list<{ id: string }>(byFullName.body.users).map((u) => u.id)).toEqual([second.id]);

    const view = list<Record<string, unknown>>(byName.body.users)[0];
    expect(view).toMatchObject({
      email: second.email,
      firstName: 'Ada',
      emailVerified: true,
      planStatus: 'free',
      subscriptionPlan: null,
      generationCount: 0,
      hasStripeSubscription: false,
    });
  });

  it('updates only what changed, moves the email claim and the sign-in, and answers the spec messages', async () => {
    const { id, email } = await signedInUser();
    const newEmail = uniqueEmail('moved');

    const updated = await admin.put(`/api/admin/regular-users/${id}`, {
      firstName: ' Grace ',
      email: newEmail,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, firstName: 'Grace', lastName: 'Lovelace', email: newEmail });
    expect(await item(keys.emailClaim(email))).toBeUndefined();
    expect((await item(keys.emailClaim(newEmail)))?.userId).toBe(id);
    const signIn = await new Browser().post('/api/auth/login', { email: newEmail, password: testPassword });
    expect(signIn.status).toBe(200);

    const refusals = [
      [{ firstName: '' }, 'First name is required'],
      [{ lastName: '  ' }, 'Last name is required'],
      [{ email: 'not-an-address' }, 'Invalid email address'],
      [{}, 'No changes made'],
    ] as const;
    for (const [body, message] of refusals) {
      const res = await admin.put(`/api/admin/regular-users/${id}`, body);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
    const other = await signedInUser();
    const taken = await admin.put(`/api/admin/regular-users/${id}`, { email: other.email });
    expect([taken.status, taken.body.message]).toEqual([409, 'An account with this email already exists.']);
    expect(
      (await admin.put(`/api/admin/regular-users/nobody-${randomUUID()}`, { firstName: 'X' })).status,
    ).toBe(404);
  });

  it('turns email verification off and on; an unverified user is signed out', async () => {
    const { id, browser } = await signedInUser();
    const off = await admin.put(`/api/admin/regular-users/${id}`, { emailVerified: false });
    expect(off.body.emailVerified).toBe(false);
    expect((await browser.get('/api/my-generations')).status).toBe(401);
    const on = await admin.put(`/api/admin/regular-users/${id}`, { emailVerified: true });
    expect(on.body.emailVerified).toBe(true);
  });

  it('assigns a plan whose entitlements hold at once, and puts a user back on Free', async () => {
    const { id, browser } = await signedInUser();
    const premium = await admin.put(`/api/admin/regular-users/${id}/plan`, {
      planId: 'premium',
      status: 'active',
    });
    expect(premium.status).toBe(200);
    expect(premium.body).toMatchObject({
      planStatus: 'active',
      subscriptionPlan: { name: 'Premium', maxGenerations: 100 },
    });
    const me = await browser.get('/api/auth/user');
    expect(me.body.entitlements).toMatchObject({ paid: true, weeklyLimit: 100, canDownload: true });

    const expired = await admin.put(`/api/admin/regular-users/${id}/plan`, {
      planId: 'premium',
      status: 'expired',
    });
    expect(expired.body.planStatus).toBe('expired');
    expect((await browser.get('/api/auth/user')).body.entitlements).toMatchObject({
      paid: false,
      weeklyLimit: 5,
    });

    const free = await admin.put(`/api/admin/regular-users/${id}/plan`, { planId: null, status: 'free' });
    expect(free.body).toMatchObject({ planStatus: 'free', subscriptionPlanId: null, subscriptionPlan: null });
  });

  it('refuses unknown and inactive plans, mismatched statuses, and users who pay through Stripe', async () => {
    const { id } = await signedInUser();
    const unknown = await admin.put(`/api/admin/regular-users/${id}/plan`, {
      planId: 'no-such-plan',
      status: 'active',
    });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Plan not found']);
    const created = await admin.post('/api/admin/plans', {
      name: `Dormant ${randomUUID().slice(0, 6)}`,
      isActive: false,
    });
    const inactive = await admin.put(`/api/admin/regular-users/${id}/plan`, {
      planId: created.body.id,
      status: 'active',
    });
    expect([inactive.status, inactive.body.message]).toEqual([400, 'Only active plans can be assigned.']);
    const mismatch = await admin.put(`/api/admin/regular-users/${id}/plan`, {
      planId: 'basic',
      status: 'free',
    });
    expect(mismatch.status).toBe(400);

    await dynamoBillingAccounts(store.documents, store.tableName).updateBilling(id, (current) => ({
      ...current,
      planStatus: 'active',
      subscriptionPlanId: 'basic',
      stripeSubscriptionId: 'sub_admin_test',
      billingObservedAt: new Date().toISOString(),
    }));
    const paying = await admin.put(`/api/admin/regular-users/${id}/plan`, {
      planId: 'premium',
      status: 'active',
    });
    expect(paying.status).toBe(409);
    expect(paying.body.message).toBe(
      'This user pays through Stripe. Their plan follows the subscription: change or cancel it in Stripe first.',
    );
    expect(await item(keys.user(id))).toMatchObject({ subscriptionPlanId: 'basic', planStatus: 'active' });
    await admin.call('DELETE', `/api/admin/plans/${created.body.id}`);
  });

  it('flags users who pay through Stripe in the list, so the plan dialog can say why it is closed', async () => {
    const { id, email } = await signedInUser();
    const listed = async () =>
      list<Record<string, unknown>>(
        (await admin.get(`/api/admin/regular-users?q=${encodeURIComponent(email)}`)).body.users,
      ).find((u) => u.id === id);
    expect(await listed()).toMatchObject({ hasStripeSubscription: false });

    await dynamoBillingAccounts(store.documents, store.tableName).updateBilling(id, (current) => ({
      ...current,
      planStatus: 'cancelled',
      subscriptionPlanId: 'premium',
      stripeSubscriptionId: 'sub_admin_flag',
      planEndDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      billingObservedAt: new Date().toISOString(),
    }));
    expect(await listed()).toMatchObject({
      hasStripeSubscription: true,
      planStatus: 'cancelled',
      entitlements: { paid: true, weeklyLimit: 100 },
    });
  });

  it("counts a past-due subscriber's quota as their profile does: the plan's name with the free limits", async () => {
    const { id, email, browser } = await signedInUser();
    await dynamoBillingAccounts(store.documents, store.tableName).updateBilling(id, (current) => ({
      ...current,
      planStatus: 'inactive',
      subscriptionPlanId: 'basic',
      stripeSubscriptionId: 'sub_admin_past_due',
      billingObservedAt: new Date().toISOString(),
    }));

    const view = list<Record<string, unknown>>(
      (await admin.get(`/api/admin/regular-users?q=${encodeURIComponent(email)}`)).body.users,
    ).find((u) => u.id === id);
    const own = (await browser.get('/api/auth/user')).body;

    expect(view).toMatchObject({
      planStatus: 'inactive',
      subscriptionPlan: { name: 'Basic', maxGenerations: 30 },
      entitlements: { paid: false, weeklyLimit: 5, canDownload: false },
    });
    expect(view?.entitlements).toEqual(own.entitlements);
  });
});

describe('deleting a user', () => {
  async function userWithData() {
    const signedIn = await signedInUser();
    const publicTrack = await aTrack(signedIn.id, { title: `Gone ${randomUUID().slice(0, 6)}` });
    const uploadKey = `uploads/${signedIn.id}/${randomUUID()}.wav`;
    await buckets.putUpload(uploadKey);
    const remix = await aTrack(signedIn.id, {
      type: 'audio-to-music',
      visibility: 'private',
      inputAudioUrl: `/objects/${uploadKey}`,
    });
    const strayKey = `incoming/${signedIn.id}/${randomUUID()}.wav`;
    await buckets.putUpload(strayKey);
    // An export: its record (holding the user's export slot) and its zip.
    const exportId = `exp-${randomUUID()}`;
    const now = new Date().toISOString();
    await exportRecords.begin(
      {
        id: exportId,
        userId: signedIn.id,
        status: 'preparing',
        createdAt: now,
        updatedAt: now,
        tracksDone: 0,
        tracksTotal: 2,
        attempts: 1,
      },
      now,
    );
    const exportKey = `exports/${signedIn.id}/${exportId}.zip`;
    await buckets.client.send(
      new PutObjectCommand({ Bucket: buckets.tracksBucket, Key: exportKey, Body: new Uint8Array([80, 75]) }),
    );
    return { ...signedIn, publicTrack, remix, uploadKey, strayKey, exportId, exportKey };
  }

  async function expectNothingLeft(data: Awaited<ReturnType<typeof userWithData>>) {
    expect(await item(keys.user(data.id))).toBeUndefined();
    expect(await item(keys.emailClaim(data.email))).toBeUndefined();
    const leftInPartition = await store.documents.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${data.id}` },
      }),
    );
    expect(leftInPartition.Items ?? []).toEqual([]);
    expect((await generations.listByUser(data.id, { limit: 10 })).items).toEqual([]);
    for (const track of [data.publicTrack, data.remix]) {
      expect(await generations.get(track.id)).toBeUndefined();
      if (track.audioUrl) expect(await buckets.storedExists(track.audioUrl)).toBe(false);
      if (track.audioUrl) expect(await buckets.storedVersions(track.audioUrl)).toEqual([]);
    }
    expect(await buckets.exists(buckets.uploadsBucket, data.uploadKey)).toBe(false);
    expect(await buckets.exists(buckets.uploadsBucket, data.strayKey)).toBe(false);
    expect(await buckets.exists(buckets.tracksBucket, data.exportKey)).toBe(false);
    expect(await buckets.versions(buckets.tracksBucket, data.exportKey)).toEqual([]);
    expect(await exportRecords.get(data.exportId)).toBeUndefined();
    expect(await userIdentity.signIn(data.email, testPassword)).toEqual({
      ok: false,
      reason: 'invalid-credentials',
    });
    const gallery = await new Browser().get('/api/public-tracks');
    expect(list<{ id: string }>(gallery.body).some((t) => t.id === data.publicTrack.id)).toBe(false);
  }

  it('removes the profile, identity, tracks, audio, uploads and sessions', async () => {
    const data = await userWithData();
    const before = await stats();

    const res = await del(admin, `/api/admin/regular-users/${data.id}`);

    expect(res.status).toBe(204);
    await expectNothingLeft(data);
    expect((await data.browser.get('/api/my-generations')).status).toBe(401);
    expect((await del(admin, `/api/admin/regular-users/${data.id}`)).status).toBe(404);
    const recent = list<{ action: string; target: string; actor: string }>((await stats()).recentActivity);
    expect(
      recent.some((e) => e.action === 'user.delete' && e.target === data.id && e.actor === username),
    ).toBe(true);
    expect(Number((await stats()).totalUsers)).toBeLessThanOrEqual(Number(before.totalUsers) + 5);
  });

  it('finishes a delete that stopped halfway when it runs again', async () => {
    const data = await userWithData();
    const deps = adminDepsForTest();
    let tracksDone = 0;
    await expect(
      deleteUser(deps, { username }, data.id, {
        afterTrack: async () => {
          tracksDone++;
          throw new Error('crash after the first track');
        },
      }),
    ).rejects.toThrow('crash after the first track');
    expect(tracksDone).toBe(1);
    expect(await item(keys.user(data.id))).toBeDefined();
    // The half-deleted user cannot use their session meanwhile.
    expect((await data.browser.get('/api/my-generations')).status).toBe(401);

    expect((await del(admin, `/api/admin/regular-users/${data.id}`)).status).toBe(204);
    await expectNothingLeft(data);
  });
});

describe('plans', () => {
  it('creates with the form defaults, shows active plans publicly at once, updates and deletes', async () => {
    const name = `Studio ${randomUUID().slice(0, 6)}`;
    const created = await admin.post('/api/admin/plans', {
      name,
      description: 'For bands',
      features: 'Stems\n\nPriority queue\n',
      weeklyPrice: '2.99',
      monthlyPrice: 9.99,
      yearlyPrice: '',
      maxGenerations: '',
      generationsNumber: '',
      sortOrder: '',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name,
      features: ['Stems', 'Priority queue'],
      weeklyPrice: 2.99,
      monthlyPrice: 9.99,
      yearlyPrice: 0,
      maxGenerations: 5,
      generationsNumber: 5,
      sortOrder: 0,
      isActive: true,
    });
    const id = String(created.body.id);
    const publicPlans = async () =>
      list<{ id: string; name: string }>((await new Browser().get('/api/plans')).body);
    expect((await publicPlans()).some((p) => p.id === id)).toBe(true);
    expect(list<{ id: string }>((await admin.get('/api/admin/plans')).body).some((p) => p.id === id)).toBe(
      true,
    );

    const updated = await admin.put(`/api/admin/plans/${id}`, {
      ...created.body,
      name: `${name} Pro`,
      isActive: false,
    });
    expect(updated.body).toMatchObject({ name: `${name} Pro`, isActive: false });
    expect((await publicPlans()).some((p) => p.id === id)).toBe(false);
    expect(list<{ id: string }>((await admin.get('/api/admin/plans')).body).some((p) => p.id === id)).toBe(
      true,
    );

    expect((await del(admin, `/api/admin/plans/${id}`)).status).toBe(204);
    expect(list<{ id: string }>((await admin.get('/api/admin/plans')).body).some((p) => p.id === id)).toBe(
      false,
    );
    expect((await del(admin, `/api/admin/plans/${id}`)).status).toBe(404);
  });

  it('checks the form rules with clear messages', async () => {
    const cases = [
      [{ name: '  ' }, 'Name is required'],
      [{ name: 'X', maxGenerations: 0 }, 'Max generations must be at least 1'],
      [{ name: 'X', generationsNumber: '0' }, 'Generations number must be at least 1'],
      [{ name: 'X', monthlyPrice: 1.234 }, 'Prices must be numbers of at most 10 digits with 2 decimals.'],
      [{ name: 'X', yearlyPrice: 123456789 }, 'Prices must be numbers of at most 10 digits with 2 decimals.'],
      [{ name: 'X', weeklyPrice: 'abc' }, 'Prices must be numbers of at most 10 digits with 2 decimals.'],
      [{ name: 'X', sortOrder: -1 }, 'Sort order must be a whole number from 0 to 999999.'],
    ] as const;
    for (const [body, message] of cases) {
      const res = await admin.post('/api/admin/plans', body);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
  });

  it('keeps the Free plan and plans that users are on', async () => {
    const free = await del(admin, '/api/admin/plans/free');
    expect([free.status, free.body.message]).toEqual([400, 'The Free plan cannot be deleted.']);
    const { id: userId } = await signedInUser();
    const created = await admin.post('/api/admin/plans', {
      name: `Busy ${randomUUID().slice(0, 6)}`,
      monthlyPrice: 5,
    });
    const planId = String(created.body.id);
    await admin.put(`/api/admin/regular-users/${userId}/plan`, { planId, status: 'active' });

    const refused = await del(admin, `/api/admin/plans/${planId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'A user is on this plan. Move them to another plan, or deactivate it instead.',
    );

    await admin.put(`/api/admin/regular-users/${userId}/plan`, { planId: null, status: 'free' });
    expect((await del(admin, `/api/admin/plans/${planId}`)).status).toBe(204);
  });
});

describe('tracks', () => {
  it('lists every track newest first, private ones too, filtered and searched on the server', async () => {
    const { id } = await signedInUser();
    const word = `kw${randomUUID().slice(0, 8)}`;
    const older = await aTrack(id, { title: `Old ${word}`, visibility: 'private' });
    const newer = await aTrack(id, {
      tags: `techno, ${word}`,
      status: 'failed',
      audioUrl: null,
      createdAt: new Date(Date.now() + 1000).toISOString(),
    });

    const found = await admin.get(`/api/admin/tracks?q=${word.toUpperCase()}`);
    expect(found.status).toBe(200);
    expect(list<{ id: string }>(found.body.tracks).map((t) => t.id)).toEqual([newer.id, older.id]);
    const first = list<Record<string, unknown>>(found.body.tracks)[1];
    expect(first).toMatchObject({ visibility: 'private', userId: id, title: `Old ${word}` });
    expect(String(first?.audioUrl)).toMatch(/^http/);
    expect(found.body.counts).toMatchObject({
      total: expect.any(Number),
      galleryVisible: expect.any(Number),
    });

    const failed = await admin.get(`/api/admin/tracks?q=${word}&status=failed`);
    expect(list<{ id: string }>(failed.body.tracks).map((t) => t.id)).toEqual([newer.id]);
    const privateOnes = await admin.get(`/api/admin/tracks?q=${word}&visibility=private`);
    expect(list<{ id: string }>(privateOnes.body.tracks).map((t) => t.id)).toEqual([older.id]);
    const paged = await admin.get(`/api/admin/tracks?q=${word}&limit=1`);
    expect(list(paged.body.tracks)).toHaveLength(1);
    const rest = await admin.get(`/api/admin/tracks?q=${word}&limit=1&cursor=${paged.body.nextCursor}`);
    expect(list<{ id: string }>(rest.body.tracks).map((t) => t.id)).toEqual([older.id]);
    expect((await admin.get('/api/admin/tracks?status=bogus')).status).toBe(400);
  });

  it('hides a public, completed track from the gallery and refuses others', async () => {
    const { id } = await signedInUser();
    const track = await aTrack(id);
    const inGallery = async () =>
      list<{ id: string }>((await new Browser().get('/api/public-tracks')).body).some(
        (t) => t.id === track.id,
      );
    expect(await inGallery()).toBe(true);

    const hidden = await patch(admin, `/api/admin/tracks/${track.id}/gallery-visibility`, {
      showInGallery: false,
    });
    expect([hidden.status, hidden.body.showInGallery]).toEqual([200, false]);
    expect(await inGallery()).toBe(false);
    await patch(admin, `/api/admin/tracks/${track.id}/gallery-visibility`, { showInGallery: true });
    expect(await inGallery()).toBe(true);

    const privateTrack = await aTrack(id, { visibility: 'private' });
    const refused = await patch(admin, `/api/admin/tracks/${privateTrack.id}/gallery-visibility`, {
      showInGallery: false,
    });
    expect([refused.status, refused.body.message]).toEqual([
      409,
      'Only public, completed tracks can be shown in or hidden from the gallery.',
    ]);
    expect(
      (await patch(admin, `/api/admin/tracks/${track.id}/gallery-visibility`, { showInGallery: 'no' }))
        .status,
    ).toBe(400);
    expect(
      (await patch(admin, '/api/admin/tracks/nope/gallery-visibility', { showInGallery: true })).status,
    ).toBe(404);
  });

  it('renames with the spec messages, downloads completed tracks and deletes with the audio', async () => {
    const { id } = await signedInUser();
    const track = await aTrack(id);
    const renamed = await patch(admin, `/api/admin/tracks/${track.id}/title`, { title: '  Night Drive  ' });
    expect([renamed.status, renamed.body.title]).toEqual([200, 'Night Drive']);
    const empty = await patch(admin, `/api/admin/tracks/${track.id}/title`, { title: '   ' });
    expect([empty.status, empty.body.message]).toEqual([400, 'Title cannot be empty.']);
    const long = await patch(admin, `/api/admin/tracks/${track.id}/title`, { title: 'x'.repeat(101) });
    expect([long.status, long.body.message]).toEqual([400, 'Title must be 100 characters or less.']);

    const download = await admin.get(`/api/admin/tracks/${track.id}/download`);
    expect([download.status, download.body.filename]).toEqual([200, 'Night Drive.wav']);
    expect((await fetch(String(download.body.url))).status).toBe(200);
    const pending = await aTrack(id, { status: 'generating', audioUrl: null });
    const notReady = await admin.get(`/api/admin/tracks/${pending.id}/download`);
    expect([notReady.status, notReady.body.message]).toEqual([409, 'Track is not ready for download.']);
    // Playing, but its WAV still being marked and signed: never the master.
    const preparing = await aTrack(id, { downloadPending: true });
    const later = await admin.get(`/api/admin/tracks/${preparing.id}/download`);
    expect([later.status, later.body.message]).toEqual([409, 'The download is being prepared']);

    expect((await del(admin, `/api/admin/tracks/${track.id}`)).status).toBe(204);
    expect(await generations.get(track.id)).toBeUndefined();
    expect(await buckets.storedExists(String(track.audioUrl))).toBe(false);
    expect(await buckets.storedVersions(String(track.audioUrl))).toEqual([]);
    expect((await del(admin, `/api/admin/tracks/${track.id}`)).status).toBe(404);
  });
});

/**
 * Runs `body` and then puts the settings `names` back as they were stored (sealed values as they are):
 * a stage's settings are its real ones.
 */
async function keepingSettings(names: string[], body: () => Promise<void>): Promise<void> {
  const saved = await Promise.all(names.map(async (name) => [name, await item(keys.setting(name))] as const));
  try {
    await body();
  } finally {
    for (const [name, stored] of saved) {
      if (stored) await store.documents.send(new PutCommand({ TableName: store.tableName, Item: stored }));
      else
        await store.documents.send(
          new DeleteCommand({ TableName: store.tableName, Key: keys.setting(name) }),
        );
    }
  }
}

describe('settings', () => {
  skippedWhen(
    onStage && target.allowsPaidGeneration,
    "sets the stage's fal key to a test value for a moment, which its functions cache for a minute, while this run generates with the real one",
  ).it('never returns a secret, seals it in the table, and the adapters read it opened', () =>
    keepingSettings(['fal_api_key'], async () => {
      const secret = `fal-${randomUUID()}`;
      const saved = await admin.put('/api/admin/settings', { key: 'fal_api_key', value: secret });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ key: 'fal_api_key', value: '', secret: true, isSet: true });

      const listed = list<{ key: string; value: string; isSet: boolean }>(
        (await admin.get('/api/admin/settings')).body,
      );
      expect(listed.find((s) => s.key === 'fal_api_key')).toMatchObject({ value: '', isSet: true });
      expect(JSON.stringify(listed)).not.toContain(secret);

      const raw = await item(keys.setting('fal_api_key'));
      expect(String(raw?.value)).toMatch(/^aes:/);
      expect(JSON.stringify(raw)).not.toContain(secret);
      const opened = await settingsFromEnv(store.documents, store.tableName, cloudEnv).get('fal_api_key');
      expect(opened?.value).toBe(secret);

      const activity = JSON.stringify((await stats()).recentActivity);
      expect(activity).toContain('Set fal_api_key');
      expect(activity).not.toContain(secret);

      const cleared = await admin.put('/api/admin/settings', { key: 'fal_api_key', value: '' });
      expect(cleared.body.isSet).toBe(false);
    }),
  );

  it('stores plain settings and checks keys and formats', () =>
    keepingSettings(['support_email', 'site_name', 'stripe_secret_key'], async () => {
      const saved = await admin.put('/api/admin/settings', {
        key: 'support_email',
        value: 'Help@Tunesmith.example',
      });
      expect(saved.body).toMatchObject({
        key: 'support_email',
        value: 'Help@Tunesmith.example',
        isSet: true,
      });
      const cases = [
        [{ key: 'support_email', value: 'nope' }, 'Invalid email address'],
        [{ key: 'site_name', value: '  ' }, 'This setting cannot be empty.'],
        [{ key: 'site_name', value: 'x'.repeat(61) }, adminMessages.siteNameFormat],
        [{ key: 'stripe_secret_key', value: 'pk_live_x' }, adminMessages.secretKeyFormat],
        [{ key: 'no_such_key', value: 'x' }, 'Unknown setting'],
      ] as const;
      for (const [body, message] of cases) {
        const res = await admin.put('/api/admin/settings', body);
        expect([res.status, res.body.message]).toEqual([400, message]);
      }
      await admin.put('/api/admin/settings', { key: 'support_email', value: 'support@tunesmith.example' });
    }));
});

describe('Stripe keys', () => {
  const stripeKeys = ['stripe_secret_key', 'stripe_publishable_key', 'stripe_webhook_secret'];

  it('refuses a secret key Stripe refuses, with the reason, and stores nothing', () =>
    keepingSettings(stripeKeys, async () => {
      const before = await item(keys.setting('stripe_secret_key'));
      const madeUp = `sk_test_${randomUUID().replace(/-/g, '')}`;

      const refused = await admin.put('/api/admin/settings', { key: 'stripe_secret_key', value: madeUp });

      expect([refused.status, refused.body.message]).toEqual([400, adminMessages.stripeKeyRefused]);
      expect(await item(keys.setting('stripe_secret_key'))).toEqual(before);
      const activity = JSON.stringify((await stats()).recentActivity);
      expect(activity).not.toContain(madeUp);
    }));

  skippedWhen(
    !cloudEnv.STRIPE_SECRET_KEY,
    "needs a secret key Stripe accepts: set STRIPE_SECRET_KEY to the stage's key",
  ).it('stores a secret key Stripe accepts, sealed', () =>
    keepingSettings(stripeKeys, async () => {
      const key = String(cloudEnv.STRIPE_SECRET_KEY);

      const saved = await admin.put('/api/admin/settings', { key: 'stripe_secret_key', value: key });

      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ key: 'stripe_secret_key', value: '', isSet: true });
      const raw = await item(keys.setting('stripe_secret_key'));
      expect(JSON.stringify(raw)).not.toContain(key);
      const opened = await settingsFromEnv(store.documents, store.tableName, cloudEnv).get(
        'stripe_secret_key',
      );
      expect(opened?.value).toBe(key);
    }),
  );

  it('checks the form of publishable keys and webhook secrets, and lets every key be cleared', () =>
    keepingSettings(stripeKeys, async () => {
      const refusals = [
        [{ key: 'stripe_publishable_key', value: 'sk_test_abc' }, adminMessages.publishableKeyFormat],
        [{ key: 'stripe_publishable_key', value: 'pk_abc' }, adminMessages.publishableKeyFormat],
        [{ key: 'stripe_webhook_secret', value: 'secret' }, adminMessages.webhookSecretFormat],
      ] as const;
      for (const [body, message] of refusals) {
        const res = await admin.put('/api/admin/settings', body);
        expect([body.value, res.status, res.body.message]).toEqual([body.value, 400, message]);
      }
      const publishable = await admin.put('/api/admin/settings', {
        key: 'stripe_publishable_key',
        value: 'pk_test_51Habc09XYZ',
      });
      expect(publishable.body).toMatchObject({ value: 'pk_test_51Habc09XYZ', isSet: true });
      const webhook = await admin.put('/api/admin/settings', {
        key: 'stripe_webhook_secret',
        value: `whsec_${randomUUID().replace(/-/g, '')}`,
      });
      expect(webhook.body).toMatchObject({ secret: true, isSet: true });

      for (const key of stripeKeys) {
        const cleared = await admin.put('/api/admin/settings', { key, value: '' });
        expect([key, cleared.status, cleared.body.isSet]).toEqual([key, 200, false]);
      }
    }));
});

describe('the site name', () => {
  it('is what every visitor is told once an administrator saves it', () =>
    keepingSettings(['site_name'], async () => {
      const name = `Harbour Radio ${randomUUID().slice(0, 6)}`;
      expect((await admin.put('/api/admin/settings', { key: 'site_name', value: ` ${name} ` })).status).toBe(
        200,
      );

      const site = await new Browser().get('/api/site');

      expect(site.status).toBe(200);
      expect(site.body).toMatchObject({ name, supportEmail: expect.any(String) });
      expect(Object.keys(site.body).sort()).toEqual(['contactEmail', 'description', 'name', 'supportEmail']);
    }));
});

/** The admin service's dependencies on the emulators, for driving a delete by hand. */
function adminDepsForTest(): AdminDeps {
  const { documents, tableName } = store;
  const s3 = buckets.client;
  return {
    counters: dynamoSiteCounters(documents, tableName),
    audit: dynamoAuditLog(documents, tableName),
    clock,
    newId: randomUUID,
    users: store.users,
    directory: dynamoUserDirectory(documents, tableName),
    identity: userIdentity,
    accounts: dynamoBillingAccounts(documents, tableName),
    payments: {
      ...fakePayments(),
      cancelNow: async () => Promise.reject(new Error('no subscription expected')),
    },
    unlinkCustomer: async () => {},
    exports: {
      removeAll: async (userId) => {
        await s3VersionSweeper(s3Of(s3), buckets.tracksBucket).deletePrefix(`exports/${userId}/`);
        await exportRecords.removeAll(userId);
      },
    },
    apiKeys: dynamoApiKeyStore(documents, tableName),
    community: {
      likesAndPlays: {
        removeUser: (userId) => dynamoLikesAndPlaysRemoval(documents, tableName).removeAll(userId),
      },
      playlists: { removeUser: (userId) => dynamoPlaylistStore(documents, tableName).removeAll(userId) },
      creators: {
        removeUser: (userId) => creatorRemoval({ client: documents, tableName }).removeAll(userId),
      },
    },
    webhooks: { removeAll: async (userId) => void (await webhookRemovalOn(documents, tableName)(userId)) },
    plans: dynamoPlanRepository(documents, tableName),
    generations,
    tracks: dynamoTrackDirectory(documents, tableName),
    uploads: {
      ...s3Sweeper(s3Of(s3), buckets.uploadsBucket),
      delete: (key: string) => buckets.remove(buckets.uploadsBucket, key),
    },
    // The tracks bucket keeps versions on a stage: its objects go as the functions delete them, every version.
    trackAudio: {
      ...s3VersionSweeper(s3Of(s3), buckets.tracksBucket),
      remove: (stored: string) =>
        deleteEveryVersion(
          s3Of(s3),
          buckets.tracksBucket,
          stored.replace(`s3://${buckets.tracksBucket}/`, ''),
        ),
      downloadLink: async (stored: string) => stored,
    },
    audioLinks: async (stored) => stored,
    settings: dynamoSettingsRepository(documents, tableName),
    storedSettings: dynamoSettingsRepository(documents, tableName),
    stripeKeyCheck: { checkSecretKey: async () => Promise.reject(new Error('no key check expected')) },
    sharePages: buckets.sharePages(generations),
    pricingPage: inMemoryPricingPage(),
  };
}

/** Removes a user's webhooks from the emulated table, as the cascade's wiring does. */
function webhookRemovalOn(documents: Parameters<typeof dynamoWebhookEndpoints>[0], tableName: string) {
  const deps = {
    endpoints: dynamoWebhookEndpoints(documents, tableName),
    deliveries: dynamoWebhookDeliveries(documents, tableName),
  };
  return (userId: string) => deleteUserWebhooks(deps, userId);
}
