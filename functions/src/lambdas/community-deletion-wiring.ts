import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoLikesAndPlaysRemoval } from '../adapters/dynamo/like-store';
import { dynamoReportStore } from '../adapters/dynamo/report-store';
import type { CommunityDeletionSteps } from '../domain/accounts/account-deletion';
import { removeUserReports } from '../domain/community/reports';
import { creatorRemoval } from './creator-removal';
import { playlistRemoval } from './playlist-share-wiring';

/**
 * Each community part's step of the account deletion (decision 056), for both of its callers: the
 * admin area's delete and the `delete-account` job. One entry per part.
 */
export function communityDeletionSteps(
  client: DynamoDBDocumentClient,
  tableName: string,
): CommunityDeletionSteps {
  return {
    likesAndPlays: {
      removeUser: (userId) => dynamoLikesAndPlaysRemoval(client, tableName).removeAll(userId),
    },
    playlists: { removeUser: (userId) => playlistRemoval().removeAll(userId) },
    creators: { removeUser: (userId) => creatorRemoval({ client, tableName }).removeAll(userId) },
    reports: {
      removeUser: (userId) =>
        removeUserReports(
          { reports: dynamoReportStore(client, tableName), clock: { now: () => new Date() } },
          userId,
        ),
    },
  };
}
