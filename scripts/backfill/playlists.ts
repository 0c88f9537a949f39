import type { BackfillStep, Target } from './step';

/** movePlaylistTracksApart (the playlist store) on a target's table. */
export async function runPlaylistsBackfill(
  target: Target,
  options: { dryRun: boolean },
): Promise<{ found: number; moved: number; skipped: number }> {
  // The functions' clients read their endpoints and names from the environment, once, when first built.
  for (const [name, value] of Object.entries(target)) if (value !== undefined) process.env[name] = value;
  const [{ dynamo }, { movePlaylistTracksApart }] = await Promise.all([
    import('../../functions/src/adapters/dynamo/client'),
    import('../../functions/src/adapters/dynamo/playlist-store'),
  ]);
  const { client, tableName } = dynamo();
  return movePlaylistTracksApart(client, tableName, options);
}

/**
 * `npm run backfill -- playlists`: playlists written before decision 062 keep
 * their tracks' ids on the card their owner's list reads; this moves them to
 * their own item. A second run finds none.
 */
export const playlistsStep: BackfillStep = {
  name: 'playlists',
  summary: "playlists' tracks apart from their cards",
  description: `Moves the tracks' ids of every playlist written before decision 062 from its card (the item
lists of playlists read) to their own item, so a list reads a few hundred bytes per playlist. Running it
again changes nothing.`,
  environment: { TABLE_NAME: { output: 'TableName' } },
  options: { 'dry-run': 'only count the playlists that would be moved' },
  async run(target, { dryRun }, print) {
    const report = await runPlaylistsBackfill(target, { dryRun });
    print(`Playlists with their tracks on the card: ${report.found}`);
    if (!dryRun) print(`Moved: ${report.moved}`);
    if (report.skipped) print(`Skipped (changed meanwhile; run again): ${report.skipped}`);
    return { failed: 0 };
  },
};
