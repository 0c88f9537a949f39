/**
 * The workflow's CallbackStore in the single table: one item per provider request
 * (`CALLBACK#<requestId>` / `CALLBACK`, expiring after a day). Each side writes its
 * half with one UpdateItem and reads the other half from the old image, so the
 * second writer always sees the first.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, tableDesign } from '../data/keys';
import type { CallbackOutcome, CallbackStore } from './steps';

export const callbackKey = keys.workflowCallback;
const TTL_SECONDS = 24 * 60 * 60;

export function dynamoCallbackStore(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: () => Date = () => new Date(),
): CallbackStore {
  const write = async (requestId: string, name: 'taskToken' | 'outcome', value: unknown) => {
    const out = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: callbackKey(requestId),
        UpdateExpression: 'SET #v = :v, #ttl = :ttl',
        ExpressionAttributeNames: { '#v': name, '#ttl': tableDesign.ttlAttribute },
        ExpressionAttributeValues: { ':v': value, ':ttl': Math.floor(now().getTime() / 1000) + TTL_SECONDS },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return out.Attributes ?? {};
  };
  return {
    async register(requestId, taskToken) {
      const old = await write(requestId, 'taskToken', taskToken);
      return old.outcome ? { outcome: old.outcome as CallbackOutcome } : {};
    },
    async complete(requestId, outcome) {
      const old = await write(requestId, 'outcome', outcome);
      return typeof old.taskToken === 'string' ? { taskToken: old.taskToken } : {};
    },
  };
}
