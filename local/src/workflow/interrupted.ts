/**
 * Generations the local cloud left behind when it stopped. The local runner
 * keeps its executions in memory, so a generation that was pending or
 * generating when the cloud stopped has no execution to finish it after a
 * restart; it is marked failed through the product's own `markFailed`, which
 * gives its quota unit back once.
 */
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoGenerationStore } from '@tunesmith/functions/adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '@tunesmith/functions/adapters/dynamo/quota-store';
import { markFailed } from '@tunesmith/functions/domain/generations/generation-service';

export const INTERRUPTED_REASON = 'interrupted: the local cloud stopped';

/**
 * Marks every pending or generating generation in the table failed; returns
 * their ids. Call it before the workflow runner starts, while nothing else can
 * be generating. A full scan: only for the local cloud's small table.
 */
export async function failInterruptedGenerations(
  documents: DynamoDBDocumentClient,
  tableName: string,
): Promise<string[]> {
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#entity = :generation AND #status IN (:pending, :generating)',
        ProjectionExpression: '#id',
        ExpressionAttributeNames: { '#entity': 'entity', '#status': 'status', '#id': 'id' },
        ExpressionAttributeValues: {
          ':generation': 'generation',
          ':pending': 'pending',
          ':generating': 'generating',
        },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.id));
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const deps = {
    generations: dynamoGenerationStore(documents, tableName),
    quota: dynamoQuotaStore(documents, tableName),
    clock: { now: () => new Date() },
    newId: randomUUID,
  };
  for (const id of ids) await markFailed(deps, id, INTERRUPTED_REASON);
  return ids;
}
