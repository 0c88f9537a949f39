import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { planSchema } from '@tunesmith/shared/plans';
import { keys, tableDesign } from '../../data/keys';
import type { Plan, PlanRepository } from '../../domain/plans/plan';

const entity = 'plan';

function toItem(plan: Plan): Record<string, unknown> {
  return { ...keys.plan(plan.id), ...keys.planOrder(plan.sortOrder, plan.name), entity, ...plan };
}

function fromItem(item: Record<string, unknown>): Plan {
  return planSchema.parse(item);
}

/** Plans in the single table, listed in sort order through gsi1. */
export function dynamoPlanRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
): PlanRepository & { delete(id: string): Promise<void> } {
  const index = tableDesign.indexes.byOwner;
  return {
    async listBySortOrder() {
      const plans: Plan[] = [];
      let startKey: Record<string, unknown> | undefined;
      // Plans are a handful of items; the loop guards against a surprise page break.
      for (let page = 0; page < 10; page++) {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: index.indexName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': index.partitionKey },
            ExpressionAttributeValues: { ':pk': keys.plansCollection },
            ExclusiveStartKey: startKey,
          }),
        );
        plans.push(...(out.Items ?? []).map(fromItem));
        startKey = out.LastEvaluatedKey;
        if (!startKey) break;
      }
      return plans;
    },
    async get(id) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: keys.plan(id) }));
      return out.Item ? fromItem(out.Item) : undefined;
    },
    async put(plan) {
      await client.send(new PutCommand({ TableName: tableName, Item: toItem(plan) }));
    },
    async delete(id) {
      await client.send(new DeleteCommand({ TableName: tableName, Key: keys.plan(id) }));
    },
  };
}
