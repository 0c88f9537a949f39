import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminSetting,
  type AdminUpdateSettingInput,
  adminSettingListSchema,
  adminSettingSchema,
} from '@tunesmith/shared/admin';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';
import { rememberSite, type Site } from '@/lib/site';

/** The public settings the site shows, by the field of the public site they fill. */
const siteFields: Partial<Record<AdminSetting['key'], keyof Site>> = {
  site_name: 'name',
  site_description: 'description',
  support_email: 'supportEmail',
  contact_email: 'contactEmail',
};

export function useSettings() {
  return useQuery({
    queryKey: adminQueryKeys.settings,
    queryFn: async () => adminSettingListSchema.parse(await apiRequest(adminCalls.adminListSettings)),
  });
}

export function useSaveSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AdminUpdateSettingInput) =>
      adminSettingSchema.parse(await apiRequest(adminCalls.adminUpdateSetting, { body: input })),
    onSuccess: (saved: AdminSetting) => {
      queryClient.setQueryData<AdminSetting[]>(adminQueryKeys.settings, (list) =>
        list?.map((setting) => (setting.key === saved.key ? saved : setting)),
      );
      // A new name or address shows at once, here and on the site's pages.
      const field = siteFields[saved.key];
      if (field) rememberSite(queryClient, { [field]: saved.value });
    },
  });
}
