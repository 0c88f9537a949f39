import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { isTransactionConflict } from './conditions';

const ATTEMPTS = 8;

/**
 * A write transaction, tried again (with jittered backoff) while it loses to
 * concurrent transactions on a shared item such as the site's counters. A
 * failed condition is not retried: it is the caller's answer.
 */
export async function transactWrite(
  client: DynamoDBDocumentClient,
  items: NonNullable<TransactWriteCommandInput['TransactItems']>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * 2 ** attempt));
    }
  }
}
