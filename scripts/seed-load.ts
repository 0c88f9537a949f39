/**
 * Loads many users and tracks into the table, shaped exactly as the adapters
 * write them (profile, email claim and search entries per user; a generation
 * item per track; the site counters moved to match), so the admin area can be
 * measured at size; then, step by step, the community's records: playlists, likes and plays
 * (seed-load-likes.ts, over 100,000 listed tracks; `--likes 0` skips it), and public creators with
 * follows (seed-creators.ts; `--creators 0` skips it). Users exist only in the table, not in Cognito.
 *
 *   npm run seed:load -- --users 10000 --tracks 100000 --playlists 10000
 *   npm run seed:load -- --public-tracks 100000 --likes 1000000 --plays 200000
 *   npm run seed:load -- --creators 1000 --follower <userId> --follows 50
 *
 * writes into the table of a running `npm start` (DYNAMODB_ENDPOINT and
 * TABLE_NAME, defaulting to the local cloud's). `npm run bench` uses it on a
 * throwaway local cloud.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLAYLISTS_MAX } from '@tunesmith/shared/community';
import { counterUpdate } from '../functions/src/adapters/dynamo/counters';
import { generationToItem } from '../functions/src/adapters/dynamo/generation-repository';
import { playlistCountItem, playlistItems } from '../functions/src/adapters/dynamo/playlist-store';
import { userRecordItems } from '../functions/src/adapters/dynamo/user-repository';
import { keys } from '../functions/src/data/keys';
import type { User } from '../functions/src/domain/accounts/user';
import { newUser } from '../functions/src/domain/accounts/user';
import {
  type DayCounts,
  dayCountsOfGeneration,
  type Totals,
  trackTotalsOf,
  utcDay,
  zeroTotals,
} from '../functions/src/domain/admin/counters';
import type { StoredPlaylist } from '../functions/src/domain/community/playlists';
import { type Generation, isGalleryVisible } from '../functions/src/domain/tracks/track';
import { batchWrite } from './batch-write';
import { seedCreators } from './seed-creators';
import { seedLikesAndPlays } from './seed-load-likes';

const DAY_MS = 86_400_000;

const GENRES = [
  'pop',
  'rock',
  'jazz',
  'lofi',
  'ambient',
  'synthwave',
  'folk',
  'hip hop',
  'classical',
  'house',
];
const NAMES = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elif', 'Femi', 'Gus', 'Hana', 'Ivo', 'June', 'Kai', 'Lena'];

export interface SeedOptions {
  users: number;
  tracks: number;
  /** Playlists spread over the users (decision 058); none when absent. */
  playlists?: number;
  /** Items are dated over the year before this moment. */
  now?: Date;
  /** Called after each written batch with the items written so far. */
  onProgress?: (written: number, total: number) => void;
}

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** Seeds `users` users and `tracks` tracks spread over them, then `playlists`; returns what the counters gained, how many playlists it wrote and the tracks. */
export async function seedLoad(
  documents: DynamoDBDocumentClient,
  tableName: string,
  { users: userCount, tracks: trackCount, playlists = 0, now = new Date(), onProgress }: SeedOptions,
): Promise<Totals & { playlists: number; seededTracks: Generation[] }> {
  const run = randomUUID().slice(0, 8);
  const dated = (i: number, count: number) =>
    new Date(now.getTime() - Math.floor(((count - i) / count) * 365 * DAY_MS)).toISOString();
  const totals = zeroTotals();
  const days = new Map<string, Partial<DayCounts>>();
  const addDay = (at: string, counts: Partial<DayCounts>) => {
    const day = days.get(utcDay(at)) ?? {};
    for (const [name, value] of Object.entries(counts) as [keyof DayCounts, number][]) {
      day[name] = (day[name] ?? 0) + value;
    }
    days.set(utcDay(at), day);
  };

  const users: User[] = [];
  for (let i = 0; i < userCount; i++) {
    const at = dated(i, userCount);
    users.push({
      ...newUser(
        {
          id: randomUUID(),
          email: `load-${run}-${i}@example.com`,
          firstName: pick(NAMES, i),
          lastName: `Load${i}`,
        },
        at,
      ),
      emailVerified: i % 10 !== 0,
    });
    totals.users++;
    addDay(at, { newUsers: 1 });
  }

  const tracks: Generation[] = [];
  for (let i = 0; i < trackCount; i++) {
    const owner = users[i % Math.max(1, users.length)];
    if (!owner) break;
    const at = dated(i, trackCount);
    const id = randomUUID();
    const status = i % 50 === 0 ? 'failed' : 'completed';
    const type = i % 5 === 0 ? 'audio-to-music' : 'text-to-music';
    const track: Generation = {
      id,
      userId: owner.id,
      type,
      title: `Load track ${i}`,
      tags: `${pick(GENRES, i)}, ${pick(GENRES, i + 3)}`,
      lyrics: i % 2 === 0 ? '[verse]\nCity lights and open roads' : null,
      duration: 30 + (i % 8) * 30,
      status,
      visibility: i % 3 === 0 ? 'private' : 'public',
      showInGallery: i % 20 !== 0,
      inputAudioUrl: type === 'audio-to-music' ? `/objects/uploads/${owner.id}/${id}.mp3` : null,
      audioUrl: status === 'completed' ? `s3://tunesmith-tracks/tracks/${owner.id}/${id}.wav` : null,
      seed: i,
      falRequestId: `load-${id}`,
      createdAt: at,
      updatedAt: at,
    };
    tracks.push(track);
    for (const [name, value] of Object.entries(trackTotalsOf(track)) as [keyof Totals, number][]) {
      totals[name] += value;
    }
    addDay(at, dayCountsOfGeneration(type));
  }

  const items = [...users.flatMap(userRecordItems), ...tracks.map(generationToItem)];
  await batchWrite(documents, tableName, items, onProgress);

  // The counters move as the adapters move them: one ADD per counter item.
  const counterItems = [
    counterUpdate(tableName, keys.totals, { ...totals }),
    ...[...days].map(([day, counts]) => counterUpdate(tableName, keys.dailyStats(day), counts)),
  ];
  for (const item of counterItems) if (item) await documents.send(new UpdateCommand(item.Update));

  let madePlaylists = 0;
  if (playlists > 0) {
    madePlaylists = await seedPlaylists(documents, tableName, {
      userIds: users.map((user) => user.id),
      tracks,
      count: playlists,
      now,
      onProgress,
    });
  }
  return { ...totals, playlists: madePlaylists, seededTracks: tracks };
}

/** Tracks a seeded playlist holds at most. */
const PLAYLIST_SEED_TRACKS = 20;

/**
 * Step: `count` playlists spread over `userIds` (at most {@link PLAYLISTS_MAX} each), three in four
 * public, each holding up to 20 of the listed `tracks` (other users' included; with `tracksEach`,
 * that many each, no two playlists sharing a track while the listed tracks last), written as the
 * playlist store writes them with each user's count item. For users with no playlists yet (the
 * seeder's own): their count is written whole. Returns how many it wrote.
 */
export async function seedPlaylists(
  documents: DynamoDBDocumentClient,
  tableName: string,
  options: {
    userIds: readonly string[];
    tracks: readonly Generation[];
    count: number;
    tracksEach?: number;
    now?: Date;
    onProgress?: (written: number, total: number) => void;
  },
): Promise<number> {
  const { userIds, count, now = new Date() } = options;
  const listed = options.tracks.filter(isGalleryVisible);
  const made = Math.min(count, userIds.length * PLAYLISTS_MAX);
  const perUser = new Map<string, number>();
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < made; i++) {
    const userId = userIds[i % userIds.length] as string;
    const at = new Date(now.getTime() - (made - i) * 60_000).toISOString();
    const { tracksEach } = options;
    const size =
      listed.length === 0
        ? 0
        : Math.min(
            tracksEach ?? Math.min(PLAYLIST_SEED_TRACKS, 1 + (i % PLAYLIST_SEED_TRACKS)),
            listed.length,
          );
    const position = (k: number) => (tracksEach === undefined ? i * 7 + k * 13 : i * tracksEach + k);
    const trackIds = [...new Set(Array.from({ length: size }, (_, k) => pick(listed, position(k)).id))];
    const playlist: StoredPlaylist = {
      id: randomUUID(),
      userId,
      title: `Load playlist ${i}`,
      description: i % 2 === 0 ? `${pick(GENRES, i)} for the road` : null,
      visibility: i % 4 === 0 ? 'private' : 'public',
      trackIds,
      createdAt: at,
      updatedAt: at,
    };
    items.push(...playlistItems(playlist));
    perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
  }
  for (const [userId, playlists] of perUser) items.push(playlistCountItem(userId, playlists));
  await batchWrite(documents, tableName, items, options.onProgress);
  return made;
}

/** `npm run seed:load -- --users N --tracks N` against a running local cloud. */
async function main() {
  const arg = (name: string, fallback: number) => {
    const at = process.argv.indexOf(`--${name}`);
    const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
    return value;
  };
  const users = arg('users', 10_000);
  const tracks = arg('tracks', 100_000);
  const playlists = arg('playlists', 10_000);
  const tableName = process.env.TABLE_NAME ?? 'tunesmith';
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? `http://127.0.0.1:${process.env.DYNAMODB_PORT ?? 8600}`;
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: process.env.AWS_REGION ?? 'us-east-1',
      credentials: {
        accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'S3RVER',
        secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'S3RVER',
      },
    }),
  );
  let shown = -1;
  const totals = await seedLoad(documents, tableName, {
    users,
    tracks,
    playlists,
    onProgress: (written, total) => {
      const percent = Math.floor((written / total) * 100);
      if (percent % 10 === 0 && percent !== shown) {
        shown = percent;
        console.log(`${percent}% (${written} of ${total} items)`);
      }
    },
  });
  console.log(
    `Seeded ${totals.users} users, ${totals.tracks} tracks and ${totals.playlists} playlists into ${tableName} at ${endpoint}.`,
  );
  const likes = arg('likes', 1_000_000);
  if (likes > 0) {
    const shownSteps = new Map<string, number>();
    const community = await seedLikesAndPlays(documents, tableName, {
      publicTracks: arg('public-tracks', 100_000),
      likes,
      plays: arg('plays', 200_000),
      onProgress: (step, done, total) => {
        const percent = Math.floor((done / total) * 100);
        if (percent % 10 === 0 && percent !== shownSteps.get(step)) {
          shownSteps.set(step, percent);
          console.log(`${step}: ${percent}% (${done} of ${total})`);
        }
      },
    });
    console.log(
      `Seeded likes and plays: ${community.listed} listed tracks, ${community.likes} likes, ${community.plays} plays.`,
    );
  }
  // Public profiles and follows (decision 059): creators with listed tracks, following each other.
  const creators = arg('creators', 1_000);
  const follower = process.argv.includes('--follower')
    ? process.argv[process.argv.indexOf('--follower') + 1]
    : undefined;
  if (creators > 0) {
    const follows = arg('follows', 50);
    await seedCreators(documents, tableName, { creators, tracksEach: 5, followsEach: 10, follower, follows });
    console.log(
      `Seeded ${creators} public creators (5 listed tracks and 10 follows each)${follower ? `; ${follower} follows ${Math.min(follows, creators)} of them` : ''}.`,
    );
  }
  documents.destroy();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
