import { dashboardStats } from '../../domain/admin/dashboard';
import type { GroupHandlers } from '../group-handler';
import { json } from '../responses';

/** The admin dashboard's counters and latest activity (spec 2 section 7), the admin area's landing page. */
export function adminDashboardRoutes(deps: Parameters<typeof dashboardStats>[0]): GroupHandlers {
  return {
    adminDashboardStats: async () => json(200, await dashboardStats(deps)),
  };
}
