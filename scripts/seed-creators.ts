/**
 * The seed step of public profiles and follows (decision 059), shaped exactly as the creator store
 * writes them: a profile, its handle claim and follow counts per creator, each creator's listed tracks
 * (in their `CREATOR#` partition of the ranking index), and follows. `follower`, when given, follows
 * the first `follows` creators (the bench's user, whose feed is measured).
 */
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generationToItem } from '../functions/src/adapters/dynamo/generation-repository';
import { creatorKeys } from '../functions/src/data/community-keys';
import type { Generation } from '../functions/src/domain/tracks/track';
import { batchWrite } from './batch-write';

export interface CreatorSeedOptions {
  creators: number;
  /** Listed tracks per creator. */
  tracksEach: number;
  /** How many other creators each creator follows. */
  followsEach: number;
  /** A user (already in the table) who follows the first `follows` creators. */
  follower?: string;
  follows?: number;
  now?: Date;
}

/** Seeds the creators; returns their handles, in order (the follower follows the first ones). */
export async function seedCreators(
  documents: DynamoDBDocumentClient,
  tableName: string,
  { creators, tracksEach, followsEach, follower, follows = 0, now = new Date() }: CreatorSeedOptions,
): Promise<string[]> {
  const run = randomUUID().slice(0, 6);
  const ids: string[] = Array.from({ length: creators }, () => randomUUID());
  const handles = ids.map((_, i) => `load-${run}-${i}`);
  const counts = new Map<string, { followers: number; following: number }>(
    ids.map((id) => [id, { followers: 0, following: 0 }]),
  );
  const items: Record<string, unknown>[] = [];
  const follow = (followerId: string, creatorId: string) => {
    items.push({
      ...creatorKeys.follow(followerId, creatorId),
      ...creatorKeys.follower(followerId, creatorId),
      entity: 'follow',
      followerId,
      creatorId,
      createdAt: now.toISOString(),
    });
    const creator = counts.get(creatorId);
    if (creator) creator.followers++;
    const fan = counts.get(followerId);
    if (fan) fan.following++;
  };
  ids.forEach((userId, i) => {
    const at = new Date(now.getTime() - i * 60_000).toISOString();
    items.push({
      ...creatorKeys.profile(userId),
      entity: 'publicProfile',
      userId,
      handle: handles[i],
      handleKey: handles[i]?.toLowerCase(),
      displayName: `Load Creator ${i}`,
      bio: 'Seeded for measuring at size.',
      createdAt: at,
      updatedAt: at,
    });
    items.push({ ...creatorKeys.handle(handles[i] as string), entity: 'handleClaim', userId });
    for (let t = 0; t < tracksEach; t++) {
      // Spread over the past days, so every creator's tracks interleave in a feed.
      const created = new Date(now.getTime() - (t * creators + i) * 37_000).toISOString();
      const id = randomUUID();
      const track: Generation = {
        id,
        userId,
        type: 'text-to-music',
        title: `Creator ${i} track ${t}`,
        tags: 'synthwave, ambient',
        lyrics: null,
        duration: 60,
        status: 'completed',
        visibility: 'public',
        showInGallery: true,
        inputAudioUrl: null,
        audioUrl: `s3://tunesmith-tracks/tracks/${userId}/${id}.wav`,
        seed: t,
        falRequestId: `load-${id}`,
        createdAt: created,
        updatedAt: created,
      };
      items.push(generationToItem(track));
    }
    for (let f = 1; f <= followsEach && f < creators; f++) follow(userId, ids[(i + f) % creators] as string);
  });
  if (follower) for (const creatorId of ids.slice(0, follows)) follow(follower, creatorId);
  for (const [userId, c] of counts)
    items.push({ ...creatorKeys.counts(userId), entity: 'followCounts', ...c });
  await batchWrite(documents, tableName, items);
  if (follower && follows > 0)
    // The follower's own counts item may exist already: moved as the store moves it.
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: creatorKeys.counts(follower),
        UpdateExpression: 'ADD #n :n',
        ExpressionAttributeNames: { '#n': 'following' },
        ExpressionAttributeValues: { ':n': Math.min(follows, creators) },
      }),
    );
  return handles;
}
