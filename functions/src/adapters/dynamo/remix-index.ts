import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { remixKeys } from '../../data/community-keys';
import type { RemixIndex } from '../../domain/community/remixes';

/**
 * A track's remixes (decision 060): one item per remix in the source's own partition
 * (`REMIXES#sourceId` / `createdAt#remixId`), newest last, naming the remix and nobody.
 */
export function dynamoRemixIndex(client: DynamoDBDocumentClient, tableName: string): RemixIndex {
  return {
    async add(sourceId, remix) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...remixKeys.entry(sourceId, remix.createdAt, remix.id),
            entity: 'remix',
            remixId: remix.id,
          },
        }),
      );
    },
    async list(sourceId, limit) {
      const ids: { id: string; entry: string }[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': remixKeys.partition(sourceId) },
            ScanIndexForward: false,
            Limit: limit - ids.length,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of out.Items ?? [])
          if (typeof item.remixId === 'string') ids.push({ id: item.remixId, entry: String(item.sk) });
        start = out.LastEvaluatedKey;
      } while (start && ids.length < limit);
      return ids;
    },
    async remove(sourceId, entry) {
      await client.send(
        new DeleteCommand({ TableName: tableName, Key: { pk: remixKeys.partition(sourceId), sk: entry } }),
      );
    },
    async forget(track) {
      const keysOf: { pk: string; sk: string }[] = [];
      if (track.remixOf) keysOf.push(remixKeys.entry(track.remixOf.trackId, track.createdAt, track.id));
      let start: Record<string, unknown> | undefined;
      do {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': remixKeys.partition(track.id) },
            ProjectionExpression: 'pk, sk',
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of out.Items ?? []) keysOf.push({ pk: String(item.pk), sk: String(item.sk) });
        start = out.LastEvaluatedKey;
      } while (start);
      for (const key of keysOf) await client.send(new DeleteCommand({ TableName: tableName, Key: key }));
    },
  };
}
