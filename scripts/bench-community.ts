import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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

const PUBLIC_TRACKS = 100_000;
const LIKES = 1_000_000;
const PLAYS = 200_000;

/**
 * The gallery's three sorts at size (decision 057): the first page of each, p50 over sequential
 * requests, on an empty table and after 100,000 listed tracks, 1,000,000 likes and 200,000 plays.
 * Each sort reads one index page and one batch of tracks, whatever the table holds, so the ratio
 * stays near 1.
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
  const seeding = performance.now();
  const seeded = await seedLikesAndPlays(deps.documents, deps.tableName, {
    publicTracks: PUBLIC_TRACKS,
    likes: LIKES,
    plays: PLAYS,
  });
  const seededIn = performance.now() - seeding;
  const loaded = await measure();
  deps.say(
    `Community at size (${count} sequential requests each, first page of 24; seeded ${seeded.listed} listed tracks, ${seeded.likes} likes and ${seeded.plays} plays in ${(seededIn / 1000).toFixed(0)} s):`,
  );
  for (const name of Object.keys(calls)) {
    const before = empty[name] as number[];
    const after = loaded[name] as number[];
    deps.say(`  ${name}`);
    deps.say(`    empty table   p50 ${deps.ms(deps.percentile(before, 50))}`);
    deps.say(`    seeded table  p50 ${deps.ms(deps.percentile(after, 50))}`);
    deps.say(
      `    ratio (p50, seeded ÷ empty)  ${(deps.percentile(after, 50) / deps.percentile(before, 50)).toFixed(2)}`,
    );
  }
}
