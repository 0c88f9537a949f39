import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Plan } from '@tunesmith/shared/plans';
import { apiRequest } from '@/lib/api-client';

/** Active plans in display order. */
export function getPlans(): Promise<Plan[]> {
  return apiRequest<Plan[]>('listPlans');
}

export const plansQueryOptions = () =>
  queryOptions({
    queryKey: ['plans'],
    queryFn: getPlans,
  });

export function usePlans() {
  return useQuery(plansQueryOptions());
}
