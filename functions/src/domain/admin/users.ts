import {
  type AdminAssignPlanInput,
  type AdminUpdateUserInput,
  type AdminUserList,
  type AdminUserListQuery,
  type AdminUserView,
  adminMessages,
} from '@tunesmith/shared/admin';
import { authMessages } from '@tunesmith/shared/auth';
import { billingMessages } from '@tunesmith/shared/billing';
import { deleteAccount } from '../accounts/account-deletion';
import type { AdminUser } from '../accounts/admin';
import type { User } from '../accounts/user';
import { closeOpenCheckout, grantInForce } from '../billing/grants';
import { PaymentsError } from '../billing/ports';
import { hasRunningSubscription, isLive } from '../billing/subscription';
import { conflict, DomainError, notFound, validationError } from '../errors';
import { isPaidPlan } from '../generations/entitlements';
import { usedThisWindow } from '../generations/quota-window';
import type { Plan } from '../plans/plan';
import { fullEntitlementsFor } from '../stems/stem-sets';
import { audit } from './audit';
import type { AdminDeps } from './ports';
import { normaliseSearch } from './search';

/**
 * A user as the User Management table shows it. What the plan allows comes
 * from `fullEntitlementsFor`, as on the user's own profile: a subscriber whose
 * payment failed keeps the plan's name but has the free limits.
 */
export function toAdminUserView(user: User, plans: ReadonlyMap<string, Plan>, now: Date): AdminUserView {
  const plan = user.subscriptionPlanId ? plans.get(user.subscriptionPlanId) : undefined;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    emailVerified: user.emailVerified,
    planStatus: user.planStatus,
    subscriptionPlanId: user.subscriptionPlanId,
    subscriptionPlan: plan ? { name: plan.name, maxGenerations: plan.maxGenerations } : null,
    generationCount: usedThisWindow(
      { used: user.generationsUsedThisMonth, windowStart: user.quotaWindowStart ?? null },
      now,
    ),
    planStartDate: user.planStartDate,
    planEndDate: user.planEndDate,
    hasStripeSubscription: hasRunningSubscription(user),
    entitlements: fullEntitlementsFor(user, plan, [...plans.values()], now),
    ...(user.suspended ? { suspended: true } : {}),
    createdAt: user.createdAt,
  };
}

const plansById = async (deps: Pick<AdminDeps, 'plans'>) =>
  new Map((await deps.plans.listBySortOrder()).map((plan) => [plan.id, plan]));

const viewOf = async (deps: Pick<AdminDeps, 'plans' | 'clock'>, user: User) =>
  toAdminUserView(user, await plansById(deps), deps.clock.now());

async function existing(deps: Pick<AdminDeps, 'users'>, id: string): Promise<User> {
  const user = await deps.users.get(id);
  if (!user) throw notFound(adminMessages.userNotFound);
  return user;
}

/** One page of users, newest first, or those whose name or email starts with `q`. */
export async function listUsers(
  deps: Pick<AdminDeps, 'directory' | 'counters' | 'plans' | 'clock'>,
  query: AdminUserListQuery,
): Promise<AdminUserList> {
  const request = { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) };
  const q = query.q ? normaliseSearch(query.q) : '';
  const [page, totals, plans] = await Promise.all([
    q ? deps.directory.search(q, request) : deps.directory.list(request),
    deps.counters.totals(),
    plansById(deps),
  ]);
  const now = deps.clock.now();
  return {
    users: page.items.map((user) => toAdminUserView(user, plans, now)),
    total: totals.users,
    nextCursor: page.cursor ?? null,
  };
}

/**
 * Changes any of a user's names, email and verification; only what differs is
 * written. A new email moves the uniqueness claim and the sign-in identity.
 */
export async function updateUser(
  deps: AdminDeps,
  admin: Pick<AdminUser, 'username'>,
  id: string,
  input: AdminUpdateUserInput,
): Promise<AdminUserView> {
  if (Object.keys(input).length === 0) throw validationError(adminMessages.noChanges);
  const user = await existing(deps, id);
  const stamp = deps.clock.now().toISOString();
  const changed: string[] = [];
  let next = user;

  if (input.email !== undefined && input.email !== user.email) {
    await deps.users.changeEmail(user.id, user.email, input.email, stamp);
    try {
      await deps.identity.updateEmail(user.id, input.email);
    } catch (error) {
      await deps.users.changeEmail(user.id, input.email, user.email, stamp);
      if (error instanceof DomainError && error.kind === 'conflict') throw conflict(authMessages.emailTaken);
      throw error;
    }
    next = { ...next, email: input.email };
    changed.push('email');
  }
  const firstName = input.firstName ?? user.firstName;
  const lastName = input.lastName ?? user.lastName;
  if (firstName !== user.firstName || lastName !== user.lastName) {
    await deps.users.rename(next, { firstName, lastName }, stamp);
    next = { ...next, firstName, lastName };
    changed.push('name');
  }
  if (input.emailVerified !== undefined && input.emailVerified !== user.emailVerified) {
    // The identity must accept sign-in too; unverifying is kept on the profile (sign-in checks it).
    if (input.emailVerified) await deps.identity.confirmUser(user.id, next.email);
    await deps.users.update(user.id, { emailVerified: input.emailVerified, updatedAt: stamp });
    next = { ...next, emailVerified: input.emailVerified };
    changed.push(input.emailVerified ? 'verified' : 'unverified');
  }
  if (changed.length > 0) {
    next = { ...next, updatedAt: stamp };
    await audit(deps, admin, 'user.update', user.id, `Updated ${user.email}: ${changed.join(', ')}`);
  }
  return viewOf(deps, next);
}

/** Stripe's failures as the admin hears them. */
const paymentsUnavailable = (error: unknown) =>
  error instanceof PaymentsError
    ? new DomainError('unavailable', billingMessages.paymentsUnavailable)
    : error;

/**
 * Gives a user a plan and status by hand, or puts them back on Free. A user
 * whose plan follows a running Stripe subscription is refused: the next
 * event from Stripe would undo it (decision 006); before granting a plan
 * Stripe is asked too, as the webhook of a payment may not have landed yet.
 * A grant closes the user's open Checkout page (decision 037): paying there
 * would end the grant without the user having been asked.
 */
export async function assignPlan(
  deps: AdminDeps & { log?: { warn(message: string, fields?: Record<string, unknown>): void } },
  admin: Pick<AdminUser, 'username'>,
  id: string,
  input: AdminAssignPlanInput,
): Promise<AdminUserView> {
  const user = await existing(deps, id);
  if (hasRunningSubscription(user)) throw conflict(adminMessages.paysThroughStripe);
  let plan: Plan | undefined;
  if (input.planId !== null) {
    plan = await deps.plans.get(input.planId);
    if (!plan) throw notFound(adminMessages.planNotFound);
    if (!plan.isActive) throw validationError(adminMessages.planInactive, { field: 'planId' });
  }
  const grants = plan && isPaidPlan(plan) && input.status !== 'expired';
  if (grants && user.stripeCustomerId) {
    const subscriptions = await deps.payments
      .listSubscriptions(user.stripeCustomerId)
      .catch((error: unknown) => Promise.reject(paymentsUnavailable(error)));
    if (subscriptions.some(isLive)) throw conflict(adminMessages.paysThroughStripe);
  }
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const free = !plan || !isPaidPlan(plan);
  const stored = await deps.accounts.updateBilling(user.id, (current) => {
    if (hasRunningSubscription(current)) throw conflict(adminMessages.paysThroughStripe);
    if (free || !plan) {
      return {
        ...current,
        planStatus: 'free',
        subscriptionPlanId: null,
        billingCycle: null,
        planStartDate: null,
        planEndDate: null,
      };
    }
    const samePlan = current.subscriptionPlanId === plan.id;
    const start = samePlan && current.planStartDate ? current.planStartDate : stamp;
    const endedBy = (end: string | null) => (end && new Date(end) < now ? end : stamp);
    return {
      ...current,
      subscriptionPlanId: plan.id,
      planStatus: input.status === 'free' ? 'active' : input.status,
      planStartDate: start,
      // Active runs until changed; cancelled keeps paid use to a future end it had, else ends now.
      planEndDate:
        input.status === 'active'
          ? null
          : input.status === 'cancelled' && current.planEndDate && new Date(current.planEndDate) > now
            ? current.planEndDate
            : endedBy(current.planEndDate),
    };
  });
  if (!stored) throw notFound(adminMessages.userNotFound);
  if (grantInForce(stored, plan, now)) {
    // Written first, then closed: a Checkout started meanwhile sees the grant (it checks after recording its page).
    await closeOpenCheckout(deps, user.id).catch((error: unknown) => {
      deps.log?.warn('open Checkout page not closed after a grant', { userId: user.id, error });
    });
  }
  const label = free ? 'Free' : `${plan?.name} (${input.status})`;
  await audit(deps, admin, 'user.plan', user.id, `Set the plan of ${user.email} to ${label}`);
  return viewOf(deps, { ...user, ...stored, updatedAt: stamp });
}

/**
 * Deletes a user and everything that is theirs through the one account
 * cascade (sessions, Stripe at once, tracks and their files, uploads,
 * exports, the customer link, the identity, last the profile), recording who
 * did it. Each step can run again and the profile goes last, so a delete
 * that stops halfway is finished by running it again.
 */
export async function deleteUser(
  deps: AdminDeps,
  admin: Pick<AdminUser, 'username'>,
  id: string,
  hooks: { afterTrack?: (trackId: string) => Promise<void> } = {},
): Promise<void> {
  const deleted = await deleteAccount(deps, id, { kind: 'admin', username: admin.username }, hooks);
  if (!deleted) throw notFound(adminMessages.userNotFound);
}
