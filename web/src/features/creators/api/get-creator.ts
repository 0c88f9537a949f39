import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { Creator } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';

export const creatorKey = (handle: string) => ['creator', handle.toLowerCase()] as const;

/** A creator's page; later pages bring more of their tracks (`cursor`). */
export function getCreator(handle: string, cursor?: string): Promise<Creator> {
  return apiRequest<Creator>(communityCalls.getCreator, { params: { handle }, query: { cursor } });
}

export const creatorQueryOptions = (handle: string) =>
  infiniteQueryOptions({
    queryKey: creatorKey(handle),
    queryFn: ({ pageParam }) => getCreator(handle, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
  });

export function useCreator(handle: string) {
  return useInfiniteQuery(creatorQueryOptions(handle));
}
