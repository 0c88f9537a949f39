import { billingMessages } from '@tunesmith/shared/billing';
import type { DeleteAccountInput } from '@tunesmith/shared/ownership';
import type { AuditLog, ObjectSweeper } from '../admin/ports';
import { type Payments, PaymentsError } from '../billing/ports';
import { hasRunningSubscription, isLive } from '../billing/subscription';
import type { RemixIndex } from '../community/remixes';
import type { ApiKeyStore } from '../developers/ports';
import { DomainError } from '../errors';
import type { GenerationStore } from '../generations/ports';
import type { BackgroundJobs } from '../jobs';
import { type SharePageDeps, withdrawSharePage } from '../tracks/share-page';
import { type Generation, legacyTrackAudioPrefix, storedTrackAudio } from '../tracks/track';
import { INCOMING_AREA, ownUploadKey, uploadPrefix } from '../uploads/uploads';
import { type AccountDeps, confirmCurrentPassword } from './account-service';
import { accountDeletedMail } from './mail';
import type { Clock, IdentityProvider, Mailer } from './ports';
import { ACCOUNT_CLOSED, isClosed, type User, type UserRepository } from './user';

/**
 * Deleting an account, one cascade for its two callers: an administrator
 * (the admin area's delete, in the request) and the user themselves (the
 * profile's "Delete account", in a background job). DESIGN.md, Studio and
 * ownership; decision 022.
 */

/** Who deleted the account: the audit record names them. */
export type DeletedBy = { kind: 'admin'; username: string } | { kind: 'self' };

/** What the cascade needs: everything that holds something of a user. */
export interface AccountDeletionDeps {
  users: Pick<UserRepository, 'get' | 'update' | 'delete'>;
  identity: Pick<IdentityProvider, 'deleteUser'>;
  /** Stripe: every subscription that could still charge ends at once. */
  payments: Pick<Payments, 'cancelNow' | 'listSubscriptions'>;
  /** Removes the customer → user link of a deleted user. */
  unlinkCustomer(customerId: string): Promise<void>;
  generations: Pick<GenerationStore, 'listByUser' | 'delete'>;
  /** Where uploads and track audio are kept. */
  uploads: ObjectSweeper & { delete(key: string): Promise<void> };
  trackAudio: ObjectSweeper & { remove(stored: string): Promise<void> };
  /** The user's exports: their records and the zips under `exports/{userId}/`; what is gone already is fine. */
  exports: { removeAll(userId: string): Promise<void> };
  /** The user's API keys (decision 052): a deleted user's keys are gone, not only refused. */
  apiKeys: Pick<ApiKeyStore, 'removeAll'>;
  /** The user's webhook endpoints and their deliveries (decision 053). */
  webhooks: { removeAll(userId: string): Promise<void> };
  /** Share documents: each track's goes before the track (decision 024). */
  sharePages: Pick<SharePageDeps, 'pages'>;
  /** Remixes (decision 060): a deleted remix leaves its source's list, and a deleted source's list goes. */
  remixes?: Pick<RemixIndex, 'forget'>;
  audit: Pick<AuditLog, 'record'>;
  clock: Clock;
  newId: () => string;
  /** The community's records of the user (decision 056), one step per part. */
  community?: CommunityDeletionSteps;
}

/**
 * The community's parts, in the order the cascade runs their steps: each removes what its part holds
 * of the user and keeps everyone else's counters exact, and is safe to run again (the job may).
 */
export const COMMUNITY_DELETION_ORDER = [
  // The user's likes and counted plays, out of the tracks' counts (decision 057).
  'likesAndPlays',
  'playlists',
  // The public profile, its handle and follows both ways, each moving the other side's count (decision 059).
  'creators',
  'reports',
] as const;
export type CommunityPart = (typeof COMMUNITY_DELETION_ORDER)[number];
export interface CommunityDeletionStep {
  removeUser(userId: string): Promise<void>;
}
export type CommunityDeletionSteps = Partial<Record<CommunityPart, CommunityDeletionStep>>;

/** Runs each community part's step (those wired) in {@link COMMUNITY_DELETION_ORDER}. */
export async function removeCommunityRecords(
  steps: CommunityDeletionSteps | undefined,
  userId: string,
): Promise<void> {
  for (const part of COMMUNITY_DELETION_ORDER) await steps?.[part]?.removeUser(userId);
}

/** How many tracks one page of the cascade reads. */
const TRACK_PAGE = 100;

const nowSeconds = (clock: Clock) => Math.floor(clock.now().getTime() / 1000);

/**
 * Ends every session of the account for good: tokens issued at any time,
 * refreshed ones included, are refused, and so is signing in, until the
 * account is gone. Already closed: nothing to write.
 */
async function closeAccount(
  deps: { users: Pick<UserRepository, 'update'>; clock: Clock },
  user: User,
): Promise<void> {
  if (isClosed(user)) return;
  await deps.users.update(user.id, {
    sessionsValidAfter: ACCOUNT_CLOSED,
    updatedAt: deps.clock.now().toISOString(),
  });
}

/**
 * Cancels at once every subscription that could still charge the user: the
 * one the profile names, and any other Stripe holds live for the customer (a
 * duplicate). Returns the ones this call ended; one already gone at Stripe
 * is fine.
 */
export async function cancelRunningSubscriptions(
  deps: Pick<AccountDeletionDeps, 'payments'>,
  user: Pick<User, 'planStatus' | 'stripeSubscriptionId' | 'stripeCustomerId'>,
): Promise<string[]> {
  const running = new Set<string>();
  if (hasRunningSubscription(user) && user.stripeSubscriptionId) running.add(user.stripeSubscriptionId);
  if (user.stripeCustomerId) {
    for (const subscription of await deps.payments.listSubscriptions(user.stripeCustomerId)) {
      if (isLive(subscription)) running.add(subscription.id);
    }
  }
  const cancelled: string[] = [];
  for (const subscriptionId of running) {
    try {
      await deps.payments.cancelNow(subscriptionId);
      cancelled.push(subscriptionId);
    } catch (error) {
      // Already gone at Stripe: nothing more will be charged.
      const gone =
        error instanceof PaymentsError &&
        (error.failure === 'missing' || error.failure === 'invalid-request');
      if (!gone) throw error;
    }
  }
  return cancelled;
}

/** Removes a track's stored audio (WAV, Opus, peaks) and its uploaded input; what is already gone is fine. */
export async function removeTrackAudio(
  deps: Pick<AccountDeletionDeps, 'uploads' | 'trackAudio'>,
  generation: Pick<Generation, 'userId' | 'audioUrl' | 'streamAudioUrl' | 'peaksUrl' | 'inputAudioUrl'>,
): Promise<void> {
  for (const stored of [...storedTrackAudio(generation), generation.inputAudioUrl]) {
    if (!stored) continue;
    const uploadKey = ownUploadKey(stored, generation.userId);
    if (uploadKey) await deps.uploads.delete(uploadKey);
    else await deps.trackAudio.remove(stored);
  }
}

/**
 * Deletes an account and everything that is the user's, in this order:
 * sessions end (for good), every subscription that could charge is
 * cancelled at once, then the data: every track with its share page, WAV,
 * Opus and peaks, every upload, the exports and their records, the customer link,
 * the community's records (likes, plays, follows, playlists, profile, reports);
 * then the sign-in identity, and last the profile with its email claim (so
 * the address can sign up again). Every step can run again and the profile
 * goes last, so a delete that stopped halfway is finished by running it
 * again. Returns the deleted user and the subscriptions this run cancelled,
 * or undefined when there was no such account (already deleted).
 */
export async function deleteAccount(
  deps: AccountDeletionDeps,
  userId: string,
  by: DeletedBy,
  hooks: { afterTrack?: (trackId: string) => Promise<void> } = {},
): Promise<{ user: User; cancelled: string[] } | undefined> {
  const user = await deps.users.get(userId);
  if (!user) return undefined;
  await closeAccount(deps, user);
  const cancelled = await cancelRunningSubscriptions(deps, user);

  for (;;) {
    const page = await deps.generations.listByUser(user.id, { limit: TRACK_PAGE });
    if (page.items.length === 0) break;
    for (const generation of page.items) {
      // Its share page first: a removal that fails stops the cascade (run again), leaving nothing served.
      await withdrawSharePage(deps.sharePages, generation.id);
      await removeTrackAudio(deps, generation);
      await deps.generations.delete(generation.id, user.id);
      await deps.remixes?.forget(generation);
      await hooks.afterTrack?.(generation.id);
    }
  }
  await deps.uploads.deletePrefix(uploadPrefix(user.id));
  await deps.uploads.deletePrefix(`${INCOMING_AREA}${user.id}/`);
  await deps.trackAudio.deletePrefix(legacyTrackAudioPrefix(user.id));
  await deps.exports.removeAll(user.id);
  await deps.apiKeys.removeAll(user.id);
  await deps.webhooks.removeAll(user.id);
  if (user.stripeCustomerId) await deps.unlinkCustomer(user.stripeCustomerId);
  await removeCommunityRecords(deps.community, user.id);
  await deps.identity.deleteUser(user.id);
  await deps.users.delete(user);

  await deps.audit.record({
    id: deps.newId(),
    at: deps.clock.now().toISOString(),
    actor: by.kind === 'admin' ? by.username : user.email,
    action: 'user.delete',
    target: user.id,
    summary:
      by.kind === 'admin'
        ? `Deleted ${user.email} and their data`
        : `${user.email} deleted their own account and data`,
  });
  return { user, cancelled };
}

// ---- the user's own request (DELETE /api/user) and its background job ----------------

/** What the request needs: the password check's, the subscription's and the job's. */
export interface AccountDeletionRequestDeps
  extends Pick<AccountDeps, 'identity' | 'limiter' | 'clock'>,
    Pick<AccountDeletionDeps, 'payments'> {
  users: Pick<UserRepository, 'update'>;
  jobs: BackgroundJobs;
  log: { warn(message: string, fields?: Record<string, unknown>): void };
}

/**
 * The user asks to delete their account. The current password proves it is
 * them (guesses limited as on every password check). Then, before the
 * answer: their sessions end for good, every subscription that could charge
 * is cancelled at once, and the job that deletes the rest is started. Should
 * cancelling or starting the job fail, the account opens again (every
 * session still ended), so the user can sign in and ask again.
 */
export async function requestAccountDeletion(
  deps: AccountDeletionRequestDeps,
  user: User,
  input: DeleteAccountInput,
  address: string,
): Promise<{ subscriptionCancelled: boolean }> {
  await confirmCurrentPassword(deps, user, input.currentPassword, address);
  await closeAccount({ users: deps.users, clock: deps.clock }, user);
  try {
    const cancelled = await cancelRunningSubscriptions(deps, user);
    const subscriptionCancelled = cancelled.length > 0;
    await deps.jobs.start({ kind: 'delete-account', userId: user.id, subscriptionCancelled });
    return { subscriptionCancelled };
  } catch (error) {
    await deps.users.update(user.id, {
      sessionsValidAfter: nowSeconds(deps.clock) + 1,
      updatedAt: deps.clock.now().toISOString(),
    });
    if (error instanceof PaymentsError) {
      deps.log.warn('cancelling the subscription of an account deletion failed', {
        failure: error.failure,
        error,
      });
      throw new DomainError('unavailable', billingMessages.paymentsUnavailable);
    }
    throw error;
  }
}

/** What the background job needs: the cascade, and mail for the confirmation. */
export interface AccountDeletionJobDeps extends AccountDeletionDeps {
  mailer: Mailer;
  siteOrigin: string;
  siteName: () => Promise<string>;
  log: { warn(message: string, fields?: Record<string, unknown>): void };
}

/**
 * The `delete-account` job: runs the cascade for an account whose owner asked
 * (its sessions are closed), then mails the confirmation. Safe to run again:
 * an account already gone is done (no second mail); an account that is not
 * closed was not asked for (a request that failed opened it again) and is
 * left alone. A failed mail does not undo or repeat the deletion.
 */
export async function runAccountDeletion(
  deps: AccountDeletionJobDeps,
  job: { userId: string; subscriptionCancelled?: boolean },
): Promise<'deleted' | 'gone' | 'not-requested'> {
  const user = await deps.users.get(job.userId);
  if (!user) return 'gone';
  if (!isClosed(user)) {
    deps.log.warn('account deletion job for an account that did not ask for it; left alone', {
      userId: job.userId,
    });
    return 'not-requested';
  }
  const result = await deleteAccount(deps, job.userId, { kind: 'self' });
  if (!result) return 'gone';
  try {
    await deps.mailer.send(
      accountDeletedMail({
        to: result.user.email,
        firstName: result.user.firstName,
        subscriptionCancelled: job.subscriptionCancelled === true || result.cancelled.length > 0,
        siteOrigin: deps.siteOrigin,
        siteName: await deps.siteName(),
      }),
    );
  } catch (error) {
    deps.log.warn('account deletion mail failed', { error });
  }
  return 'deleted';
}
