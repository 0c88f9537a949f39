import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { modelSettingsSchema } from '@tunesmith/shared/model-settings';
import { keys } from '../../data/keys';
import type { ModelSettingsStore } from '../../domain/models/model-settings';

/**
 * The models' settings (decision 051): one item in the settings partition.
 * A stored document that no longer parses reads as none (the defaults).
 */
export function dynamoModelSettingsStore(
  client: DynamoDBDocumentClient,
  tableName: string,
): ModelSettingsStore {
  return {
    async get() {
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.modelSettings, ConsistentRead: true }),
      );
      const parsed = modelSettingsSchema.safeParse(out.Item?.settings);
      return parsed.success ? parsed.data : undefined;
    },
    async put(settings) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.modelSettings,
            entity: 'model-settings',
            settings,
            updatedAt: new Date().toISOString(),
          },
        }),
      );
    },
  };
}
