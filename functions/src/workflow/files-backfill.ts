/**
 * The marking, loudness and normalised stream for tracks completed before the
 * workflow made them (`npm run backfill -- files`): every completed track
 * without `loudness` gets its WAV marked (and signed, when content
 * credentials are set up), hashed and measured, and a players' copy at the
 * stream's gain, as the finish step does now.
 *
 * The new files get keys of their own (`tracks/{id}-{hash}.wav` and
 * `.opus`, the hash being the new WAV's): CloudFront keeps track audio by key
 * for up to a year, so a file rewritten under its old key could be served
 * stale. The track's record is switched to them by a compare-and-set on a
 * track that is still completed, still without loudness and still has the
 * WAV that was read; the old files are removed after. Safe to stop and run
 * again: a track with loudness is skipped, and files written for a track the
 * run could not switch are removed.
 *
 * A track left with its download pending (the workflow's PrepareDownload
 * failed all its retries, and the DownloadsNotPrepared alarm said so) gets it
 * prepared, as that step would.
 *
 * The title in the files is the track's title when the backfill runs.
 */
import type { TrackDirectory } from '../domain/admin/ports';
import { withGain } from '../domain/audio/loudness';
import { opusComments } from '../domain/audio/marking';
import { computePeaks, PEAKS_CONTENT_TYPE, trackPeaksKey } from '../domain/audio/peaks';
import type { GenerationStore } from '../domain/generations/ports';
import { type Generation, TRACK_AUDIO_AREA } from '../domain/tracks/track';
import {
  type ContentCredentials,
  fileMarkingOf,
  prepareDownloadStep,
  prepareMaster,
  type SiteIdentity,
  type StreamEncoder,
  WAV_CONTENT_TYPE,
  type WorkflowLog,
} from './steps';

/** The tracks bucket as the backfill needs it. */
export interface BackfillFiles {
  /** The bytes of a stored file (`s3://bucket/key`); throws when it is not ours or not there. */
  read(stored: string): Promise<Uint8Array>;
  /** Stores a file under `key`; returns its stored URL. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  remove(key: string): Promise<void>;
  /** The key of a stored URL in the tracks bucket, or undefined when it is not one. */
  keyOf(stored: string): string | undefined;
}

export interface FilesBackfillDeps {
  tracks: Pick<TrackDirectory, 'list'>;
  generations: Pick<GenerationStore, 'get' | 'update'>;
  files: BackfillFiles;
  site: SiteIdentity;
  streamEncoder: StreamEncoder;
  contentCredentials?: ContentCredentials;
  log?: WorkflowLog;
}

export interface FilesBackfillOptions {
  /** Only report what would be done: nothing is read or written. */
  dryRun?: boolean;
  /** Only tracks created before this instant (ISO 8601); default every track. */
  createdBefore?: string;
  /** Only tracks created after this instant (ISO 8601); default every track. */
  createdAfter?: string;
  /** Tracks listed per page. */
  pageSize?: number;
  /** Told about each track that lacked loudness, as it is done. */
  onTrack?: (outcome: FilesBackfillOutcome) => void;
}

export type FilesBackfillOutcome =
  | { id: string; result: 'made'; audioUrl: string; streamAudioUrl: string }
  | { id: string; result: 'would-make' }
  /** Its download was pending (the workflow gave up on it) and is prepared now. */
  | { id: string; result: 'prepared' }
  /** Gone or changed meanwhile: left as it is, and what was written for it removed. */
  | { id: string; result: 'skipped' }
  | { id: string; result: 'failed'; reason: string };

export interface FilesBackfillReport {
  /** Completed tracks looked at. */
  checked: number;
  /** Of those, tracks that already had their loudness (and so their marking). */
  alreadyHad: number;
  made: number;
  /** Tracks whose pending download was prepared (or, in a dry run, would be). */
  prepared: number;
  wouldMake: number;
  skipped: number;
  failed: number;
}

const PAGE_SIZE = 25;

/** Where a backfilled track's files go: beside the old ones, named by the new WAV's hash. */
export const revisedTrackKey = (g: Pick<Generation, 'id'>, sha256: string, extension: string) =>
  `${TRACK_AUDIO_AREA}${g.id}-${sha256.slice(0, 16)}${extension}`;

/** Finds the completed tracks without loudness and gives them their marked files; returns the counts. */
export async function backfillFiles(
  deps: FilesBackfillDeps,
  options: FilesBackfillOptions = {},
): Promise<FilesBackfillReport> {
  const report: FilesBackfillReport = {
    checked: 0,
    alreadyHad: 0,
    made: 0,
    prepared: 0,
    wouldMake: 0,
    skipped: 0,
    failed: 0,
  };
  const tell = (outcome: FilesBackfillOutcome) => {
    if (outcome.result === 'made') report.made++;
    else if (outcome.result === 'prepared') report.prepared++;
    else if (outcome.result === 'would-make') report.wouldMake++;
    else if (outcome.result === 'skipped') report.skipped++;
    else report.failed++;
    options.onTrack?.(outcome);
  };
  let cursor: string | undefined;
  do {
    const page = await deps.tracks.list(
      { status: 'completed' },
      { limit: options.pageSize ?? PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    );
    for (const track of page.items) {
      if (track.status !== 'completed') continue;
      if (options.createdBefore && !(track.createdAt < options.createdBefore)) continue;
      if (options.createdAfter && !(track.createdAt > options.createdAfter)) continue;
      report.checked++;
      if (track.downloadPending) {
        tell(options.dryRun ? { id: track.id, result: 'would-make' } : await preparePending(deps, track));
        continue;
      }
      if (track.loudness) {
        report.alreadyHad++;
        continue;
      }
      if (!track.audioUrl) {
        tell({ id: track.id, result: 'failed', reason: 'the track has no audio' });
        continue;
      }
      if (options.dryRun) {
        tell({ id: track.id, result: 'would-make' });
        continue;
      }
      tell(await reviseFiles(deps, track, track.audioUrl));
    }
    cursor = page.cursor;
  } while (cursor);
  return report;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** PrepareDownload for a track the workflow left pending. */
async function preparePending(deps: FilesBackfillDeps, track: Generation): Promise<FilesBackfillOutcome> {
  try {
    const { prepared } = await prepareDownloadStep(
      {
        generation: { generations: deps.generations, clock: { now: () => new Date() } },
        audio: deps.files,
        site: deps.site,
        ...(deps.contentCredentials ? { contentCredentials: deps.contentCredentials } : {}),
        ...(deps.log ? { log: deps.log } : {}),
      },
      { generationId: track.id },
    );
    return prepared ? { id: track.id, result: 'prepared' } : { id: track.id, result: 'skipped' };
  } catch (error) {
    return { id: track.id, result: 'failed', reason: reasonOf(error) };
  }
}

async function reviseFiles(
  deps: FilesBackfillDeps,
  track: Generation,
  audioUrl: string,
): Promise<FilesBackfillOutcome> {
  const written: string[] = [];
  const removeWritten = async () => {
    for (const key of written) await deps.files.remove(key).catch(() => undefined);
  };
  let revised: Partial<Generation>;
  try {
    const marking = await fileMarkingOf(deps.site, track);
    const prepared = await prepareMaster(deps, track.id, await deps.files.read(audioUrl), marking);
    if (!prepared.pcm || !prepared.loudness) throw new Error('the audio is not a WAV we read');
    const wavKey = revisedTrackKey(track, prepared.sha256, '.wav');
    written.push(wavKey);
    const newAudioUrl = await deps.files.put(wavKey, prepared.wav, WAV_CONTENT_TYPE);
    const streamKey = revisedTrackKey(track, prepared.sha256, deps.streamEncoder.extension);
    const stream = await deps.streamEncoder.encode(
      withGain(prepared.pcm, prepared.loudness.streamGainDb),
      opusComments(marking),
    );
    written.push(streamKey);
    const streamAudioUrl = await deps.files.put(streamKey, stream, deps.streamEncoder.contentType);
    let peaksUrl = track.peaksUrl ?? null;
    if (!peaksUrl) {
      const peaksKey = trackPeaksKey(track);
      const peaks = new TextEncoder().encode(JSON.stringify(computePeaks(prepared.pcm)));
      written.push(peaksKey);
      peaksUrl = await deps.files.put(peaksKey, peaks, PEAKS_CONTENT_TYPE);
    }
    revised = {
      audioUrl: newAudioUrl,
      streamAudioUrl,
      peaksUrl,
      loudness: prepared.loudness,
      audioSha256: prepared.sha256,
    };
  } catch (error) {
    await removeWritten();
    return { id: track.id, result: 'failed', reason: reasonOf(error) };
  }
  const result = await deps.generations.update(track.id, (current) =>
    current.status === 'completed' && !current.loudness && current.audioUrl === audioUrl
      ? { ...current, ...revised }
      : undefined,
  );
  if (!result) {
    // Deleted while its files were made: its delete could not know of them, so they go now.
    await removeWritten();
    return { id: track.id, result: 'skipped' };
  }
  if (!result.after) {
    // Changed meanwhile: the files named by this run's hash go; the peaks key is shared, and may be
    // someone else's by now.
    const peaksKey = trackPeaksKey(track);
    for (const key of written) if (key !== peaksKey) await deps.files.remove(key).catch(() => undefined);
    return { id: track.id, result: 'skipped' };
  }
  // The track plays and downloads the new files now; the old ones go.
  for (const old of [audioUrl, track.streamAudioUrl]) {
    const key = old ? deps.files.keyOf(old) : undefined;
    if (key && !written.includes(key)) await deps.files.remove(key);
  }
  return {
    id: track.id,
    result: 'made',
    audioUrl: revised.audioUrl as string,
    streamAudioUrl: revised.streamAudioUrl as string,
  };
}
