import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorStore } from '../adapters/dynamo/creator-store';
import { removeCreatorData } from '../domain/community/creators';
import { creatorShareFromEnv } from './creator-share-wiring';

/** The account cascade's step for public profiles and follows (decision 059). */
export function creatorRemoval(table: { client: DynamoDBDocumentClient; tableName: string } = dynamo()): {
  removeAll(userId: string): Promise<void>;
} {
  const creators = dynamoCreatorStore(table.client, table.tableName);
  const share = creatorShareFromEnv();
  return {
    removeAll: (userId) =>
      removeCreatorData({ creators, clock: { now: () => new Date() }, ...(share ? { share } : {}) }, userId),
  };
}
