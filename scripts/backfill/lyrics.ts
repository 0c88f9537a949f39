import {
  backfillLyrics,
  type LyricsBackfillOptions,
  type LyricsBackfillReport,
} from '../../functions/src/domain/lyrics/lyrics-backfill';
import type { BackfillStep, Target } from './step';

/** How long the provider's link to a track's WAV lasts: the workflow's (TRACK_SOURCE_LINK_SECONDS). */
const LINK_SECONDS = 15 * 60;

/**
 * backfillLyrics (the lyrics domain) on a target, wired as the workflow's
 * TimeLyrics function is: the table's tracks and timed lyrics, the music
 * provider with the key from the site's settings (else FAL_KEY; locally the
 * embedded provider), and 15-minute presigned links to the tracks' WAVs.
 */
export async function runLyricsBackfill(
  target: Target,
  options: LyricsBackfillOptions = {},
): Promise<LyricsBackfillReport> {
  // The functions' clients read their endpoints and names from the environment, once, when first built.
  for (const [name, value] of Object.entries(target)) if (value !== undefined) process.env[name] = value;
  const [
    { dynamo },
    { dynamoTrackDirectory },
    { dynamoGenerationStore },
    { dynamoLyricsStore },
    { musicProviderFromEnv },
    { s3 },
    { parseS3Url, s3Links },
    { TRACK_AUDIO_AREA },
  ] = await Promise.all([
    import('../../functions/src/adapters/dynamo/client'),
    import('../../functions/src/adapters/dynamo/admin-directory'),
    import('../../functions/src/adapters/dynamo/generation-store'),
    import('../../functions/src/adapters/dynamo/lyrics-store'),
    import('../../functions/src/lambdas/music-wiring'),
    import('../../functions/src/adapters/s3/client'),
    import('../../functions/src/adapters/s3/links'),
    import('../../functions/src/domain/tracks/track'),
  ]);
  const { client, tableName } = dynamo();
  const tracksBucket = target.TRACKS_BUCKET as string;
  const links = s3Links(s3());
  const provider = musicProviderFromEnv(client, tableName, process.env);
  return backfillLyrics(
    {
      tracks: dynamoTrackDirectory(client, tableName),
      generations: dynamoGenerationStore(client, tableName),
      lyrics: dynamoLyricsStore(client, tableName),
      transcribe: (request) => provider.transcribe(request),
      audioLink: async (stored) => {
        const location = parseS3Url(stored);
        if (!location || location.bucket !== tracksBucket || !location.key.startsWith(TRACK_AUDIO_AREA))
          throw new Error(`${stored} is not a track of ours`);
        return links.read(location, { expiresIn: LINK_SECONDS });
      },
    },
    options,
  );
}

export function describeLyricsReport(report: LyricsBackfillReport, dryRun: boolean): string {
  const lines = [
    `Completed tracks with lyrics checked: ${report.checked}`,
    `Already had timed lyrics: ${report.alreadyHad}`,
    dryRun ? `Would be timed: ${report.wouldMake}` : `Lyrics timed: ${report.made}`,
  ];
  if (report.skipped) lines.push(`Skipped (deleted, changed or timed meanwhile): ${report.skipped}`);
  if (report.failed) lines.push(`Failed: ${report.failed}`);
  return lines.join('\n');
}

/**
 * `npm run backfill -- lyrics`: sung tracks completed before the workflow
 * timed their lyrics get timed lyrics, as a new track does (decision 045).
 * Tracks that have them are passed over, so a second run changes nothing.
 */
export const lyricsStep: BackfillStep = {
  name: 'lyrics',
  summary: 'timed lyrics for completed tracks with lyrics that have none',
  description: `Times the lyrics of every completed track with lyrics to sing and no timed lyrics, as the workflow
times a new track's: its WAV goes to the music provider's timed transcription (fal-ai/whisper; locally
the embedded provider) through a 15-minute link, and the owner's lyrics are aligned to what it heard.
Four tracks at a time. The fal key is the site's fal_api_key setting (opened with the settings' KMS key,
which your credentials must be allowed to use), else FAL_KEY from the environment. Each track timed
costs one transcription at fal's price. Running it again changes nothing.`,
  environment: {
    TABLE_NAME: { output: 'TableName' },
    TRACKS_BUCKET: { output: 'TracksBucketName' },
    SETTINGS_KMS_KEY_ID: { output: 'SettingsKeyArn', optional: true },
  },
  options: {
    'dry-run': 'only count the tracks that would be timed (nothing is transcribed)',
    before: 'only tracks created before this ISO 8601 instant',
  },
  async run(target, { dryRun, createdBefore }, print) {
    const report = await runLyricsBackfill(target, {
      dryRun,
      ...(createdBefore ? { createdBefore } : {}),
      onTrack: (outcome) => {
        if (outcome.result === 'made')
          print(`${outcome.id}: timed (${outcome.lines} lines, ${outcome.words} words)`);
        else if (outcome.result === 'would-make') print(`${outcome.id}: would be timed`);
        else if (outcome.result === 'skipped')
          print(`${outcome.id}: skipped (deleted, changed or timed meanwhile)`);
        else print(`${outcome.id}: failed: ${outcome.reason}`);
      },
    });
    print(describeLyricsReport(report, dryRun));
    return { failed: report.failed };
  },
};
