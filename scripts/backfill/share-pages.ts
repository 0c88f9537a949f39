import type { BackfillStep, Target } from './step';

/**
 * The rewrite of every share page (decisions 024, 026) on a target: the one
 * the jobs function runs when a deploy writes a new track frame template.
 * Returns how many pages it wrote.
 */
export async function runShareBackfill(target: Target): Promise<number> {
  // The functions' clients read their endpoints and names from the environment, once, when first built.
  for (const [name, value] of Object.entries(target)) if (value !== undefined) process.env[name] = value;
  const [{ dynamo }, { dynamoTrackDirectory }, { sharePagesFromEnv }, { rewriteAllFromDirectory }] =
    await Promise.all([
      import('../../functions/src/adapters/dynamo/client'),
      import('../../functions/src/adapters/dynamo/admin-directory'),
      import('../../functions/src/lambdas/share-wiring'),
      import('../../functions/src/domain/tracks/share-page'),
    ]);
  const { client, tableName } = dynamo();
  const { written } = await rewriteAllFromDirectory(
    sharePagesFromEnv(process.env, target.PUBLIC_ORIGIN as string),
    dynamoTrackDirectory(client, tableName),
  );
  return written;
}

/**
 * `npm run backfill -- share-pages`: public tracks from before share pages
 * get theirs. Every run rewrites them all, so it has nothing to count first.
 */
export const sharePagesStep: BackfillStep = {
  name: 'share-pages',
  summary: 'the share page of every public, finished track',
  description: `Writes the share page (preview tags for link previews, the track page's first frame) of every
public, finished track from the deployed pages/track.html (else index.html). Running it again
rewrites them.`,
  environment: {
    TABLE_NAME: { output: 'TableName' },
    SITE_BUCKET: { output: 'SiteBucketName' },
    PUBLIC_ORIGIN: { output: 'SiteUrl' },
    SHARE_KVS_ARN: { output: 'ShareKeysArn', optional: true },
  },
  options: {},
  async run(target, _options, print) {
    print(`Share pages written: ${await runShareBackfill(target)}`);
    return { failed: 0 };
  },
};
