/**
 * The daily usage_analytics job: an EventBridge schedule runs it shortly after
 * midnight UTC (the local cloud on start and daily). Env: TABLE_NAME, AWS_REGION.
 */
import { dynamoUsageAnalytics } from '../adapters/dynamo/admin-directory';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoSiteCounters } from '../adapters/dynamo/counters';
import { recordUsageAnalytics } from '../domain/admin/dashboard';
import { logger } from '../http/logger';

export const handler = async (): Promise<{ date: string; written: boolean }> => {
  const { client, tableName } = dynamo();
  const result = await recordUsageAnalytics({
    counters: dynamoSiteCounters(client, tableName),
    analytics: dynamoUsageAnalytics(client, tableName),
    clock: { now: () => new Date() },
  });
  logger.info('usage analytics', result);
  return result;
};
