import { queryOptions, useQuery } from '@tanstack/react-query';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import type { Provenance } from '@tunesmith/shared/ownership';
import type { TrackStatus } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';

/** What made a track and what its owner may do with it; visible to whoever may see the track. */
export function getTrackProvenance(id: string): Promise<Provenance> {
  return apiRequest<Provenance>(catalogCalls.getTrackProvenance, { params: { id } });
}

/**
 * The track's provenance record, asked again when the track's status changes
 * (its seed and its audio's hash come when it completes).
 */
export const trackProvenanceQueryOptions = (id: string, status: TrackStatus) =>
  queryOptions({
    queryKey: [...trackQueryKey(id), 'provenance', status] as const,
    queryFn: () => getTrackProvenance(id),
  });

export function useTrackProvenance(id: string, status: TrackStatus) {
  return useQuery(trackProvenanceQueryOptions(id, status));
}
