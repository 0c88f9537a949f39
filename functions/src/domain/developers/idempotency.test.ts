import { IDEMPOTENCY_TTL_SECONDS } from '@tunesmith/shared/api-v1-schemas';
import { developerMessages } from '@tunesmith/shared/developer-api';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryIdempotencyStore } from '../../testing/in-memory-idempotency';
import { DomainError, validationError } from '../errors';
import {
  checkIdempotencyKey,
  IDEMPOTENCY_LOCK_SECONDS,
  requestHash,
  runIdempotent,
  type StoredAnswer,
} from './idempotency';

const created: StoredAnswer = { statusCode: 201, body: '{"id":"t1","status":"pending"}' };
const asAnswer = (error: unknown): StoredAnswer => {
  const status = error instanceof DomainError && error.kind === 'validation' ? 400 : 500;
  return { statusCode: status, body: JSON.stringify({ error: { message: (error as Error).message } }) };
};

function setup() {
  const store = inMemoryIdempotencyStore();
  const clock = fakeClock('2026-11-29T12:00:00.000Z');
  const deps = { store, clock };
  const hashA = requestHash({ method: 'POST', path: '/api/v1/tracks', body: '{"tags":"pop"}' });
  const hashB = requestHash({ method: 'POST', path: '/api/v1/tracks', body: '{"tags":"jazz"}' });
  const claim = (requestHash = hashA, userId = 'u1') => ({ userId, key: 'key-1', requestHash });
  return { store, clock, deps, claim, hashA, hashB };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );
}

describe('runIdempotent', () => {
  it('runs the first request and replays its answer to a repeat without running again', async () => {
    const { deps, claim } = setup();
    let runs = 0;
    const run = async () => {
      runs++;
      return created;
    };

    const first = await runIdempotent(deps, claim(), run, asAnswer);
    const again = await runIdempotent(deps, claim(), run, asAnswer);

    expect(first).toEqual({ answer: created, replayed: false });
    expect(again).toEqual({ answer: created, replayed: true });
    expect(runs).toBe(1);
  });

  it('runs once among racing repeats; the others are told it is still in progress', async () => {
    const { deps, claim } = setup();
    let runs = 0;
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const run = async () => {
      runs++;
      await gate;
      return created;
    };

    const racing = Array.from({ length: 5 }, () =>
      runIdempotent(deps, claim(), run, asAnswer).then(
        (result) => result,
        (error: unknown) => error,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    finish();
    const results = await Promise.all(racing);

    expect(runs).toBe(1);
    const refused = results.filter((r) => r instanceof DomainError) as DomainError[];
    expect(refused).toHaveLength(4);
    for (const error of refused) {
      expect(error.kind).toBe('conflict');
      expect(error.message).toBe(developerMessages.idempotencyInProgress);
    }
  });

  it('refuses the same key with a different request, even once the first has finished', async () => {
    const { deps, claim, hashB } = setup();
    await runIdempotent(deps, claim(), async () => created, asAnswer);

    const error = await thrown(runIdempotent(deps, claim(hashB), async () => created, asAnswer));

    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('idempotency-mismatch');
    expect((error as DomainError).message).toBe(developerMessages.idempotencyMismatch);
  });

  it('keeps keys apart per user', async () => {
    const { deps, claim } = setup();
    await runIdempotent(deps, claim(undefined, 'u1'), async () => created, asAnswer);

    const other = await runIdempotent(deps, claim(undefined, 'u2'), async () => created, asAnswer);

    expect(other.replayed).toBe(false);
  });

  it('stores a 4xx refusal and replays it, without running again', async () => {
    const { deps, claim } = setup();
    let runs = 0;
    const refuse = async (): Promise<StoredAnswer> => {
      runs++;
      throw validationError('Tags are required.');
    };

    const first = await thrown(runIdempotent(deps, claim(), refuse, asAnswer));
    const again = await runIdempotent(deps, claim(), refuse, asAnswer);

    expect((first as DomainError).message).toBe('Tags are required.');
    expect(again.replayed).toBe(true);
    expect(again.answer.statusCode).toBe(400);
    expect(JSON.parse(again.answer.body)).toEqual({ error: { message: 'Tags are required.' } });
    expect(runs).toBe(1);
  });

  it('releases the claim on a 5xx, so a retry runs again', async () => {
    const { deps, claim, store } = setup();
    await thrown(
      runIdempotent(
        deps,
        claim(),
        async () => {
          throw new Error('table unavailable');
        },
        asAnswer,
      ),
    );
    expect(store.records.size).toBe(0);

    const retry = await runIdempotent(deps, claim(), async () => created, asAnswer);

    expect(retry).toEqual({ answer: created, replayed: false });
  });

  it('forgets a record after 24 hours', async () => {
    const { deps, claim, clock } = setup();
    await runIdempotent(deps, claim(), async () => created, asAnswer);
    clock.advance(IDEMPOTENCY_TTL_SECONDS * 1000 - 1000);
    expect((await runIdempotent(deps, claim(), async () => created, asAnswer)).replayed).toBe(true);

    clock.advance(1000);
    const later = await runIdempotent(deps, claim(), async () => created, asAnswer);

    expect(later.replayed).toBe(false);
  });

  it('lets a retry take over a claim whose run never finished, once its lock has run out', async () => {
    const { deps, claim, store, clock, hashA } = setup();
    const now = Math.floor(clock.now().getTime() / 1000);
    await store.claim(
      'u1',
      'key-1',
      {
        status: 'in_progress',
        requestHash: hashA,
        expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
        lockedUntil: now + IDEMPOTENCY_LOCK_SECONDS,
      },
      now,
    );
    const stillLocked = await thrown(runIdempotent(deps, claim(), async () => created, asAnswer));
    expect((stillLocked as DomainError).kind).toBe('conflict');

    clock.advance(IDEMPOTENCY_LOCK_SECONDS * 1000);
    const taken = await runIdempotent(deps, claim(), async () => created, asAnswer);

    expect(taken).toEqual({ answer: created, replayed: false });
  });
});

describe('idempotency keys and request hashes', () => {
  it('accepts 1 to 255 visible ASCII characters and refuses anything else with the API message', () => {
    expect(checkIdempotencyKey('order-42_retry.1')).toBe('order-42_retry.1');
    expect(checkIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    for (const bad of ['', 'has space', 'k'.repeat(256), 'naïve', 'tab\there']) {
      expect(() => checkIdempotencyKey(bad)).toThrow(developerMessages.idempotencyKeyInvalid);
    }
  });

  it('hashes a JSON body by its content and tells method, path and body apart', () => {
    const base = { method: 'POST', path: '/api/v1/tracks', body: '{"tags":"pop","duration":30}' };
    expect(requestHash({ ...base, body: '{ "duration": 30, "tags": "pop" }' })).toBe(requestHash(base));
    expect(requestHash({ ...base, body: '{"tags":"pop","duration":31}' })).not.toBe(requestHash(base));
    expect(requestHash({ ...base, path: '/api/v1/uploads' })).not.toBe(requestHash(base));
    expect(requestHash({ ...base, method: 'PUT' })).not.toBe(requestHash(base));
    expect(requestHash({ ...base, body: 'not json' })).not.toBe(requestHash({ ...base, body: 'not json!' }));
  });
});
