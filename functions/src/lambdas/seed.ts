import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { seedDefaults } from '../domain/seed';
import { logger } from '../http/logger';

/**
 * CloudFormation custom resource handler (through the CDK Provider framework):
 * seeds default plans and settings on create and update; nothing on delete.
 */
export const handler = async (event: { RequestType: 'Create' | 'Update' | 'Delete' }) => {
  if (event.RequestType !== 'Delete') {
    const { client, tableName } = dynamo();
    const result = await seedDefaults({
      plans: dynamoPlanRepository(client, tableName),
      settings: dynamoSettingsRepository(client, tableName),
    });
    logger.info('seeded', { ...result });
  }
  return { PhysicalResourceId: 'tunesmith-seed' };
};
