/**
 * Deleting one's own account (DELETE /api/user) through the real API, the
 * jobs function behind the local cloud's Lambda endpoint, and the emulators:
 * the password check and its limit, the subscription cancelled before the
 * answer, everything gone afterwards (and the address free again), and a
 * delete that stopped halfway finished by the job.
 */
import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ownershipMessages } from '@tunesmith/shared/ownership';
import { afterAll, describe, expect, it } from 'vitest';
import { cognitoIdentityProvider } from '../src/adapters/cognito/identity-provider';
import { dynamoApiKeyStore } from '../src/adapters/dynamo/api-key-store';
import { dynamoAuditLog } from '../src/adapters/dynamo/audit-log';
import { dynamoExportRepository } from '../src/adapters/dynamo/export-repository';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { dynamoLikesAndPlaysRemoval } from '../src/adapters/dynamo/like-store';
import { dynamoPlaylistStore } from '../src/adapters/dynamo/playlist-store';
import { dynamoWebhookDeliveries, dynamoWebhookEndpoints } from '../src/adapters/dynamo/webhook-store';
import { s3Of } from '../src/adapters/s3/client';
import { s3Sweeper } from '../src/adapters/s3/sweeper';
import { deleteEveryVersion, s3VersionSweeper } from '../src/adapters/s3/versions';
import { keys } from '../src/data/keys';
import {
  type AccountDeletionDeps,
  deleteAccount,
  requestAccountDeletion,
} from '../src/domain/accounts/account-deletion';
import { isClosed } from '../src/domain/accounts/user';
import { deleteUserWebhooks } from '../src/domain/developers/webhooks';
import type { BackgroundJob } from '../src/domain/jobs';
import type { Generation } from '../src/domain/tracks/track';
import { creatorRemoval } from '../src/lambdas/creator-removal';
import { inMemoryLimiter } from '../src/testing/in-memory-accounts';
import { fakePayments } from '../src/testing/in-memory-billing';
import {
  adminSignIn,
  adminTestPassword,
  createTestAdmin,
  removeTestAdmin,
  signedInUser,
  testPassword,
} from './support/accounts';
import { direct } from './support/direct';
import { Browser, mailsTo } from './support/http';
import { clientConfig, cloudEnv, localOnly, target } from './support/run';
import { storage } from './support/storage';
import { stripeClient, subscribeThroughCheckout } from './support/stripe';
import { poolIssuer } from './support/target';

const store = direct();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const exportRecords = dynamoExportRepository(store.documents, store.tableName);
const buckets = storage();
const cognito = new CognitoIdentityProviderClient(clientConfig('cognito'));
const userIdentity = cognitoIdentityProvider({
  client: cognito,
  userPoolId: cloudEnv.USER_POOL_ID ?? '',
  clientId: cloudEnv.USER_POOL_CLIENT_ID ?? '',
  issuer: poolIssuer(target, cloudEnv, cloudEnv.USER_POOL_ID ?? ''),
});

afterAll(() => {
  store.close();
  buckets.close();
  cognito.destroy();
});

const deleteMine = (browser: Browser, body: unknown) => browser.call('DELETE', '/api/user', body);
const list = <T>(body: unknown) => body as unknown as T[];

const item = async (key: { pk: string; sk: string }) =>
  (await store.documents.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true })))
    .Item;

/** Stores an object in the tracks bucket; returns its stored `s3://` URL. */
async function putTracksObject(key: string, body: Uint8Array): Promise<string> {
  await buckets.client.send(new PutObjectCommand({ Bucket: buckets.tracksBucket, Key: key, Body: body }));
  return `s3://${buckets.tracksBucket}/${key}`;
}

/** The confirmation mail to `email`, once it has arrived (the job sends it after the profile is gone). */
async function confirmationTo(email: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await mailsTo(email)).find((m) => m.subject.includes('account has been deleted'));
    if (mail) return mail;
    if (Date.now() > until) throw new Error(`No confirmation mail reached ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A finished track with all three files (WAV, Opus, peaks) where the workflow puts them. */
async function aTrack(userId: string, overrides: Partial<Generation> = {}): Promise<Generation> {
  // Dated ahead of now: tracks other tests make meanwhile never push it off the gallery's first page.
  const at = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
  const id = `del-${randomUUID()}`;
  const audioUrl = await buckets.putTrackAudio(userId, id);
  const put = (key: string) => putTracksObject(key, new Uint8Array([1, 2, 3]));
  const generation: Generation = {
    id,
    userId,
    type: 'text-to-music',
    title: `Leaving ${id.slice(-6)}`,
    tags: 'ambient, piano',
    lyrics: null,
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl,
    streamAudioUrl: await put(`tracks/${id}.opus`),
    peaksUrl: await put(`tracks/${id}.peaks.json`),
    seed: 1,
    falRequestId: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
  await generations.create(generation);
  return generation;
}

/** A signed-in user with a public gallery track, a private remix of an upload, a stray upload and an export. */
async function userWithData(signedIn?: Awaited<ReturnType<typeof signedInUser>>) {
  const user = signedIn ?? (await signedInUser());
  const publicTrack = await aTrack(user.id);
  const uploadKey = `uploads/${user.id}/${randomUUID()}.wav`;
  await buckets.putUpload(uploadKey);
  const remix = await aTrack(user.id, {
    type: 'audio-to-music',
    visibility: 'private',
    showInGallery: false,
    inputAudioUrl: `/objects/${uploadKey}`,
  });
  const strayKey = `incoming/${user.id}/${randomUUID()}.wav`;
  await buckets.putUpload(strayKey);
  // An export: its record (holding the user's export slot) and its zip.
  const exportId = `exp-${randomUUID()}`;
  const now = new Date().toISOString();
  const preparing = {
    id: exportId,
    userId: user.id,
    status: 'preparing' as const,
    createdAt: now,
    updatedAt: now,
  };
  expect(await exportRecords.begin({ ...preparing, tracksDone: 0, tracksTotal: 2, attempts: 1 }, now)).toBe(
    true,
  );
  const exportKey = `exports/${user.id}/${exportId}.zip`;
  await putTracksObject(exportKey, new Uint8Array([80, 75, 5, 6]));
  return { ...user, publicTrack, remix, uploadKey, strayKey, exportId, exportKey };
}

type UserWithData = Awaited<ReturnType<typeof userWithData>>;

/** Whatever the user had is there: the profile (open), the tracks and their files. */
async function expectAllThere(data: UserWithData) {
  const profile = await store.users.get(data.id);
  expect(profile && isClosed(profile)).toBe(false);
  for (const track of [data.publicTrack, data.remix]) {
    expect(await generations.get(track.id)).toBeDefined();
    for (const stored of [track.audioUrl, track.streamAudioUrl, track.peaksUrl]) {
      if (stored) expect(await buckets.storedExists(stored)).toBe(true);
    }
  }
  expect(await buckets.exists(buckets.uploadsBucket, data.uploadKey)).toBe(true);
  expect(await buckets.exists(buckets.tracksBucket, data.exportKey)).toBe(true);
  expect(await buckets.versions(buckets.tracksBucket, data.exportKey)).toHaveLength(1);
  expect(await exportRecords.get(data.exportId)).toBeDefined();
}

/** Waits for the job: the profile is the last thing it removes. */
async function profileGone(userId: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (await item(keys.user(userId))) {
    if (Date.now() > until) throw new Error(`The account ${userId} was not deleted in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Nothing of the user is left: table, buckets, identity; their public track is not found and not listed. */
async function expectNothingLeft(data: UserWithData) {
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
    for (const stored of [track.audioUrl, track.streamAudioUrl, track.peaksUrl]) {
      if (stored) expect(await buckets.storedExists(stored)).toBe(false);
      // No old version left to restore either (decision 034).
      if (stored) expect(await buckets.storedVersions(stored)).toEqual([]);
    }
  }
  expect(await buckets.exists(buckets.uploadsBucket, data.uploadKey)).toBe(false);
  expect(await buckets.exists(buckets.uploadsBucket, data.strayKey)).toBe(false);
  expect(await buckets.exists(buckets.tracksBucket, data.exportKey)).toBe(false);
  expect(await buckets.versions(buckets.tracksBucket, data.exportKey)).toEqual([]);
  expect(await exportRecords.get(data.exportId)).toBeUndefined();
  expect(await exportRecords.latest(data.id)).toBeUndefined();
  expect(await item(keys.exportSlot(data.id))).toBeUndefined();
  expect(await userIdentity.signIn(data.email, testPassword)).toEqual({
    ok: false,
    reason: 'invalid-credentials',
  });
  const visitor = new Browser();
  expect((await visitor.get(`/api/track/${data.publicTrack.id}`)).status).toBe(404);
  const gallery = await visitor.get('/api/public-tracks');
  expect(list<{ id: string }>(gallery.body).some((t) => t.id === data.publicTrack.id)).toBe(false);
}

describe('DELETE /api/user: refusals', () => {
  it('needs a signed-in user: visitors and admin sessions get 401', async () => {
    expect((await deleteMine(new Browser(), { currentPassword: testPassword })).status).toBe(401);
    const username = `ops-del-${Date.now().toString(36)}`;
    const password = adminTestPassword();
    const admin = await createTestAdmin(store, username, password);
    try {
      const browser = new Browser();
      expect((await adminSignIn(browser, username, password)).status).toBe(200);
      expect((await deleteMine(browser, { currentPassword: password })).status).toBe(401);
    } finally {
      await removeTestAdmin(store, admin);
    }
  });

  it('answers a missing or wrong password with 400 and deletes nothing', async () => {
    const data = await userWithData();

    const missing = await deleteMine(data.browser, {});
    const wrong = await deleteMine(data.browser, { currentPassword: 'not my password' });

    expect([missing.status, missing.body.message]).toEqual([400, 'Current password is required']);
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Current password is incorrect']);
    expect((await data.browser.get('/api/auth/user')).status).toBe(200);
    await expectAllThere(data);
  });

  it('limits guesses as the other password checks do: ten wrong, then even the right one gets 429', async () => {
    const data = await userWithData();
    for (let i = 0; i < 10; i++) {
      expect((await deleteMine(data.browser, { currentPassword: `guess ${i}` })).status).toBe(400);
    }

    const limited = await deleteMine(data.browser, { currentPassword: testPassword });

    expect([limited.status, limited.body.message]).toEqual([
      429,
      'Too many attempts. Please wait a few minutes and try again.',
    ]);
    // The same count as a password change: it is one limit on guessing this account's password.
    const change = await data.browser.put('/api/user/password', {
      currentPassword: testPassword,
      newPassword: 'another-pass-1',
      confirmPassword: 'another-pass-1',
    });
    expect(change.status).toBe(429);
    await expectAllThere(data);
  });
});

const embeddedStripe = localOnly('pays at the embedded Stripe');
const localJobs = localOnly("runs the job again through the local cloud's Lambda endpoint");

describe('DELETE /api/user: deleting the account', () => {
  embeddedStripe.it(
    'cancels the subscription before it answers 202, ends every session, then everything goes and the address is free again',
    async () => {
      const signedIn = await signedInUser();
      const paying = await subscribeThroughCheckout(signedIn.browser, 'basic', 'monthly');
      const subscriptionId = String(paying.stripeSubscriptionId);
      const data = await userWithData(signedIn);
      const copied = data.browser.clone();
      const gallery = await new Browser().get('/api/public-tracks');
      expect(list<{ id: string }>(gallery.body).some((t) => t.id === data.publicTrack.id)).toBe(true);

      const answer = await deleteMine(data.browser, { currentPassword: testPassword });

      expect([answer.status, answer.body.message]).toEqual([202, ownershipMessages.accountDeleting]);
      // The answer clears this browser's cookies, and was true when given: Stripe has ended the subscription.
      expect(answer.setCookies.some((c) => /max-age=0/i.test(c))).toBe(true);
      expect(data.browser.cookies.size).toBe(0);
      expect((await stripeClient().subscriptions.retrieve(subscriptionId)).status).toBe('canceled');
      // Any copy of the session is refused at once, and so is signing in again.
      expect((await copied.get('/api/auth/user')).status).toBe(401);
      expect((await copied.get('/api/my-generations')).status).toBe(401);

      await profileGone(data.id);

      await expectNothingLeft(data);
      const login = await new Browser().post('/api/auth/login', {
        email: data.email,
        password: testPassword,
      });
      expect(login.status).toBe(401);
      const confirmation = await confirmationTo(data.email);
      expect(confirmation.body.text).toContain('Your subscription was cancelled at once');
      const audit = await dynamoAuditLog(store.documents, store.tableName).recent(50);
      expect(
        audit.some((e) => e.target === data.id && e.actor === data.email && e.action === 'user.delete'),
      ).toBe(true);

      // The address can sign up again: a new account, with nothing of the old one.
      const again = await signedInUser(data.email);
      expect(again.id).not.toBe(data.id);
      expect((await again.browser.get('/api/my-generations')).body).toEqual([]);
    },
  );
});

/** The cascade's dependencies on the emulators, to stop a delete halfway by hand. */
function cascadeDeps(): AccountDeletionDeps {
  const { documents, tableName } = store;
  const s3 = s3Of(buckets.client);
  return {
    users: store.users,
    identity: userIdentity,
    // A user without a subscription: Stripe has nothing of theirs.
    payments: fakePayments(),
    unlinkCustomer: async () => {},
    generations,
    sharePages: buckets.sharePages(generations),
    uploads: {
      ...s3Sweeper(s3, buckets.uploadsBucket),
      delete: (key: string) => buckets.remove(buckets.uploadsBucket, key),
    },
    // The tracks bucket keeps versions on a stage: its objects go as the functions delete them, every version.
    trackAudio: {
      ...s3VersionSweeper(s3, buckets.tracksBucket),
      remove: (stored: string) =>
        deleteEveryVersion(s3, buckets.tracksBucket, stored.replace(`s3://${buckets.tracksBucket}/`, '')),
    },
    exports: {
      removeAll: async (userId) => {
        await s3VersionSweeper(s3, buckets.tracksBucket).deletePrefix(`exports/${userId}/`);
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
    webhooks: {
      removeAll: async (userId) => {
        await deleteUserWebhooks(
          {
            endpoints: dynamoWebhookEndpoints(documents, tableName),
            deliveries: dynamoWebhookDeliveries(documents, tableName),
          },
          userId,
        );
      },
    },
    audit: dynamoAuditLog(documents, tableName),
    clock: { now: () => new Date() },
    newId: randomUUID,
  };
}

describe('a delete that stopped halfway', () => {
  localJobs.it('is finished by the job running again, with the confirmation mail', async () => {
    const data = await userWithData();
    const copied = data.browser.clone();
    // The request as the API makes it, but the job it starts is held back.
    const held: BackgroundJob[] = [];
    const profile = await store.users.get(data.id);
    if (!profile) throw new Error('no profile');
    await requestAccountDeletion(
      {
        users: store.users,
        identity: userIdentity,
        limiter: inMemoryLimiter(),
        clock: { now: () => new Date(), sleep: async () => {} },
        payments: fakePayments(),
        jobs: { start: async (job) => void held.push(job) },
        log: { warn() {} },
      },
      profile,
      { currentPassword: testPassword },
      '127.0.0.9',
    );
    // The job's first run dies after the first track.
    let tracksDone = 0;
    await expect(
      deleteAccount(
        cascadeDeps(),
        data.id,
        { kind: 'self' },
        {
          afterTrack: async () => {
            tracksDone++;
            throw new Error('crash after the first track');
          },
        },
      ),
    ).rejects.toThrow('crash after the first track');
    expect(tracksDone).toBe(1);
    expect(await item(keys.user(data.id))).toBeDefined();
    expect((await generations.listByUser(data.id, { limit: 10 })).items).toHaveLength(1);
    // Half-deleted, the account takes no session and no sign-in.
    expect((await copied.get('/api/my-generations')).status).toBe(401);
    const login = await new Browser().post('/api/auth/login', { email: data.email, password: testPassword });
    expect([login.status, login.body.message]).toEqual([403, ownershipMessages.accountDeleting]);

    // Lambda runs the job again: the jobs function, through the local cloud's Lambda endpoint.
    const lambda = new LambdaClient({
      region: cloudEnv.AWS_REGION ?? 'us-east-1',
      endpoint: cloudEnv.LAMBDA_ENDPOINT,
      credentials: {
        accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID ?? 'local',
        secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY ?? 'local',
      },
    });
    try {
      const queued = await lambda.send(
        new InvokeCommand({
          FunctionName: cloudEnv.JOBS_FUNCTION_NAME,
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(held[0])),
        }),
      );
      expect(queued.StatusCode).toBe(202);
    } finally {
      lambda.destroy();
    }

    await profileGone(data.id);
    await expectNothingLeft(data);
    const confirmation = await confirmationTo(data.email);
    expect(confirmation.body.text).toContain('You had no running subscription');
  });
});
