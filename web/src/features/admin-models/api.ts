import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as modelCalls from '@tunesmith/shared/calls/models';
import { adminModelsSchema, type ModelSettings } from '@tunesmith/shared/model-settings';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';

/** The registry, the settings in force, the plans and this week's use of each model. */
export function useAdminModels() {
  return useQuery({
    queryKey: adminQueryKeys.models,
    queryFn: async () => adminModelsSchema.parse(await apiRequest(modelCalls.adminGetModels)),
  });
}

/** Saves the whole settings document; the page, the dashboard and the create form's models are asked again. */
export function useSaveModels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ModelSettings) => apiRequest(modelCalls.adminUpdateModels, { body: settings }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.models });
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.stats });
      void queryClient.invalidateQueries({ queryKey: ['models'] });
    },
  });
}
