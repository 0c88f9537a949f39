import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type TimedLyrics, timedLyricsSchema } from '@tunesmith/shared/lyrics';
import { keys } from '../../data/keys';
import type { LyricsStore } from '../../domain/lyrics/lyrics-timing';
import { isConditionFailure } from './conditions';
import { transactWrite } from './transact';

/**
 * Timed lyrics on an item of their own beside the track's (`TRACK#id` /
 * `LYRICS`), so reading a track never reads them. Written only while the
 * track exists (a condition on the track's item in the same transaction);
 * the track's delete removes them.
 */
export function dynamoLyricsStore(client: DynamoDBDocumentClient, tableName: string): LyricsStore {
  return {
    async get(trackId) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: keys.trackLyrics(trackId) }));
      const parsed = timedLyricsSchema.safeParse(out.Item?.lyrics);
      return parsed.success ? parsed.data : undefined;
    },
    async put(trackId, lyrics: TimedLyrics) {
      try {
        await transactWrite(client, [
          {
            ConditionCheck: {
              TableName: tableName,
              Key: keys.generation(trackId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          { Put: { TableName: tableName, Item: { ...keys.trackLyrics(trackId), lyrics } } },
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}
