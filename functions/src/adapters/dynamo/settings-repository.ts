import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { settingKeys } from '@tunesmith/shared/settings';
import * as z from 'zod/mini';
import { keys } from '../../data/keys';
import type { Setting, SettingsRepository } from '../../domain/settings/settings';
import { isConditionFailure } from './conditions';

const settingSchema = z.object({
  key: z.enum(settingKeys),
  value: z.string(),
  description: z.string(),
  type: z.string(),
  category: z.string(),
  updatedAt: z.string(),
});

const toItem = (setting: Setting) => ({ ...keys.setting(setting.key), entity: 'setting', ...setting });

/** Site settings: one partition, one item per key. */
export function dynamoSettingsRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
): SettingsRepository {
  return {
    async list() {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.settingsPartition },
          Limit: 100,
        }),
      );
      return (out.Items ?? []).flatMap((item) => {
        const parsed = settingSchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
    },
    async get(key) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: keys.setting(key) }));
      return out.Item ? settingSchema.parse(out.Item) : undefined;
    },
    async put(setting) {
      await client.send(new PutCommand({ TableName: tableName, Item: toItem(setting) }));
    },
    async putIfAbsent(setting) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: toItem(setting),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}
