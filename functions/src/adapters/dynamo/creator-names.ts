import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CreatorRef } from '@tunesmith/shared/tracks';
import { creatorKeys } from '../../data/community-keys';
import type { CreatorNames } from '../../domain/community/ports';

// Apart from the creator store: the gallery, likes and track pages read names at their cold start,
// and the store's following and profiles load with their first call.

/**
 * The {@link CreatorNames} port: one BatchGetItem for a page of owners (100 keys a call); private and
 * hidden profiles are absent, so their tracks stay anonymous.
 */
export function dynamoCreatorNames(client: DynamoDBDocumentClient, tableName: string): CreatorNames {
  return {
    async names(userIds) {
      const names = new Map<string, CreatorRef>();
      const unique = [...new Set(userIds)];
      for (let i = 0; i < unique.length; i += 100) {
        let pending: Record<string, unknown>[] = unique
          .slice(i, i + 100)
          .map((id) => creatorKeys.profile(id));
        for (let round = 0; pending.length > 0; round++) {
          if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** round)));
          const out = await client.send(
            new BatchGetCommand({
              RequestItems: {
                [tableName]: {
                  Keys: pending,
                  ProjectionExpression: '#u, #h, #d, #x',
                  ExpressionAttributeNames: {
                    '#u': 'userId',
                    '#h': 'handle',
                    '#d': 'displayName',
                    '#x': 'hidden',
                  },
                },
              },
            }),
          );
          for (const item of out.Responses?.[tableName] ?? []) {
            if (typeof item.handle !== 'string' || typeof item.userId !== 'string' || item.hidden === true)
              continue;
            names.set(item.userId, {
              handle: item.handle,
              displayName: String(item.displayName ?? item.handle),
            });
          }
          pending = (out.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
          if (round > 8 && pending.length > 0) throw new Error('The creators\u2019 names could not be read');
        }
      }
      return names;
    },
  };
}
