import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { runtimeConfig } from '../../config';
import { awsClientDefaults } from '../client-options';
import { traced } from '../tracing';

let cached: { client: DynamoDBDocumentClient; tableName: string } | undefined;

/** One document client per runtime, reused across invocations. */
export function dynamo(): { client: DynamoDBDocumentClient; tableName: string } {
  if (!cached) {
    const config = runtimeConfig();
    const base = traced(
      new DynamoDBClient({
        ...awsClientDefaults,
        region: config.region,
        ...(config.dynamoEndpoint ? { endpoint: config.dynamoEndpoint } : {}),
      }),
    );
    cached = {
      client: DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }),
      tableName: config.tableName,
    };
  }
  return cached;
}

/** Opaque pagination cursors: the LastEvaluatedKey as base64url JSON. */
export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;
}

export function decodeCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An UpdateItem `SET` clause for the defined fields of `changes`, with
 * placeholder names and values; undefined when there is nothing to set.
 */
export function setClause(changes: Record<string, unknown>):
  | {
      UpdateExpression: string;
      ExpressionAttributeNames: Record<string, string>;
      ExpressionAttributeValues: Record<string, unknown>;
    }
  | undefined {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return undefined;
  return {
    UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
  };
}
