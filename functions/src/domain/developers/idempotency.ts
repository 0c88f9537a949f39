/**
 * Idempotent `/api/v1` POSTs (decision 055): a client that sends the same
 * `Idempotency-Key` again gets the first answer back instead of a second
 * track and a second quota charge, even when the repeats race.
 *
 * The record is keyed by (key owner, idempotency key) and holds a hash of
 * the request (method, path, body). The first request claims it with a
 * conditional write (`in_progress`); its answer is stored when it has one
 * (2xx and 4xx, both final for that request); a 5xx or a crash releases the
 * claim so a retry runs again. Records live 24 hours.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_TTL_SECONDS } from '@tunesmith/shared/api-v1-schemas';
import { developerMessages } from '@tunesmith/shared/developer-api';
import type { Clock } from '../accounts/ports';
import { DomainError, validationError } from '../errors';

/** An answer as stored and replayed. */
export interface StoredAnswer {
  statusCode: number;
  /** The body exactly as first sent. */
  body: string;
  /** Headers worth repeating (e.g. `retry-after`); the content type is the API's own. */
  headers?: Record<string, string>;
}

export interface IdempotencyRecord {
  status: 'in_progress' | 'completed';
  /** SHA-256 of the request the key was first used with. */
  requestHash: string;
  /** The stored answer, once completed. */
  answer?: StoredAnswer;
  /** Epoch seconds: the record is gone (for every purpose) from then on. */
  expiresAt: number;
  /** Epoch seconds: an `in_progress` claim older than this was abandoned (its run crashed) and may be taken. */
  lockedUntil?: number;
}

/** Where idempotency records are kept. */
export interface IdempotencyStore {
  /**
   * Writes `record` for (userId, key) only if there is none, or the one there
   * has expired, or it is an abandoned claim; otherwise answers the record
   * there. Atomic: of racing claims exactly one wins.
   */
  claim(
    userId: string,
    key: string,
    record: IdempotencyRecord,
    now: number,
  ): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }>;
  /** Stores the answer of the claim for `requestHash` (a no-op if the claim is no longer that one). */
  complete(
    userId: string,
    key: string,
    requestHash: string,
    answer: StoredAnswer,
    expiresAt: number,
  ): Promise<void>;
  /** Gives up the in-progress claim for `requestHash` (a no-op if the claim is no longer that one). */
  release(userId: string, key: string, requestHash: string): Promise<void>;
}

export interface IdempotencyDeps {
  store: IdempotencyStore;
  clock: Clock;
}

/** Longest key we keep (Stripe's limit too). */
export const IDEMPOTENCY_KEY_MAX = 255;
/**
 * How long a claim holds while its request runs: longer than any API call may
 * run (API Gateway gives up after 30 s), so a live run is never overtaken, and
 * short enough that a crashed run blocks retries for a minute at most.
 */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

const VALID_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** The header's value if it is a valid key; a 400 for anything else (empty, too long, spaces, non-ASCII). */
export function checkIdempotencyKey(value: string): string {
  if (!VALID_KEY.test(value)) throw validationError(developerMessages.idempotencyKeyInvalid);
  return value;
}

/**
 * What identifies a request: the same key with any other method, path or body
 * is a mismatch. A JSON body counts by its content (key order and spacing do
 * not matter); anything else by its text.
 */
export function requestHash(request: { method: string; path: string; body: string }): string {
  return createHash('sha256')
    .update(`${request.method.toUpperCase()} ${request.path}\n`)
    .update(canonicalBody(request.body))
    .digest('hex');
}

function canonicalBody(text: string): string {
  if (text.trim() === '') return '';
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return `raw:${text}`;
  }
}

/** JSON with every object's keys sorted, so equal values read the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The answers worth keeping: final for this request. A 5xx may go differently next time. */
const isFinal = (statusCode: number) => statusCode < 500;

/**
 * Runs `run` once per (user, key, request) within 24 hours. The first request
 * runs it; a repeat gets its stored answer (`replayed`); a repeat while it
 * still runs is a 409; the key with another request is a 422. `run` answers
 * with the response, or throws: a thrown error is turned into its answer by
 * `answerOf` and stored when final (then thrown on, so the caller's own error
 * handling answers this first request), and releases the claim otherwise.
 */
export async function runIdempotent(
  deps: IdempotencyDeps,
  claim: { userId: string; key: string; requestHash: string },
  run: () => Promise<StoredAnswer>,
  answerOf: (error: unknown) => StoredAnswer,
): Promise<{ answer: StoredAnswer; replayed: boolean }> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const claimed = await deps.store.claim(
    claim.userId,
    claim.key,
    {
      status: 'in_progress',
      requestHash: claim.requestHash,
      expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
      lockedUntil: now + IDEMPOTENCY_LOCK_SECONDS,
    },
    now,
  );
  if (!claimed.claimed) {
    const { existing } = claimed;
    if (existing.requestHash !== claim.requestHash) {
      throw new DomainError('idempotency-mismatch', developerMessages.idempotencyMismatch);
    }
    if (existing.status === 'in_progress' || !existing.answer) {
      throw new DomainError('conflict', developerMessages.idempotencyInProgress);
    }
    return { answer: existing.answer, replayed: true };
  }
  const expiresAt = now + IDEMPOTENCY_TTL_SECONDS;
  let answer: StoredAnswer;
  try {
    answer = await run();
  } catch (error) {
    const refusal = answerOf(error);
    if (isFinal(refusal.statusCode)) {
      await deps.store.complete(claim.userId, claim.key, claim.requestHash, refusal, expiresAt);
    } else {
      await deps.store.release(claim.userId, claim.key, claim.requestHash);
    }
    throw error;
  }
  if (isFinal(answer.statusCode)) {
    await deps.store.complete(claim.userId, claim.key, claim.requestHash, answer, expiresAt);
  } else {
    await deps.store.release(claim.userId, claim.key, claim.requestHash);
  }
  return { answer, replayed: false };
}
