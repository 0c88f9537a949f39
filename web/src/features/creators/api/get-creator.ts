import { queryOptions, useQuery } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { Creator } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

export const creatorKey = (handle: string) => ['creator', handle.toLowerCase()] as const;

/** A creator's page; `cursor` asks for more of their tracks. */
export function getCreator(handle: string, cursor?: string): Promise<Creator> {
  return apiRequest<Creator>(communityCalls.getCreator, { params: { handle }, query: { cursor } });
}

export const creatorQueryOptions = (handle: string) =>
  queryOptions({ queryKey: creatorKey(handle), queryFn: () => getCreator(handle), retry: false });

export function useCreator(handle: string) {
  return useQuery(creatorQueryOptions(handle));
}
