import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminSetting,
  type AdminUpdateSettingInput,
  adminSettingListSchema,
  adminSettingSchema,
} from '@tunesmith/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';

export function useSettings() {
  return useQuery({
    queryKey: adminQueryKeys.settings,
    queryFn: async () => adminSettingListSchema.parse(await apiRequest('adminListSettings')),
  });
}

export function useSaveSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AdminUpdateSettingInput) =>
      adminSettingSchema.parse(await apiRequest('adminUpdateSetting', { body: input })),
    onSuccess: (saved: AdminSetting) => {
      queryClient.setQueryData<AdminSetting[]>(adminQueryKeys.settings, (list) =>
        list?.map((setting) => (setting.key === saved.key ? saved : setting)),
      );
    },
  });
}
