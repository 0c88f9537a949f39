/**
 * API keys (decision 052): a user's keys for `/api/v1`, made from 32
 * cryptographically random base62 characters, shown once and stored only as
 * their SHA-256; and the check every `/api/v1` call passes first.
 */
import type { ApiScope } from '@tunesmith/shared/api-routes';
import {
  API_KEYS_MAX,
  type ApiKeyView,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  developerMessages,
} from '@tunesmith/shared/developer-api';
import { reportMessages } from '@tunesmith/shared/reports';
import type { RateLimiter } from '../accounts/ports';
import { isClosed, type User, type UserRepository } from '../accounts/user';
import { DomainError, forbidden, notFound, unauthorized } from '../errors';
import { entitlementsFor, isPaidPlan } from '../generations/entitlements';
import type { PlanRepository } from '../plans/plan';
import type { ApiKeyDeps, ApiKeyLookup, ApiKeyMode, ApiKeyRecord } from './ports';

/** Random characters after the `ts_live_` / `ts_test_` marker. */
export const API_KEY_RANDOM_LENGTH = 32;
/** How many of the key's first characters are kept to tell keys apart. */
export const API_KEY_PREFIX_LENGTH = 12;
/** A key's last use is written at most this often (a key in a busy loop costs one write a minute). */
export const LAST_USED_RESOLUTION_MS = 60_000;

const KEY_SHAPE = /^ts_(?:test|live)_[0-9A-Za-z]{32}$/;

export const keyMarker = (mode: ApiKeyMode) => `ts_${mode}_`;

const view = (record: ApiKeyRecord): ApiKeyView => ({
  id: record.id,
  name: record.name,
  prefix: record.prefix,
  scopes: record.scopes,
  createdAt: record.createdAt,
  lastUsedAt: record.lastUsedAt,
});

/**
 * Makes a key for the user: the key itself is in the answer and nowhere else.
 * A user holding {@link API_KEYS_MAX} live keys is refused (409), also when
 * the creates race.
 */
export async function createApiKey(
  deps: ApiKeyDeps,
  userId: string,
  request: CreateApiKeyRequest,
): Promise<CreatedApiKey> {
  const key = keyMarker(deps.mode) + deps.randomBase62(API_KEY_RANDOM_LENGTH);
  const record: ApiKeyRecord = {
    id: deps.newId(),
    userId,
    name: request.name,
    prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
    scopes: request.scopes,
    hash: deps.hash(key),
    createdAt: deps.clock.now().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  if (!(await deps.apiKeys.create(record, API_KEYS_MAX))) {
    throw new DomainError('conflict', developerMessages.tooManyKeys);
  }
  const { id, prefix, name, scopes, createdAt } = record;
  return { id, key, prefix, name, scopes, createdAt };
}

/** The user's live keys, newest first. */
export async function listApiKeys(deps: Pick<ApiKeyDeps, 'apiKeys'>, userId: string): Promise<ApiKeyView[]> {
  const keys = await deps.apiKeys.listLive(userId);
  return keys
    .sort((a, b) =>
      a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt),
    )
    .map(view);
}

/** Revokes one of the user's own live keys at once; any other id is a 404. */
export async function revokeApiKey(
  deps: Pick<ApiKeyDeps, 'apiKeys' | 'clock'>,
  userId: string,
  id: string,
): Promise<void> {
  if (!(await deps.apiKeys.revoke(userId, id, deps.clock.now().toISOString()))) {
    throw notFound(developerMessages.keyNotFound);
  }
}

/** Who a key acts for and what it may do. */
export interface AuthenticatedKey {
  keyId: string;
  userId: string;
  scopes: ApiScope[];
}

/**
 * The live key `key` is, or undefined (malformed, unknown or revoked). A use
 * is recorded when the last recorded one is a minute old or more.
 */
export async function authenticateApiKey(
  deps: Pick<ApiKeyDeps, 'apiKeys' | 'hash' | 'clock'>,
  key: string,
): Promise<AuthenticatedKey | undefined> {
  if (!KEY_SHAPE.test(key)) return undefined;
  const found: ApiKeyLookup | undefined = await deps.apiKeys.findByHash(deps.hash(key));
  if (!found) return undefined;
  const now = deps.clock.now();
  const notBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  if (!found.lastUsedAt || found.lastUsedAt <= notBefore) {
    await deps.apiKeys.touch(found, now.toISOString(), notBefore);
  }
  return { keyId: found.id, userId: found.userId, scopes: found.scopes };
}

/** Per key, separate from the app's limits: every call, and the calls that start work. */
export const API_KEY_RATE_LIMITS = { requests: 60, starts: 10, windowSeconds: 60 } as const;

export interface ApiCallDeps extends Pick<ApiKeyDeps, 'apiKeys' | 'hash' | 'clock'> {
  users: Pick<UserRepository, 'get'>;
  plans: Pick<PlanRepository, 'get' | 'listBySortOrder'>;
  limiter: Pick<RateLimiter, 'hit'>;
}

/** What a call of `/api/v1` asks for: its Authorization header, the route's scope, whether it starts work. */
export interface ApiCall {
  authorization: string | undefined;
  scope: ApiScope | undefined;
  startsWork: boolean;
}

/** Seconds until the fixed rate window in force ends (at least 1). */
function secondsLeftInWindow(now: Date, windowSeconds: number): number {
  const seconds = Math.floor(now.getTime() / 1000);
  return windowSeconds - (seconds % windowSeconds);
}

/**
 * The check of every `/api/v1` call with a key: a missing, unknown or revoked
 * key, or a user who is gone or being deleted, is a 401; a key over its rate
 * is a 429 (`details.retryAfter` in seconds); a key without the route's scope,
 * or a user whose plan in force has no API access, a 403.
 */
export async function authorizeApiCall(
  deps: ApiCallDeps,
  call: ApiCall,
): Promise<{ key: AuthenticatedKey; user: User }> {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(call.authorization ?? '');
  if (!bearer?.[1]) throw unauthorized(developerMessages.keyMissing);
  const key = await authenticateApiKey(deps, bearer[1]);
  if (!key) throw unauthorized(developerMessages.keyInvalid);

  const rule = API_KEY_RATE_LIMITS;
  const [requestOk, startOk] = await Promise.all([
    deps.limiter.hit(`api-key:requests:${key.keyId}`, rule.requests, rule.windowSeconds),
    call.startsWork ? deps.limiter.hit(`api-key:starts:${key.keyId}`, rule.starts, rule.windowSeconds) : true,
  ]);
  if (!requestOk || !startOk) {
    throw new DomainError('rate-limited', developerMessages.rateLimited, {
      retryAfter: secondsLeftInWindow(deps.clock.now(), rule.windowSeconds),
    });
  }

  if (call.scope && !key.scopes.includes(call.scope))
    throw forbidden(developerMessages.scopeMissing(call.scope));
  const user = await deps.users.get(key.userId);
  if (!user || isClosed(user)) throw unauthorized(developerMessages.keyInvalid);
  if (user.suspended) throw forbidden(reportMessages.accountSuspended);
  if (!(await planHasApiAccess(deps, user))) throw forbidden(developerMessages.noApiAccess);
  return { key, user };
}

/**
 * Whether the plan in force has API access: the user's plan while it is in
 * force (a paid plan in its paid period, or a free plan given to them), else
 * the stored Free plan. A plan stored before the setting existed has it on.
 */
async function planHasApiAccess(deps: Pick<ApiCallDeps, 'plans' | 'clock'>, user: User): Promise<boolean> {
  const plan = user.subscriptionPlanId ? await deps.plans.get(user.subscriptionPlanId) : undefined;
  if (plan && (entitlementsFor(user, plan, deps.clock.now()).paid || !isPaidPlan(plan))) {
    return plan.apiAccess;
  }
  const free = (await deps.plans.listBySortOrder()).find((p) => p.name === 'Free');
  return free?.apiAccess ?? true;
}
