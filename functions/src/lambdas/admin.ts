/**
 * Route group `admin`: the admin area's data calls.
 * Env: TABLE_NAME, AWS_REGION, UPLOADS_BUCKET, TRACKS_BUCKET, the session
 * variables, the audio signing key (audio-wiring.ts), Stripe's keys (a
 * deleted user's subscription ends at once), STRIPE_API_BASE locally (a
 * Stripe secret key is tried there before it is saved), and
 * SETTINGS_KMS_KEY_ID (or SETTINGS_LOCAL_KEY locally) for secret settings,
 * and the pricing page's document (SITE_BUCKET, or PRICING_PAGE_FILE locally).
 *
 * The dashboard, the area's landing page, is served from the cold start; the
 * other routes (admin-wiring.ts) load with the first request for one of them
 * (decision 042).
 */
import { type RouteId, routesOfGroup } from '@tunesmith/shared/routes';
import { dynamoAuditLog } from '../adapters/dynamo/audit-log';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoModelUsage, dynamoSiteCounters } from '../adapters/dynamo/counters';
import { createGroupHandler, type LambdaHandler, lazyRoutes } from '../http/group-handler';
import { adminDashboardRoutes } from '../http/routes/admin-dashboard';
import { sessionWiring } from './session-wiring';

const DASHBOARD = 'adminDashboardStats';

let built: LambdaHandler | undefined;

export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'admin',
      {
        ...adminDashboardRoutes({
          counters: dynamoSiteCounters(client, tableName),
          audit: dynamoAuditLog(client, tableName),
          clock: { now: () => new Date() },
          modelUsage: dynamoModelUsage(client, tableName),
        }),
        ...lazyRoutes(
          routesOfGroup('admin')
            .map((route) => route.id as RouteId)
            .filter((id) => id !== DASHBOARD),
          async () => (await import('./admin-wiring')).adminAreaRoutes(),
        ),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
