import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoAdminRepository } from '../src/adapters/dynamo/admin-repository';
import { dynamoRevokedSessions } from '../src/adapters/dynamo/revoked-sessions';
import { dynamoAdminSessionReads, dynamoUserSessionReads } from '../src/adapters/dynamo/session-reads';
import { dynamoUserRepository } from '../src/adapters/dynamo/user-repository';
import type { AdminUser } from '../src/domain/accounts/admin';
import type { VerifiedToken } from '../src/domain/accounts/ports';
import { aUser } from '../src/testing/fixtures';
import { clientConfig, cloudEnv } from './support/run';

// The reads that recognise a session (decision 041), against the table itself: the token's
// revoked-session item and the account's profile in one request.

const base = new DynamoDBClient(clientConfig('dynamodb'));
/** The operations this client sent, in order. */
const sent: string[] = [];
base.middlewareStack.add(
  (next, context) => (args) => {
    sent.push(context.commandName ?? '?');
    return next(args);
  },
  { step: 'initialize', name: 'recordCommands' },
);
const documents = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
const tableName = cloudEnv.TABLE_NAME ?? '';
afterAll(() => base.destroy());

const hash = () => randomBytes(32).toString('hex');
const claimsOf = (subject: string, username = subject): VerifiedToken => {
  const now = Math.floor(Date.now() / 1000);
  return { subject, username, issuedAt: now, expiresAt: now + 3600 };
};

describe('session reads', () => {
  it('read the account and whether its token was ended in one request, strongly consistent with a logout just made', async () => {
    const user = aUser();
    await dynamoUserRepository(documents, tableName).create(user);
    const reads = dynamoUserSessionReads(documents, tableName);
    const tokenHash = hash();

    sent.length = 0;
    const live = await reads.read(tokenHash, claimsOf(user.id));
    expect(live).toEqual({ revoked: false, principal: user });
    expect(sent).toEqual(['BatchGetItemCommand']);

    await dynamoRevokedSessions(documents, tableName).revoke(tokenHash, claimsOf(user.id).expiresAt);
    expect(await reads.read(tokenHash, claimsOf(user.id))).toEqual({ revoked: true, principal: user });
    // Another token of the same account was not ended.
    expect((await reads.read(hash(), claimsOf(user.id))).revoked).toBe(false);
  });

  it('count an ended token only until it would have expired, and name no account that is not there', async () => {
    const tokenHash = hash();
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    await dynamoRevokedSessions(documents, tableName).revoke(tokenHash, expiresAt);
    const at = (ms: number) => dynamoUserSessionReads(documents, tableName, () => ms);

    const ghost = claimsOf(`ghost-${hash()}`);
    expect(await at(expiresAt * 1000 - 1).read(tokenHash, ghost)).toEqual({
      revoked: true,
      principal: undefined,
    });
    expect(await at(expiresAt * 1000).read(tokenHash, ghost)).toEqual({
      revoked: false,
      principal: undefined,
    });
  });

  it("read an administrator's profile by the token's username", async () => {
    const stamp = new Date().toISOString();
    const admin: AdminUser = {
      id: `admin-${hash().slice(0, 12)}`,
      username: `reads-${hash().slice(0, 12)}`,
      email: null,
      role: 'admin',
      isActive: true,
      lastLoginAt: null,
      sessionsValidAfter: 0,
      createdAt: stamp,
      updatedAt: stamp,
    };
    await dynamoAdminRepository(documents, tableName).create(admin);
    const reads = dynamoAdminSessionReads(documents, tableName);

    expect(await reads.read(hash(), claimsOf('some-subject', admin.username))).toEqual({
      revoked: false,
      principal: admin,
    });
  });
});
