import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3Sweeper } from '../adapters/s3/sweeper';
import type { AccountDeletionDeps } from '../domain/accounts/account-deletion';

/** A deleted user's exports: every zip under `exports/{userId}/`. */
export function exportRemoval(): AccountDeletionDeps['exports'] {
  const sweeper = s3Sweeper(s3(), bucketFromEnv('TRACKS_BUCKET'));
  return {
    removeAll: async (userId) => {
      await sweeper.deletePrefix(`exports/${userId}/`);
    },
  };
}
