import {
  type DynamoDBDocumentClient,
  GetCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';

type TransactWriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

import { keys } from '../../data/keys';
import { type DayCounts, type Totals, utcDay, zeroDay, zeroTotals } from '../../domain/admin/counters';
import type { SiteCounters } from '../../domain/admin/ports';
import type { ModelDayUsage, ModelUsageCounters } from '../../domain/models/model-usage';

type Deltas = Record<string, number | undefined>;

/**
 * A transaction item that adds `deltas` to a counter item (created at zero
 * by the first ADD). Undefined when nothing changes.
 */
export function counterUpdate(
  tableName: string,
  key: { pk: string; sk: string },
  deltas: Deltas,
): { Update: NonNullable<TransactWriteItem['Update']> } | undefined {
  const entries = Object.entries(deltas).filter((entry): entry is [string, number] => !!entry[1]);
  if (entries.length === 0) return undefined;
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:c${i}`, value])),
    },
  };
}

export const totalsUpdate = (tableName: string, deltas: Partial<Totals>) =>
  counterUpdate(tableName, keys.totals, deltas);

export const dayUpdate = (tableName: string, at: string, deltas: Partial<DayCounts>) =>
  counterUpdate(tableName, keys.dailyStats(utcDay(at)), deltas);

const numberOr0 = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The counter items: two reads whatever the size of the table. */
export function dynamoSiteCounters(client: DynamoDBDocumentClient, tableName: string): SiteCounters {
  const read = async (key: { pk: string; sk: string }) =>
    (await client.send(new GetCommand({ TableName: tableName, Key: key }))).Item ?? {};
  return {
    async totals() {
      const item = await read(keys.totals);
      const totals = zeroTotals();
      for (const name of Object.keys(totals) as (keyof Totals)[]) totals[name] = numberOr0(item[name]);
      return totals;
    },
    async day(date) {
      const item = await read(keys.dailyStats(date));
      const day = zeroDay();
      for (const name of Object.keys(day) as (keyof DayCounts)[]) day[name] = numberOr0(item[name]);
      return day;
    },
  };
}

const MODEL_COUNTER = /^model#(.+)#(generations|spendMicroUsd)$/;

/** Each model's counters on the daily items (decision 051): one read per day. */
export function dynamoModelUsage(client: DynamoDBDocumentClient, tableName: string): ModelUsageCounters {
  return {
    async day(date) {
      const item = (await client.send(new GetCommand({ TableName: tableName, Key: keys.dailyStats(date) })))
        .Item;
      const usage: Record<string, ModelDayUsage> = {};
      for (const [name, value] of Object.entries(item ?? {})) {
        const match = MODEL_COUNTER.exec(name);
        if (!match) continue;
        const id = match[1] as string;
        const counted = usage[id] ?? { generations: 0, spendMicroUsd: 0 };
        counted[match[2] as keyof ModelDayUsage] = numberOr0(value);
        usage[id] = counted;
      }
      return usage;
    },
  };
}
