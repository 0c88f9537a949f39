import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../data/keys';
import { notFound } from '../../domain/errors';
import type { QuotaStore } from '../../domain/generations/ports';
import { isConditionFailure } from './conditions';

/** The spec's field name; it counts the current weekly window. */
const USED = 'generationsUsedThisMonth';
const WINDOW = 'quotaWindowStart';

/**
 * The weekly quota as conditional updates on the user's profile item: no read
 * decides a write, so concurrent reservations can never take more than the limit.
 */
export function dynamoQuotaStore(client: DynamoDBDocumentClient, tableName: string): QuotaStore {
  const names = { '#used': USED, '#win': WINDOW };

  /** Same window, and `units` more stay within the limit: that many more. */
  const takeInWindow = async (userId: string, limit: number, windowStart: string, units: number) => {
    try {
      const out = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.user(userId),
          UpdateExpression: 'SET #used = if_not_exists(#used, :zero) + :units',
          ConditionExpression: 'attribute_exists(pk) AND #win = :w AND #used <= :most',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':zero': 0,
            ':units': units,
            ':w': windowStart,
            ':most': limit - units,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(out.Attributes?.[USED]);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  };

  /** No window yet, or an older one: the count restarts at `units` in this window. */
  const startWindow = async (userId: string, windowStart: string, units: number) => {
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.user(userId),
          UpdateExpression: 'SET #used = :units, #win = :w',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#win) OR #win < :w)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':units': units, ':w': windowStart },
        }),
      );
      return units;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  };

  const read: QuotaStore['read'] = async (userId) => {
    const out = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.user(userId),
        ConsistentRead: true,
        ProjectionExpression: '#used, #win',
        ExpressionAttributeNames: names,
      }),
    );
    if (!out.Item) return undefined;
    const used = out.Item[USED];
    const win = out.Item[WINDOW];
    return { used: typeof used === 'number' ? used : 0, windowStart: typeof win === 'string' ? win : null };
  };

  return {
    async reserve(userId, { limit, windowStart, units = 1 }) {
      if (limit >= units) {
        // In the same window first (the common case), then a window change. If the
        // change lost to a concurrent one, the window is now ours: try once more.
        const used =
          (await takeInWindow(userId, limit, windowStart, units)) ??
          (await startWindow(userId, windowStart, units)) ??
          (await takeInWindow(userId, limit, windowStart, units));
        if (used !== undefined) return { ok: true, used };
      }
      const stored = await read(userId);
      if (!stored) throw notFound('Account not found');
      return { ok: false, used: stored.windowStart === windowStart ? stored.used : 0, limit };
    },
    async refund(userId, windowStart, units = 1) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.user(userId),
            UpdateExpression: 'SET #used = #used - :units',
            ConditionExpression: '#win = :w AND #used >= :units',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':units': units, ':w': windowStart },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    read,
  };
}
