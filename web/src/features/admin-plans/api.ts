import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminPlanListSchema, type PlanInput } from '@tunesmith/shared/admin';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import { planSchema } from '@tunesmith/shared/plans';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys, plansQueryKey } from '@/lib/query-keys';

export function useAllPlans() {
  return useQuery({
    queryKey: adminQueryKeys.plans,
    queryFn: async () => adminPlanListSchema.parse(await apiRequest(adminCalls.adminListPlans)),
  });
}

/** After any plan change the admin list and Pricing's list are fetched again. */
function usePlanMutation<V, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.plans });
      void queryClient.invalidateQueries({ queryKey: plansQueryKey });
    },
  });
}

export const useSavePlan = () =>
  usePlanMutation(async ({ id, input }: { id?: string; input: PlanInput }) =>
    planSchema.parse(
      id
        ? await apiRequest(adminCalls.adminUpdatePlan, { params: { id }, body: input })
        : await apiRequest(adminCalls.adminCreatePlan, { body: input }),
    ),
  );

export const useDeletePlan = () =>
  usePlanMutation((id: string) => apiRequest(adminCalls.adminDeletePlan, { params: { id } }));
