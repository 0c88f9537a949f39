import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { seedLoad } from './seed-load';
import { seedLikesAndPlays } from './seed-load-likes';

/** What the community bench needs of `bench.ts`: its cloud, table and sampling. */
export interface CommunityBenchDeps {
  url: string;
  tableName: string;
  documents: DynamoDBDocumentClient;
  /** Sorted latencies of `count` sequential GETs of `url`, after a warm-up. */
  latency(url: string, count: number, cookie?: string, warmUp?: number): Promise<number[]>;
  percentile(sorted: number[], p: number): number;
  ms(n: number): string;
  say(line?: string): void;
}

const USERS = 1_000;
const TRACKS = 10_000;
const PLAYLISTS = 10_000;
const PUBLIC_TRACKS = 100_000;
const LIKES = 1_000_000;
const PLAYS = 200_000;

/**
 * The gallery's three sorts at size (decision 057): the first page of each, p50 over sequential
 * requests, on an empty table, on a table with one full page (30 listed tracks, liked and played),
 * and after seed:load's steps: 1,000 users with 10,000 tracks and 10,000 playlists, then listed tracks
 * up to 100,000, 1,000,000 likes and 200,000 plays. An empty table answers no
 * tracks at all, so its time leaves out what every page costs (24 tracks' links, their likes); the
 * one-page table is the fair measure of what the size adds. Each sort reads one index page and one
 * batch of tracks, whatever the table holds.
 */
export async function communityBench(deps: CommunityBenchDeps): Promise<void> {
  const calls = {
    'GET /api/public-tracks?sort=new': `${deps.url}/api/public-tracks?sort=new`,
    'GET /api/public-tracks?sort=top-week': `${deps.url}/api/public-tracks?sort=top-week`,
    'GET /api/public-tracks?sort=most-played': `${deps.url}/api/public-tracks?sort=most-played`,
  };
  const count = 200;
  const measure = async () => {
    const out: Record<string, number[]> = {};
    for (const [name, url] of Object.entries(calls))
      out[name] = await deps.latency(url, count, undefined, 300);
    return out;
  };
  const empty = await measure();
  await seedLikesAndPlays(deps.documents, deps.tableName, { publicTracks: 30, likes: 300, plays: 100 });
  const onePage = await measure();
  const seeding = performance.now();
  const loaded = await seedLoad(deps.documents, deps.tableName, {
    users: USERS,
    tracks: TRACKS,
    playlists: PLAYLISTS,
  });
  const seeded = await seedLikesAndPlays(deps.documents, deps.tableName, {
    publicTracks: PUBLIC_TRACKS,
    likes: LIKES,
    plays: PLAYS,
  });
  const seededIn = performance.now() - seeding;
  const atSize = await measure();
  deps.say(
    `Community at size (${count} sequential requests each, first page of 24; seeded ${loaded.users} users, ${loaded.playlists} playlists, ${seeded.listed} listed tracks, ${seeded.likes} likes and ${seeded.plays} plays in ${(seededIn / 1000).toFixed(0)} s):`,
  );
  const p50 = (samples: Record<string, number[]>, name: string) => deps.percentile(samples[name] ?? [], 50);
  for (const name of Object.keys(calls)) {
    deps.say(`  ${name}`);
    deps.say(`    empty table      p50 ${deps.ms(p50(empty, name))}`);
    deps.say(`    one page listed  p50 ${deps.ms(p50(onePage, name))}`);
    deps.say(`    seeded table     p50 ${deps.ms(p50(atSize, name))}`);
    deps.say(`    ratio (p50, seeded ÷ empty)     ${(p50(atSize, name) / p50(empty, name)).toFixed(2)}`);
    deps.say(`    ratio (p50, seeded ÷ one page)  ${(p50(atSize, name) / p50(onePage, name)).toFixed(2)}`);
  }
}
