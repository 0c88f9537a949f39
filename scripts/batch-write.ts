import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const BATCH = 25; // DynamoDB's BatchWriteItem limit
const PARALLEL_BATCHES = 8;

/**
 * Writes `items` in batches of 25, a few batches at a time, retrying what DynamoDB leaves
 * unprocessed: every seeding step's writer (seed-load.ts and its steps).
 */
export async function batchWrite(
  documents: DynamoDBDocumentClient,
  tableName: string,
  items: Record<string, unknown>[],
  onProgress?: (written: number, total: number) => void,
): Promise<void> {
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < items.length) {
      const batch = items.slice(next, next + BATCH);
      next += BATCH;
      let requests = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 10) throw new Error('DynamoDB kept items unprocessed after 10 retries');
        const out = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
        requests = (out.UnprocessedItems?.[tableName] ?? []) as typeof requests;
        if (requests.length > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      }
      written += batch.length;
      onProgress?.(written, items.length);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, worker));
}
