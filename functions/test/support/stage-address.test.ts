import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoRateLimiter } from '../../src/adapters/dynamo/rate-limiter';
import { rateLimits } from '../../src/domain/accounts/account-service';
import { passwordCheckLimits } from '../../src/domain/accounts/session-rules';
import {
  addressCounterKeys,
  countsAddress,
  type DocumentSender,
  learnAddress,
  liftAddressLimits,
} from './stage-address';

// On a stage every test browser is this machine's one address: learning it,
// and clearing the per-address counters the API keeps for it.

/** A table in memory that answers the calls the rate limiter, the scan and the deletes make. */
function fakeTable() {
  const items = new Map<string, Record<string, unknown>>();
  const id = (key: { pk: unknown; sk: unknown }) => `${String(key.pk)}|${String(key.sk)}`;
  const documents = {
    send: async (command: { input: Record<string, unknown>; constructor: { name: string } }) => {
      const input = command.input;
      if (command instanceof ScanCommand) {
        const prefix = String((input.ExpressionAttributeValues as Record<string, unknown>)[':prefix']);
        return { Items: [...items.values()].filter((item) => String(item.pk).startsWith(prefix)) };
      }
      if (command instanceof DeleteCommand) {
        items.delete(id(input.Key as { pk: string; sk: string }));
        return {};
      }
      if (command.constructor.name === 'UpdateCommand') {
        // ADD #count :one, refused at :limit when given (the limiter's conditional write).
        const key = input.Key as { pk: string; sk: string };
        const values = input.ExpressionAttributeValues as Record<string, number>;
        const current = items.get(id(key)) ?? { ...key, count: 0 };
        if (values[':limit'] !== undefined && Number(current.count) >= values[':limit']) {
          throw Object.assign(new Error('conditional'), { name: 'ConditionalCheckFailedException' });
        }
        items.set(id(key), { ...current, count: Number(current.count) + 1 });
        return {};
      }
      if (command.constructor.name === 'GetCommand') return { Item: items.get(id(input.Key as never)) };
      throw new Error(`unexpected ${command.constructor.name}`);
    },
  } as unknown as DocumentSender;
  return { documents, items };
}

const now = Date.parse('2026-11-30T10:17:00Z');

describe('the calls that count the address', () => {
  it('are the sign-up, mail, sign-in and password calls, whatever the query string', () => {
    expect(countsAddress('post', '/api/auth/register')).toBe(true);
    expect(countsAddress('POST', '/api/auth/login?next=/')).toBe(true);
    expect(countsAddress('PUT', '/api/user/password')).toBe(true);
    expect(countsAddress('PUT', '/api/admin/change-password')).toBe(true);
    expect(countsAddress('POST', '/api/admin/login/code')).toBe(true);
    expect(countsAddress('GET', '/api/auth/user')).toBe(false);
    expect(countsAddress('POST', '/api/generate-text-to-music')).toBe(false);
  });
});

describe('liftAddressLimits', () => {
  it("clears exactly the counters the API's limiter keeps for the address, and no one else's", async () => {
    const { documents, items } = fakeTable();
    const limiter = dynamoRateLimiter(documents as never, 'table', () => now);
    for (const action of ['register', 'reset', 'resend'] as const) {
      for (let i = 0; i < rateLimits[action].perAddress; i++) {
        await limiter.hit(
          `${action}:address:203.0.113.9`,
          rateLimits[action].perAddress,
          rateLimits[action].windowSeconds,
        );
      }
    }
    for (const action of ['login', 'password-check', 'admin-login', 'admin-code', 'admin-password-check']) {
      await limiter.hit(
        `${action}:address:203.0.113.9`,
        passwordCheckLimits.perAddress,
        passwordCheckLimits.windowSeconds,
      );
    }
    await limiter.hit('register:address:198.51.100.7', 20, 3600);
    await limiter.hit('login:pair:ada@example.org|203.0.113.9', 10, 900);
    expect(await limiter.hit('register:address:203.0.113.9', 20, 3600)).toBe(false);

    await liftAddressLimits(documents, 'table', '203.0.113.9', now);

    expect(await limiter.hit('register:address:203.0.113.9', 20, 3600)).toBe(true);
    const left = [...items.values()].map((item) => String(item.pk));
    expect(left.filter((pk) => pk.includes('203.0.113.9') && pk.includes(':address:'))).toEqual([
      expect.stringMatching(/^RATE#register:address:203\.0\.113\.9#/),
    ]);
    expect(left.some((pk) => pk.includes('198.51.100.7'))).toBe(true);
    expect(left.some((pk) => pk.includes(':pair:'))).toBe(true);
    expect(addressCounterKeys('203.0.113.9', now)).toHaveLength(8);
  });
});

describe('learnAddress', () => {
  it('finds the one address whose reset counter grew by the probes made', async () => {
    const { documents } = fakeTable();
    const limiter = dynamoRateLimiter(documents as never, 'table', () => now);
    // Someone else resetting passwords meanwhile, once per probe.
    await limiter.hit('reset:address:198.51.100.7', 20, 3600);
    let probes = 0;
    const address = await learnAddress(
      documents,
      'table',
      async () => {
        probes++;
        await limiter.hit('reset:address:2001:db8::1', 20, 3600);
        if (probes % 2) await limiter.hit('reset:address:198.51.100.7', 20, 3600);
      },
      { probes: 3, now: () => now },
    );
    expect(address).toBe('2001:db8::1');
    expect(probes).toBe(3);
  });

  it('gives up with a message when no address grew so', async () => {
    const { documents } = fakeTable();
    await expect(learnAddress(documents, 'table', async () => {}, { now: () => now })).rejects.toThrow(
      /Could not tell this machine's address/,
    );
  });
});
