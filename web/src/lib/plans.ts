import { queryOptions } from '@tanstack/react-query';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import type { Plan } from '@tunesmith/shared/plans';
import { apiRequest } from './api-client';
import { plansQueryKey } from './query-keys';

/** Active plans in display order. */
export function getPlans(): Promise<Plan[]> {
  return apiRequest<Plan[]>(catalogCalls.listPlans);
}

/** The public plan list: Pricing shows it, and the sign-in page names the plan a visitor chose. */
export const plansQueryOptions = () =>
  queryOptions({
    queryKey: plansQueryKey,
    queryFn: getPlans,
  });
