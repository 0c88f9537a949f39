import { dynamo } from '../adapters/dynamo/client';
import { dynamoLikesAndPlaysRemoval } from '../adapters/dynamo/like-store';

/** Deleting an account: the user's likes and counted plays, out of the tracks' counts (decision 057). */
export function likesAndPlaysRemoval(): { removeAll(userId: string): Promise<void> } {
  const { client, tableName } = dynamo();
  return dynamoLikesAndPlaysRemoval(client, tableName);
}
