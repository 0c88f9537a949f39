import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  type AdminAssignPlanInput,
  type AdminUpdateUserInput,
  type AdminUserList,
  type AdminUserView,
  adminPlanListSchema,
  adminUserListSchema,
  adminUserSchema,
} from '@tunesmith/shared/admin';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';
import { refreshQueries } from '@/lib/refresh-queries';

export function useAdminUsers(q: string) {
  return useInfiniteQuery({
    queryKey: [...adminQueryKeys.users, q],
    queryFn: async ({ pageParam }) =>
      adminUserListSchema.parse(
        await apiRequest(adminCalls.adminListUsers, { query: { q: q || undefined, cursor: pageParam } }),
      ),
    initialPageParam: undefined as string | undefined,
    // The rows on screen stay while a new search loads (and keep their pending actions).
    placeholderData: keepPreviousData,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useActivePlans() {
  return useQuery({
    queryKey: adminQueryKeys.plans,
    queryFn: async () => adminPlanListSchema.parse(await apiRequest(adminCalls.adminListPlans)),
    select: (plans) => plans.filter((plan) => plan.isActive),
  });
}

/** Puts an updated user in every cached page at once, then refreshes lists and counters. */
function useUserMutation<V>(call: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => adminUserSchema.parse(await call(variables)),
    onSuccess: (user: AdminUserView) => {
      queryClient.setQueriesData<InfiniteData<AdminUserList>>({ queryKey: adminQueryKeys.users }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                users: page.users.map((u) => (u.id === user.id ? user : u)),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.stats });
    },
  });
}

export const useUpdateUser = () =>
  useUserMutation(({ id, changes }: { id: string; changes: AdminUpdateUserInput }) =>
    apiRequest(adminCalls.adminUpdateUser, { params: { id }, body: changes }),
  );

export const useAssignPlan = () =>
  useUserMutation(({ id, input }: { id: string; input: AdminAssignPlanInput }) =>
    apiRequest(adminCalls.adminAssignPlan, { params: { id }, body: input }),
  );

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(adminCalls.adminDeleteUser, { params: { id } }),
    onSuccess: () =>
      void refreshQueries(queryClient, adminQueryKeys.users, adminQueryKeys.stats, adminQueryKeys.tracks),
  });
}
