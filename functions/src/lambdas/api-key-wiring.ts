import { randomInt, randomUUID } from 'node:crypto';
import { dynamoApiKeyStore } from '../adapters/dynamo/api-key-store';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import { dynamoUserRepository } from '../adapters/dynamo/user-repository';
import { nodeSecrets } from '../adapters/node-secrets';
import { type ApiCall, authorizeApiCall } from '../domain/developers/api-keys';
import type { ApiKeyDeps } from '../domain/developers/ports';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Each character from `crypto.randomInt`, which is uniform over the 62 (no modulo bias). */
const randomBase62 = (length: number) =>
  Array.from({ length }, () => BASE62[randomInt(BASE62.length)]).join('');

/** API keys (decision 052) over the table: `ts_test_` keys where API_KEY_MODE is `test` (the local cloud), else `ts_live_`. */
export function apiKeyDeps(): ApiKeyDeps {
  const { client, tableName } = dynamo();
  return {
    apiKeys: dynamoApiKeyStore(client, tableName),
    randomBase62,
    hash: nodeSecrets.hash,
    clock: { now: () => new Date() },
    newId: randomUUID,
    mode: process.env.API_KEY_MODE === 'test' ? 'test' : 'live',
  };
}

/** The check of a `/api/v1` call's key, for the group handler: the table only, no session code. */
export function keyAuthorizer() {
  const { client, tableName } = dynamo();
  const deps = {
    ...apiKeyDeps(),
    users: dynamoUserRepository(client, tableName),
    plans: dynamoPlanRepository(client, tableName),
    limiter: dynamoRateLimiter(client, tableName),
  };
  return (call: ApiCall) => authorizeApiCall(deps, call);
}
