import { apiKeyListSchema, createApiKeySchema, createdApiKeySchema } from '@tunesmith/shared/developer-api';
import type { User } from '../../domain/accounts/user';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/developers/api-keys';
import type { ApiKeyDeps } from '../../domain/developers/ports';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

/** Profile → Developers: a user's own API keys (decision 052). */
export function apiKeyRoutes(deps: ApiKeyDeps): GroupHandlers {
  return {
    createApiKey: async (event, ctx) => {
      const request = readJson(event, createApiKeySchema);
      return json(201, createdApiKeySchema.parse(await createApiKey(deps, (ctx.user as User).id, request)));
    },
    listApiKeys: async (_event, ctx) =>
      json(200, apiKeyListSchema.parse({ keys: await listApiKeys(deps, (ctx.user as User).id) })),
    revokeApiKey: async (_event, ctx) => {
      await revokeApiKey(deps, (ctx.user as User).id, ctx.params.id ?? '');
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },
  };
}
