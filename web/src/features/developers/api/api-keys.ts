import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as developerCalls from '@tunesmith/shared/calls/developers';
import {
  type ApiKeyView,
  apiKeyListSchema,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createdApiKeySchema,
} from '@tunesmith/shared/developer-api';
import { apiRequest } from '@/lib/api-client';

export const apiKeysQueryKey = ['developers', 'api-keys'] as const;

/** The user's live keys (`GET /api/user/api-keys`): never the keys themselves, only their prefixes. */
export async function listApiKeys(): Promise<ApiKeyView[]> {
  return apiKeyListSchema.parse(await apiRequest(developerCalls.listApiKeys)).keys;
}

export const apiKeysQueryOptions = () => queryOptions({ queryKey: apiKeysQueryKey, queryFn: listApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}

/** Creates a key (`POST /api/user/api-keys`, 201): the answer is the only time the whole key is seen. */
export async function createApiKey(input: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return createdApiKeySchema.parse(await apiRequest(developerCalls.createApiKey, { body: input }));
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

/** Revokes a key at once (`DELETE /api/user/api-keys/{id}`, 204). */
export async function revokeApiKey(id: string): Promise<void> {
  await apiRequest(developerCalls.revokeApiKey, { params: { id } });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (_, id) =>
      // Gone from the list at once; the read that follows confirms it.
      queryClient.setQueryData<ApiKeyView[]>(apiKeysQueryKey, (keys) => keys?.filter((key) => key.id !== id)),
    // Read again after a refusal too: a key revoked meanwhile elsewhere is a 404 here.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
