import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { messages } from '@tunesmith/shared/messages';
import { keys } from '../../data/keys';
import type { AdminUser } from '../../domain/accounts/admin';
import type { SessionReads, VerifiedToken } from '../../domain/accounts/ports';
import type { User } from '../../domain/accounts/user';
import { DomainError } from '../../domain/errors';
import { adminSchema } from './admin-repository';
import { endsItsToken } from './revoked-sessions';
import { userSchema } from './user-repository';

type Key = { pk: string; sk: string };

/** Which item holds the account a token names, and how it reads. */
interface Principal<P> {
  key(claims: VerifiedToken): Key;
  parse(item: Record<string, unknown>): P;
}

/** How many requests a read makes at most when DynamoDB leaves keys unprocessed (it may, under throttling). */
const MAX_ROUNDS = 3;

/**
 * Session reads as one BatchGetItem: the token's revoked-session item and the
 * account's profile, both read strongly consistent as the single reads were
 * (a logout or a password change counts at once). Keys left unprocessed are
 * asked for again; a read that cannot be completed fails (503) rather than
 * take a missing item for "not revoked".
 */
function sessionReads<P>(
  client: DynamoDBDocumentClient,
  tableName: string,
  principal: Principal<P>,
  now: () => number,
): SessionReads<P> {
  return {
    async read(tokenHash, claims) {
      const revokedKey = keys.revokedSession(tokenHash);
      const principalKey = principal.key(claims);
      const found = new Map<string, Record<string, unknown>>();
      const id = (key: Record<string, unknown>) => `${key.pk}\n${key.sk}`;
      let pending: Record<string, unknown>[] = [revokedKey, principalKey];
      for (let round = 0; pending.length > 0; round++) {
        // Throttled past the SDK's own retries: a 503 to try again, never a guess.
        if (round === MAX_ROUNDS) throw new DomainError('unavailable', messages.serviceUnavailable);
        const out = await client.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[tableName] ?? []) found.set(id(item), item);
        pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
      }
      const account = found.get(id(principalKey));
      return {
        revoked: endsItsToken(found.get(id(revokedKey)), now()),
        principal: account ? principal.parse(account) : undefined,
      };
    },
  };
}

/** A user's session: the profile of the token's subject. */
export const dynamoUserSessionReads = (
  client: DynamoDBDocumentClient,
  tableName: string,
  now: () => number = Date.now,
): SessionReads<User> =>
  sessionReads(
    client,
    tableName,
    { key: (claims) => keys.user(claims.subject), parse: (item) => userSchema.parse(item) },
    now,
  );

/** An administrator's session: the profile under the token's username. */
export const dynamoAdminSessionReads = (
  client: DynamoDBDocumentClient,
  tableName: string,
  now: () => number = Date.now,
): SessionReads<AdminUser> =>
  sessionReads(
    client,
    tableName,
    { key: (claims) => keys.admin(claims.username), parse: (item) => adminSchema.parse(item) },
    now,
  );
