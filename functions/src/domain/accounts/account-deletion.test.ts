import type { AuditEntry } from '@tunesmith/shared/admin';
import { authMessages } from '@tunesmith/shared/auth';
import { ownershipMessages } from '@tunesmith/shared/ownership';
import { describe, expect, it } from 'vitest';
import { aGeneration, aUser } from '../../testing/fixtures';
import {
  fakeClock,
  fakeIdentityProvider,
  fakeMailer,
  inMemoryLimiter,
  inMemoryRevokedSessions,
  inMemorySessionReads,
  inMemoryTokens,
  inMemoryUsers,
  testSecrets,
} from '../../testing/in-memory-accounts';
import { aSubscription, fakePayments } from '../../testing/in-memory-billing';
import { inMemoryCreators } from '../../testing/in-memory-creators';
import { inMemoryApiKeys } from '../../testing/in-memory-developers';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemoryCommunity } from '../../testing/in-memory-likes';
import { inMemoryPlaylists } from '../../testing/in-memory-playlists';
import { inMemorySharePages } from '../../testing/in-memory-share-pages';
import { memoryWebhookDeps } from '../../testing/in-memory-webhooks';
import { PaymentsError } from '../billing/ports';
import { follow, removeCreatorData, setPublicProfile } from '../community/creators';
import { createWebhookEndpoint, deleteUserWebhooks, raiseTrackEvent } from '../developers/webhooks';
import { DomainError } from '../errors';
import type { BackgroundJob } from '../jobs';
import {
  type AccountDeletionJobDeps,
  type AccountDeletionRequestDeps,
  deleteAccount,
  requestAccountDeletion,
  runAccountDeletion,
} from './account-deletion';
import {
  type AccountDeps,
  authenticate,
  login,
  requestPasswordReset,
  resetPassword,
} from './account-service';
import type { SessionReads } from './ports';
import { isClosed, type User } from './user';

const password = 'analytical-engine';
const address = '10.0.0.7';

/** Objects in a bucket, by key; `failOnce` makes the next removal of that key throw. */
function bucket(name: string, keys: string[] = []) {
  const objects = new Set(keys);
  const failing = new Set<string>();
  const keyOf = (stored: string) => stored.replace(`s3://${name}/`, '');
  const remove = async (key: string) => {
    if (failing.delete(key)) throw new Error(`storage unavailable for ${key}`);
    objects.delete(key);
  };
  return {
    objects,
    failOnce: (key: string) => void failing.add(key),
    delete: remove,
    remove: (stored: string) => remove(keyOf(stored)),
    async deletePrefix(prefix: string) {
      const gone = [...objects].filter((key) => key.startsWith(prefix));
      for (const key of gone) objects.delete(key);
      return gone.length;
    },
  };
}

/** A whole account in memory: profile, identity, Stripe, tracks with their files, uploads and exports. */
async function world() {
  const clock = fakeClock('2026-11-26T09:00:00.000Z');
  const identity = fakeIdentityProvider(clock);
  const users = inMemoryUsers();
  const payments = fakePayments();
  const generations = inMemoryGenerationStore();
  const tracks = bucket('tracks');
  const uploads = bucket('uploads');
  const exportsByUser = new Map<string, Set<string>>();
  const webhooks = memoryWebhookDeps();
  // Every track of the account has a share page, and so has someone else's.
  const sharePages = inMemorySharePages();
  const customerLinks = new Set<string>();
  const audit: AuditEntry[] = [];
  const jobs: BackgroundJob[] = [];
  const mailer = fakeMailer();
  const warnings: string[] = [];
  const log = { warn: (message: string) => void warnings.push(message) };
  let ids = 0;

  const { subject } = await identity.createUser({
    username: 'ada@example.com',
    email: 'ada@example.com',
    password,
  });
  await identity.confirmUser(subject, 'ada@example.com');
  const user = aUser({
    id: subject,
    email: 'ada@example.com',
    planStatus: 'active',
    subscriptionPlanId: 'basic',
    stripeSubscriptionId: 'sub_1',
    stripeCustomerId: 'cus_1',
  });
  await users.create(user);
  customerLinks.add('cus_1');
  payments.setSubscription(aSubscription({ id: 'sub_1', customerId: 'cus_1' }));
  for (const id of ['t1', 't2', 't3']) {
    await generations.create(
      aGeneration({
        id,
        userId: subject,
        createdAt: `2026-11-0${id.slice(1)}T00:00:00.000Z`,
        audioUrl: `s3://tracks/tracks/${id}.wav`,
        streamAudioUrl: `s3://tracks/tracks/${id}.opus`,
        peaksUrl: `s3://tracks/tracks/${id}.peaks.json`,
        // The first track was separated into stems (decision 044): their files go with it.
        ...(id === 't1'
          ? {
              stems: {
                '4': {
                  set: '4' as const,
                  status: 'ready' as const,
                  requestedAt: '2026-11-02T00:00:00.000Z',
                  attempt: 1,
                  requestId: 'req',
                  model: 'htdemucs',
                  files: [
                    {
                      name: 'vocals' as const,
                      wavUrl: `s3://tracks/tracks/${id}.stems4.vocals.wav`,
                      streamUrl: `s3://tracks/tracks/${id}.stems4.vocals.opus`,
                      peaksUrl: `s3://tracks/tracks/${id}.stems4.vocals.peaks.json`,
                      sha256: 'a'.repeat(64),
                      loudness: null,
                    },
                  ],
                  zipUrl: `s3://tracks/tracks/${id}.stems4.zip`,
                  updatedAt: '2026-11-02T00:00:00.000Z',
                },
              },
            }
          : {}),
      }),
    );
    for (const ext of ['wav', 'opus', 'peaks.json']) tracks.objects.add(`tracks/${id}.${ext}`);
    if (id === 't1')
      for (const ext of ['vocals.wav', 'vocals.opus', 'vocals.peaks.json', 'zip'])
        tracks.objects.add(`tracks/${id}.stems4.${ext}`);
    sharePages.documents.set(id, `<title>${id}</title>`);
  }
  await generations.create(
    aGeneration({
      id: 'remix',
      userId: subject,
      type: 'audio-to-music',
      audioUrl: null,
      inputAudioUrl: `/objects/uploads/${subject}/song.mp3`,
    }),
  );
  uploads.objects.add(`uploads/${subject}/song.mp3`);
  uploads.objects.add(`uploads/${subject}/kept.wav`);
  uploads.objects.add(`incoming/${subject}/half.wav`);
  exportsByUser.set(subject, new Set([`exports/${subject}/e1.zip`]));
  const apiKeys = inMemoryApiKeys();
  for (const [id, userId] of [
    ['k1', subject],
    ['k2', 'someone-else'],
  ]) {
    await apiKeys.create(
      {
        id: id as string,
        userId: userId as string,
        name: id as string,
        prefix: 'ts_test_abcd',
        scopes: ['read'],
        hash: `hash-${id}`,
        createdAt: '2026-11-01T00:00:00.000Z',
        lastUsedAt: null,
        revokedAt: null,
      },
      10,
    );
  }
  for (const userId of [subject, 'someone-else']) {
    await createWebhookEndpoint(webhooks.deps, userId, {
      url: 'https://hooks.example.com/',
      events: ['track.failed'],
    });
    await raiseTrackEvent(webhooks.deps, 'track.failed', aGeneration({ userId, status: 'failed' }));
  }
  const playlists = inMemoryPlaylists();
  for (const [id, userId] of [
    ['p1', subject],
    ['p2', 'someone-else'],
  ] as const) {
    const at = '2026-11-01T00:00:00.000Z';
    await playlists.create(
      {
        id,
        userId,
        title: id,
        description: null,
        visibility: 'public',
        trackIds: [],
        createdAt: at,
        updatedAt: at,
      },
      200,
    );
  }
  // A public profile that someone else follows, and that follows someone else.
  const creators = inMemoryCreators();
  const creatorDeps = { creators: creators.store, clock };
  for (const [userId, handle] of [
    [subject, 'ada'],
    ['someone-else', 'grace'],
  ] as const)
    await setPublicProfile(creatorDeps, userId, { handle, displayName: handle });
  await follow(creatorDeps, 'someone-else', 'ada');
  await follow(creatorDeps, subject, 'grace');
  // Someone else's things stay.
  await generations.create(aGeneration({ id: 'other', userId: 'someone-else' }));
  // Likes and plays of someone else's track, the subject's and another listener's.
  const likesWorld = inMemoryCommunity([aGeneration({ id: 'other', userId: 'someone-else' })]);
  for (const listener of [subject, 'listener']) {
    await likesWorld.likes.like(listener, 'other', '2026-11-01T00:00:00.000Z');
    await likesWorld.plays.record(
      'other',
      { kind: 'user', userId: listener },
      '2026-11-01',
      '2026-11-01T00:00:00.000Z',
    );
  }
  sharePages.documents.set('other', '<title>other</title>');
  uploads.objects.add('uploads/someone-else/theirs.wav');

  const deps: AccountDeletionJobDeps = {
    users,
    identity,
    payments,
    unlinkCustomer: async (customerId) => void customerLinks.delete(customerId),
    generations,
    uploads,
    trackAudio: tracks,
    exports: { removeAll: async (userId) => void exportsByUser.delete(userId) },
    apiKeys,
    webhooks: { removeAll: async (userId) => void (await deleteUserWebhooks(webhooks.deps, userId)) },
    community: {
      likesAndPlays: {
        removeUser: async (userId) => {
          await likesWorld.likes.removeAllOf(userId);
          await likesWorld.plays.removeAllOf(userId);
        },
      },
      playlists: { removeUser: (userId) => playlists.removeAll(userId) },
      creators: { removeUser: (userId) => removeCreatorData(creatorDeps, userId) },
    },
    sharePages: { pages: sharePages },
    audit: { record: async (entry) => void audit.push(entry) },
    clock,
    newId: () => `audit-${++ids}`,
    mailer,
    siteOrigin: 'https://tunesmith.test',
    siteName: async () => 'Tunesmith',
    log,
  };
  const request: AccountDeletionRequestDeps = {
    users,
    identity,
    limiter: inMemoryLimiter(),
    clock,
    payments,
    jobs: { start: async (job) => void jobs.push(job) },
    log,
  };
  const revoked = inMemoryRevokedSessions(clock);
  const accounts: AccountDeps & { sessionReads: SessionReads<User> } = {
    users,
    identity,
    revoked,
    sessionReads: inMemorySessionReads(revoked, (claims) => users.get(claims.subject)),
    tokens: inMemoryTokens(),
    mailer,
    limiter: inMemoryLimiter(),
    secrets: testSecrets,
    clock,
    siteOrigin: 'https://tunesmith.test',
    siteName: async () => 'Tunesmith',
    log,
  };
  const profile = () => users.all.get(subject) as User;

  /** Nothing of the account is left anywhere; other users' things are untouched. */
  const expectNothingLeft = async () => {
    expect(users.all.has(subject)).toBe(false);
    expect(await users.findByEmail('ada@example.com')).toBeUndefined();
    expect(identity.identities.has(subject)).toBe(false);
    expect([...generations.all.keys()]).toEqual(['other']);
    expect([...sharePages.documents.keys()]).toEqual(['other']);
    expect([...tracks.objects]).toEqual([]);
    expect([...uploads.objects]).toEqual(['uploads/someone-else/theirs.wav']);
    expect(exportsByUser.has(subject)).toBe(false);
    expect([...apiKeys.all.keys()]).toEqual(['k2']);
    expect(await apiKeys.findByHash('hash-k1')).toBeUndefined();
    expect([...webhooks.endpoints.all.values()].map((e) => e.userId)).toEqual(['someone-else']);
    expect([...webhooks.deliveries.all.values()].map((d) => d.userId)).toEqual(['someone-else']);
    expect([...playlists.all.keys()]).toEqual(['p2']);
    expect(customerLinks.has('cus_1')).toBe(false);
    // The profile, its handle and follows both ways are gone; the other side's counts moved with them.
    expect([...creators.profiles.keys()]).toEqual(['someone-else']);
    expect([...creators.handles.keys()]).toEqual(['grace']);
    expect([...creators.follows.keys()]).toEqual([]);
    expect(await creators.store.counts('someone-else')).toEqual({ followers: 0, following: 0 });
    expect(likesWorld.generations.get('other')).toMatchObject({ likes: 1, plays: 1 });
    expect([...likesWorld.rawLikes.values()].map((l) => l.userId)).toEqual(['listener']);
    expect([...likesWorld.rawPlays.values()].map((p) => p.userId)).toEqual(['listener']);
    expect((await payments.listSubscriptions('cus_1')).every((s) => s.status === 'canceled')).toBe(true);
  };

  return {
    clock,
    identity,
    users,
    payments,
    generations,
    tracks,
    uploads,
    exportsByUser,
    sharePages,
    audit,
    jobs,
    mailer,
    warnings,
    deps,
    request,
    accounts,
    user,
    subject,
    profile,
    expectNothingLeft,
  };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('deleteAccount (the cascade)', () => {
  it('closes sessions first, cancels Stripe, removes every track and file, uploads and exports, then the identity and last the profile', async () => {
    const w = await world();
    const signedIn = await w.identity.signIn('ada@example.com', password);
    if (!signedIn.ok) throw new Error('sign-in failed');
    const order: string[] = [];
    const trace = <T extends object>(name: string, target: T, method: keyof T) => {
      const original = target[method] as unknown as (...args: unknown[]) => Promise<unknown>;
      (target as Record<keyof T, unknown>)[method] = async (...args: unknown[]) => {
        order.push(name);
        return original(...args);
      };
    };
    trace('tracks', w.deps.generations, 'delete');
    trace('exports', w.deps.exports, 'removeAll');
    trace('identity', w.deps.identity, 'deleteUser');
    trace('profile', w.deps.users, 'delete');
    let closedBeforeData = false;
    let cancelledBeforeData = false;

    const result = await deleteAccount(
      w.deps,
      w.subject,
      { kind: 'self' },
      {
        afterTrack: async () => {
          closedBeforeData ||= isClosed(w.profile());
          cancelledBeforeData ||= (await w.payments.listSubscriptions('cus_1'))[0]?.status === 'canceled';
        },
      },
    );

    expect(result?.cancelled).toEqual(['sub_1']);
    expect(closedBeforeData).toBe(true);
    expect(cancelledBeforeData).toBe(true);
    expect(order.slice(-3)).toEqual(['exports', 'identity', 'profile']);
    expect(order.filter((step) => step === 'tracks')).toHaveLength(4);
    await w.expectNothingLeft();
    expect(w.audit).toMatchObject([
      {
        actor: 'ada@example.com',
        action: 'user.delete',
        target: w.subject,
        summary: 'ada@example.com deleted their own account and data',
      },
    ]);
  });

  it('refuses every session from its first step, a refreshed one too, until the profile is gone', async () => {
    const w = await world();
    const signedIn = await w.identity.signIn('ada@example.com', password);
    if (!signedIn.ok || !('tokens' in signedIn)) throw new Error('sign-in failed');
    const session = { accessToken: signedIn.tokens.accessToken, refreshToken: signedIn.tokens.refreshToken };
    expect(await authenticate(w.accounts, session)).toBeDefined();
    const seen: unknown[] = [];

    await deleteAccount(
      w.deps,
      w.subject,
      { kind: 'self' },
      {
        afterTrack: async () => {
          w.clock.advance(60 * 60 * 1000); // the access token expires: only the refresh token is left
          seen.push(await authenticate(w.accounts, session));
        },
      },
    );

    expect(seen).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('finishes a delete that stopped halfway when it runs again', async () => {
    const w = await world();
    // Storage fails on the second track's stream: the first run stops there.
    w.tracks.failOnce('tracks/t2.opus');

    await expect(deleteAccount(w.deps, w.subject, { kind: 'self' })).rejects.toThrow('storage unavailable');

    expect(w.users.all.has(w.subject)).toBe(true);
    expect(isClosed(w.profile())).toBe(true);
    expect(w.generations.all.has('t3')).toBe(false);
    expect(w.generations.all.has('t2')).toBe(true);
    expect(w.identity.identities.has(w.subject)).toBe(true);
    expect(w.audit).toEqual([]);

    const second = await deleteAccount(w.deps, w.subject, { kind: 'self' });

    expect(second?.cancelled).toEqual([]);
    await w.expectNothingLeft();
    expect(w.audit).toHaveLength(1);
    expect(await deleteAccount(w.deps, w.subject, { kind: 'self' })).toBeUndefined();
  });

  it('never deletes a track whose share page could not be removed: the cascade stops and runs again later', async () => {
    const w = await world();
    const remove = w.sharePages.remove;
    let failing = true;
    w.deps.sharePages = {
      pages: {
        ...w.sharePages,
        remove: async (id) => {
          if (failing && id === 't2') throw new Error('site bucket unavailable');
          await remove(id);
        },
      },
    };

    await expect(deleteAccount(w.deps, w.subject, { kind: 'self' })).rejects.toThrow(
      'site bucket unavailable',
    );
    // t3 (newest first) went with its page; t2 keeps both its page and itself, audio included.
    expect(w.sharePages.documents.has('t3')).toBe(false);
    expect(w.generations.all.has('t2')).toBe(true);
    expect(w.sharePages.documents.has('t2')).toBe(true);
    expect(w.tracks.objects.has('tracks/t2.wav')).toBe(true);

    failing = false;
    await deleteAccount(w.deps, w.subject, { kind: 'self' });
    await w.expectNothingLeft();
  });

  it('finishes when it stopped after the identity went but before the profile', async () => {
    const w = await world();
    const remove = w.users.delete;
    let fail = true;
    w.deps.users = {
      ...w.users,
      delete: async (user) => {
        if (fail) {
          fail = false;
          throw new Error('table unavailable');
        }
        await remove(user);
      },
    };

    await expect(deleteAccount(w.deps, w.subject, { kind: 'self' })).rejects.toThrow('table unavailable');
    expect(w.identity.identities.has(w.subject)).toBe(false);
    expect(w.users.all.has(w.subject)).toBe(true);

    await deleteAccount(w.deps, w.subject, { kind: 'self' });

    await w.expectNothingLeft();
  });
});

describe('requestAccountDeletion (DELETE /api/user)', () => {
  it('with the right password: closes the account, cancels the subscription at once and starts the job', async () => {
    const w = await world();

    const out = await requestAccountDeletion(w.request, w.user, { currentPassword: password }, address);

    expect(out).toEqual({ subscriptionCancelled: true });
    expect(isClosed(w.profile())).toBe(true);
    expect((await w.payments.listSubscriptions('cus_1'))[0]).toMatchObject({
      id: 'sub_1',
      status: 'canceled',
    });
    expect(w.jobs).toEqual([{ kind: 'delete-account', userId: w.subject, subscriptionCancelled: true }]);
    // The data waits for the job.
    expect(w.generations.all.has('t1')).toBe(true);
  });

  it('says no subscription was cancelled when none was running', async () => {
    const w = await world();
    await w.payments.cancelNow('sub_1');
    const free = { ...w.user, planStatus: 'expired' as const, stripeSubscriptionId: null };

    expect(await requestAccountDeletion(w.request, free, { currentPassword: password }, address)).toEqual({
      subscriptionCancelled: false,
    });
    expect(w.jobs).toEqual([{ kind: 'delete-account', userId: w.subject, subscriptionCancelled: false }]);
  });

  it('refuses a wrong password with the spec message and changes nothing', async () => {
    const w = await world();

    const error = await failure(
      requestAccountDeletion(w.request, w.user, { currentPassword: 'guess' }, address),
    );

    expect([error.kind, error.message]).toEqual(['validation', 'Current password is incorrect']);
    expect(isClosed(w.profile())).toBe(false);
    expect((await w.payments.listSubscriptions('cus_1'))[0]?.status).toBe('active');
    expect(w.jobs).toEqual([]);
  });

  it('limits guesses as every password check does: ten wrong ones, then even the right one waits', async () => {
    const w = await world();
    for (let i = 0; i < 10; i++) {
      const error = await failure(
        requestAccountDeletion(w.request, w.user, { currentPassword: `guess ${i}` }, address),
      );
      expect(error.kind).toBe('validation');
    }

    const limited = await failure(
      requestAccountDeletion(w.request, w.user, { currentPassword: password }, address),
    );

    expect([limited.kind, limited.message]).toEqual([
      'rate-limited',
      'Too many attempts. Please wait a few minutes and try again.',
    ]);
    expect(w.jobs).toEqual([]);
  });

  it('opens the account again when Stripe cannot be reached, so the user can sign in and ask again', async () => {
    const w = await world();
    w.payments.failNext(new PaymentsError('unavailable', 'stripe down'));

    const error = await failure(
      requestAccountDeletion(w.request, w.user, { currentPassword: password }, address),
    );

    expect([error.kind, error.message]).toEqual([
      'unavailable',
      'Payments are not available right now. Please try again in a few minutes.',
    ]);
    expect(isClosed(w.profile())).toBe(false);
    expect(w.jobs).toEqual([]);
    const again = await login(w.accounts, { email: 'ada@example.com', password }, address);
    expect(again.user.id).toBe(w.subject);
  });

  it('opens the account again when the job cannot be started', async () => {
    const w = await world();
    w.request.jobs = { start: async () => Promise.reject(new Error('lambda unavailable')) };

    await expect(
      requestAccountDeletion(w.request, w.user, { currentPassword: password }, address),
    ).rejects.toThrow('lambda unavailable');

    expect(isClosed(w.profile())).toBe(false);
    expect(w.profile().sessionsValidAfter).toBeGreaterThan(w.clock.now().getTime() / 1000);
  });
});

describe('while an account is being deleted', () => {
  it('its right password signs nobody in, and a reset neither mails a link nor opens it again', async () => {
    const w = await world();
    await requestAccountDeletion(w.request, w.user, { currentPassword: password }, address);

    const refused = await failure(login(w.accounts, { email: 'ada@example.com', password }, address));
    expect([refused.kind, refused.message]).toEqual(['forbidden', ownershipMessages.accountDeleting]);
    expect(w.identity.liveRefreshTokens()).toBe(0);

    await requestPasswordReset(w.accounts, 'ada@example.com', address);
    expect(w.mailer.sent.filter((m) => m.text.includes('/reset-password/'))).toEqual([]);

    // A reset link mailed before the request does not open it either.
    await w.accounts.tokens.save('reset-password', testSecrets.hash('old-link'), w.subject, 2_000_000_000);
    await expect(resetPassword(w.accounts, 'old-link', 'new password 1')).rejects.toThrow(
      authMessages.resetInvalid,
    );
    expect(isClosed(w.profile())).toBe(true);
  });
});

describe('runAccountDeletion (the job)', () => {
  it('deletes everything and mails the confirmation, saying the subscription was cancelled', async () => {
    const w = await world();
    await requestAccountDeletion(w.request, w.user, { currentPassword: password }, address);

    expect(await runAccountDeletion(w.deps, w.jobs[0] as { userId: string })).toBe('deleted');

    await w.expectNothingLeft();
    expect(w.mailer.sent).toHaveLength(1);
    expect(w.mailer.sent[0]).toMatchObject({
      to: 'ada@example.com',
      subject: 'Your Tunesmith account has been deleted',
    });
    expect(w.mailer.sent[0]?.text).toContain('Your subscription was cancelled at once');
    expect(w.mailer.sent[0]?.text).toContain('You can sign up again with this address');
  });

  it('runs again as a no-op once done: no second mail', async () => {
    const w = await world();
    await requestAccountDeletion(w.request, w.user, { currentPassword: password }, address);
    await runAccountDeletion(w.deps, { userId: w.subject });

    expect(await runAccountDeletion(w.deps, { userId: w.subject })).toBe('gone');
    expect(w.mailer.sent).toHaveLength(1);
  });

  it('mails that nothing was cancelled to a user without a running subscription', async () => {
    const w = await world();
    await w.users.update(w.subject, { sessionsValidAfter: Number.MAX_SAFE_INTEGER });
    await w.payments.cancelNow('sub_1');
    w.users.all.set(w.subject, { ...w.profile(), planStatus: 'expired', stripeSubscriptionId: null });

    await runAccountDeletion(w.deps, { userId: w.subject, subscriptionCancelled: false });

    expect(w.mailer.sent[0]?.text).toContain('You had no running subscription');
  });

  it('leaves an account alone that did not ask (its request failed and opened it again)', async () => {
    const w = await world();

    expect(await runAccountDeletion(w.deps, { userId: w.subject })).toBe('not-requested');

    expect(w.users.all.has(w.subject)).toBe(true);
    expect(w.generations.all.has('t1')).toBe(true);
    expect(w.warnings).toHaveLength(1);
  });

  it('keeps the deletion when the mail fails', async () => {
    const w = await world();
    await requestAccountDeletion(w.request, w.user, { currentPassword: password }, address);
    w.mailer.failNext();

    expect(await runAccountDeletion(w.deps, { userId: w.subject })).toBe('deleted');

    await w.expectNothingLeft();
    expect(w.warnings).toEqual(['account deletion mail failed']);
  });
});
