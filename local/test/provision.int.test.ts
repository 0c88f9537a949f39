import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableDesign } from '@tunesmith/functions/data/keys';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../src/provision';

// The table on kept data: an index the code gained is added (with the items
// already there), and a table already in shape costs one describe call.

const env = inject('cloudEnv');
const tableName = `provision-${randomUUID().slice(0, 8)}`;
const base = new DynamoDBClient({
  region: env.AWS_REGION ?? 'us-east-1',
  endpoint: env.DYNAMODB_ENDPOINT ?? '',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});

afterAll(async () => {
  if (inject('isLocal')) await base.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  base.destroy();
});

describe.runIf(inject('isLocal'))('ensureTable', () => {
  it('adds an index the design gained to a table with data, and then leaves it', async () => {
    const { gallery, ...older } = tableDesign.indexes;
    expect(await ensureTable(base, tableName, { ...tableDesign, indexes: older })).toEqual({
      created: true,
      indexesAdded: [],
    });
    const documents = DynamoDBDocumentClient.from(base);
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: { pk: 'TRACK#1', sk: 'TRACK', [gallery.partitionKey]: 'GALLERY', [gallery.sortKey]: '2026#1' },
      }),
    );

    expect(await ensureTable(base, tableName)).toEqual({ created: false, indexesAdded: [gallery.indexName] });
    const described = await base.send(new DescribeTableCommand({ TableName: tableName }));
    expect(described.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
      Object.values(tableDesign.indexes)
        .map((index) => index.indexName)
        .sort(),
    );
    const listed = await documents.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: gallery.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': gallery.partitionKey },
        ExpressionAttributeValues: { ':pk': 'GALLERY' },
      }),
    );
    expect(listed.Items?.map((item) => item.pk)).toEqual(['TRACK#1']);

    expect(await ensureTable(base, tableName)).toEqual({ created: false, indexesAdded: [] });
  });
});
