import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import { adminReportListSchema, adminReportSchema, type ReportAction } from '@tunesmith/shared/community';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';

export function useAdminReports() {
  return useQuery({
    queryKey: adminQueryKeys.reports,
    queryFn: async () => adminReportListSchema.parse(await apiRequest(adminCalls.adminListReports)),
  });
}

/** Acts on a report; the list is read again, since the subject's other open reports move with it. */
export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: ReportAction }) =>
      adminReportSchema.parse(
        await apiRequest(adminCalls.adminResolveReport, { params: { reportId: id }, body: { action } }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.reports });
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.tracks });
    },
  });
}
