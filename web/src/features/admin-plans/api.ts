import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminPlanListSchema, planInputSchema } from '@tunesmith/shared/admin';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import { planSchema } from '@tunesmith/shared/plans';
import type * as z from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys, plansQueryKey } from '@/lib/query-keys';

/** A plan as the admin area edits it, its API access included (on for plans stored before the setting). */
export const adminPlanSchema = planSchema;
export type AdminPlan = z.infer<typeof adminPlanSchema>;

/** The plan form's body. */
export const adminPlanInputSchema = planInputSchema;
export type AdminPlanInput = z.infer<typeof adminPlanInputSchema>;
export type AdminPlanFormValues = z.input<typeof adminPlanInputSchema>;

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
  usePlanMutation(async ({ id, input }: { id?: string; input: AdminPlanInput }) =>
    adminPlanSchema.parse(
      id
        ? await apiRequest(adminCalls.adminUpdatePlan, { params: { id }, body: input })
        : await apiRequest(adminCalls.adminCreatePlan, { body: input }),
    ),
  );

export const useDeletePlan = () =>
  usePlanMutation((id: string) => apiRequest(adminCalls.adminDeletePlan, { params: { id } }));
