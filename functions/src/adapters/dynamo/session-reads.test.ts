import type { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../data/keys';
import type { VerifiedToken } from '../../domain/accounts/ports';
import { DomainError } from '../../domain/errors';
import { aUser } from '../../testing/fixtures';
import { dynamoUserSessionReads } from './session-reads';

// What DynamoDB Local never does: leave keys of a BatchGetItem unprocessed (it may under
// throttling). The table's own behaviour is tested against DynamoDB Local (session-reads.int.test.ts).

const table = 'tunesmith';
const now = Date.UTC(2026, 10, 29, 10);
const user = aUser();
const claims: VerifiedToken = {
  subject: user.id,
  username: user.id,
  issuedAt: 0,
  expiresAt: now / 1000 + 600,
};
const revokedItem = {
  ...keys.revokedSession('hash-1'),
  entity: 'revoked-session',
  expiresAt: now / 1000 + 600,
};
const profileItem = { ...keys.user(user.id), entity: 'user', ...user };
const keyOf = (item: Record<string, unknown>) => `${item.pk} ${item.sk}`;

/** A table that answers each BatchGetItem with the items asked for, leaving the first `left` rounds' last key unprocessed. */
function throttledTable(items: Record<string, unknown>[], left: number) {
  const asked: string[][] = [];
  const client = {
    async send(command: BatchGetCommand) {
      const request = command.input.RequestItems?.[table];
      const wanted = (request?.Keys ?? []) as Record<string, unknown>[];
      asked.push(wanted.map(keyOf));
      expect(request?.ConsistentRead).toBe(true);
      const held = asked.length <= left ? wanted.slice(-1) : [];
      const answered = wanted.filter((key) => !held.includes(key));
      return {
        Responses: { [table]: items.filter((item) => answered.some((key) => keyOf(key) === keyOf(item))) },
        ...(held.length ? { UnprocessedKeys: { [table]: { Keys: held } } } : {}),
      };
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, asked };
}

describe('session reads when DynamoDB leaves keys unprocessed', () => {
  it('asks again for what was left and answers from both rounds', async () => {
    const { client, asked } = throttledTable([revokedItem, profileItem], 1);

    const read = await dynamoUserSessionReads(client, table, () => now).read('hash-1', claims);

    expect(read).toEqual({ revoked: true, principal: user });
    expect(asked).toEqual([[keyOf(revokedItem), keyOf(profileItem)], [keyOf(profileItem)]]);
  });

  it('fails with a 503 rather than take a key left unread for "not ended"', async () => {
    const { client, asked } = throttledTable([revokedItem, profileItem], 3);

    const failure = await dynamoUserSessionReads(client, table, () => now)
      .read('hash-1', claims)
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DomainError);
    expect((failure as DomainError).kind).toBe('unavailable');
    expect(asked).toHaveLength(3);
  });
});
