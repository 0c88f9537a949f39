import { type DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, tableDesign } from '../../data/keys';
import { dayCountsOfGeneration, trackTotalsDelta, utcDay } from '../../domain/admin/counters';
import { conflict, validationError } from '../../domain/errors';
import type { GenerationStore } from '../../domain/generations/ports';
import { modelCountsOfStart, modelSpendOfCompletion } from '../../domain/models/model-usage';
import { CURSOR_INVALID, isGalleryVisible } from '../../domain/tracks/track';
import { decodeCursor, encodeCursor } from './client';
import { isConditionFailure } from './conditions';
import { counterUpdate, totalsUpdate } from './counters';
import { dynamoGenerationRepository, generationFromItem, generationToItem } from './generation-repository';
import { transactWrite } from './transact';

const present = <T>(item: T | undefined): item is T => item !== undefined;

/** Version counter for compare-and-set updates; items written before it existed have none. */
const REV = 'rev';
const MAX_ATTEMPTS = 8;
const KEY_ATTRIBUTES = new Set<string>([tableDesign.partitionKey, tableDesign.sortKey]);
/** The sparse keys a track carries only while it is listed: the gallery's and its creator's (decision 056). */
const GALLERY_ATTRIBUTES = [
  tableDesign.indexes.gallery.partitionKey,
  tableDesign.indexes.gallery.sortKey,
  tableDesign.indexes.ranking.partitionKey,
  tableDesign.indexes.ranking.sortKey,
];

/**
 * Generations in the single table. Every change is a compare-and-set on `rev`
 * that rewrites all attributes from the new version, so the sparse gallery keys
 * always match status, visibility and showInGallery (REMOVEd when the track
 * leaves the gallery), whatever changes concurrently.
 */
export function dynamoGenerationStore(client: DynamoDBDocumentClient, tableName: string): GenerationStore {
  const repository = dynamoGenerationRepository(client, tableName);
  const owner = tableDesign.indexes.byOwner;

  const getItem = async (id: string) => {
    const out = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.generation(id), ConsistentRead: true }),
    );
    return out.Item;
  };

  return {
    ...repository,
    async create(generation) {
      try {
        // The site's counters move in the same transaction as the track they count.
        await transactWrite(
          client,
          [
            {
              Put: {
                TableName: tableName,
                Item: { ...generationToItem(generation), [REV]: 1 },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            totalsUpdate(tableName, trackTotalsDelta(undefined, generation)),
            // The day's counters, its model's among them (decision 051).
            counterUpdate(tableName, keys.dailyStats(utcDay(generation.createdAt)), {
              ...dayCountsOfGeneration(generation.type),
              ...modelCountsOfStart(generation),
            }),
          ].filter(present),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw conflict('A generation with this id exists.');
        throw error;
      }
    },
    async get(id) {
      const item = await getItem(id);
      return item ? generationFromItem(item) : undefined;
    },
    async update(id, change) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const item = await getItem(id);
        if (!item) return undefined;
        const before = generationFromItem(item);
        const after = change(structuredClone(before));
        if (!after) return { before, after: undefined };
        // Identity and ownership never change through an update.
        const next = { ...after, id: before.id, userId: before.userId, createdAt: before.createdAt };
        const rev = typeof item[REV] === 'number' ? item[REV] : undefined;
        const entries = Object.entries(generationToItem(next)).filter(
          ([name, value]) => !KEY_ATTRIBUTES.has(name) && value !== undefined,
        );
        const names: Record<string, string> = { '#rev': REV };
        const values: Record<string, unknown> = { ':nextRev': (rev ?? 0) + 1 };
        const sets = entries.map(([name, value], i) => {
          names[`#a${i}`] = name;
          values[`:a${i}`] = value;
          return `#a${i} = :a${i}`;
        });
        sets.push('#rev = :nextRev');
        let update = `SET ${sets.join(', ')}`;
        if (!isGalleryVisible(next)) {
          GALLERY_ATTRIBUTES.forEach((name, i) => {
            names[`#g${i}`] = name;
          });
          update += ` REMOVE ${GALLERY_ATTRIBUTES.map((_, i) => `#g${i}`).join(', ')}`;
        }
        if (rev !== undefined) values[':rev'] = rev;
        const write = {
          TableName: tableName,
          Key: keys.generation(id),
          UpdateExpression: update,
          ConditionExpression:
            rev === undefined ? 'attribute_exists(pk) AND attribute_not_exists(#rev)' : '#rev = :rev',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        };
        // The totals, and a completion's provider spend on its model's counter of the day it started.
        const counters = [
          totalsUpdate(tableName, trackTotalsDelta(before, next)),
          counterUpdate(
            tableName,
            keys.dailyStats(utcDay(before.createdAt)),
            modelSpendOfCompletion(before, next),
          ),
        ].filter(present);
        try {
          if (counters.length) await transactWrite(client, [{ Update: write }, ...counters]);
          else await client.send(new UpdateCommand(write));
          return { before, after: next };
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          // Someone changed it in between: read again and reapply.
        }
      }
      throw new Error(`Generation ${id} is changing too often to update`);
    },
    async listByUser(userId, { limit, cursor }) {
      const start = decodeCursor(cursor);
      // A cursor comes back from outside (`/api/v1`): one not of this user's list is refused, not sent on.
      if (cursor && start?.[owner.partitionKey] !== keys.generationOwnerPartition(userId)) {
        throw validationError(CURSOR_INVALID);
      }
      // One extra item tells whether another page exists, so the last page has no cursor.
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: owner.indexName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': owner.partitionKey, '#sk': owner.sortKey },
          ExpressionAttributeValues: {
            ':pk': keys.generationOwnerPartition(userId),
            ':prefix': keys.generationOwnerPrefix,
          },
          ScanIndexForward: false,
          Limit: limit + 1,
          ExclusiveStartKey: start,
        }),
      );
      const raw = out.Items ?? [];
      const page = raw.slice(0, limit);
      const last = page.at(-1);
      const more = raw.length > limit || (raw.length === limit && out.LastEvaluatedKey !== undefined);
      const nextCursor =
        more && last
          ? encodeCursor({
              pk: last.pk,
              sk: last.sk,
              [owner.partitionKey]: last[owner.partitionKey],
              [owner.sortKey]: last[owner.sortKey],
            })
          : undefined;
      return { items: page.map(generationFromItem), ...(nextCursor ? { cursor: nextCursor } : {}) };
    },
    async delete(id, userId) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const item = await getItem(id);
        if (!item || item.userId !== userId) return undefined;
        const generation = generationFromItem(item);
        const rev = typeof item[REV] === 'number' ? item[REV] : undefined;
        try {
          // Only the version read is deleted, so the counters move by exactly what it counted.
          await transactWrite(
            client,
            [
              {
                Delete: {
                  TableName: tableName,
                  Key: keys.generation(id),
                  ConditionExpression:
                    rev === undefined
                      ? 'userId = :userId AND attribute_not_exists(#rev)'
                      : 'userId = :userId AND #rev = :rev',
                  ExpressionAttributeNames: { '#rev': REV },
                  ExpressionAttributeValues: {
                    ':userId': userId,
                    ...(rev === undefined ? {} : { ':rev': rev }),
                  },
                },
              },
              totalsUpdate(tableName, trackTotalsDelta(generation, undefined)),
              // Its timed lyrics go with it.
              { Delete: { TableName: tableName, Key: keys.trackLyrics(id) } },
            ].filter(present),
          );
          return generation;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          // Changed or deleted in between: read again.
        }
      }
      throw new Error(`Generation ${id} is changing too often to delete`);
    },
  };
}
