import { dynamo } from '../adapters/dynamo/client';
import { dynamoExportRepository } from '../adapters/dynamo/export-repository';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3ExportFiles } from '../adapters/s3/export-files';
import { s3Links } from '../adapters/s3/links';
import type { AccountDeletionDeps } from '../domain/accounts/account-deletion';
import { exportPrefix } from '../domain/exports/ports';

/**
 * A deleted user's exports (the admin area and the delete-account job): every
 * zip under `exports/{userId}/` in the tracks bucket, then every export record
 * and the user's export slot.
 */
export function exportRemoval(): AccountDeletionDeps['exports'] {
  const { client, tableName } = dynamo();
  const records = dynamoExportRepository(client, tableName);
  // Only removal is used here: no link is ever signed.
  const files = s3ExportFiles(s3(), bucketFromEnv('TRACKS_BUCKET'), s3Links(s3()));
  return {
    removeAll: async (userId) => {
      await files.removeAll(exportPrefix(userId));
      await records.removeAll(userId);
    },
  };
}
