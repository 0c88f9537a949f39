/**
 * The stems path of the generation workflow (decision 044). An execution whose
 * input names `stems: { set, attempt }` separates a finished track: Submit
 * sends its WAV to the separation endpoint, the same WaitForCallback and
 * PollOnce states wait for it, FinishStems stores each stem (marked WAV,
 * Opus copy, peaks, hash, loudness) and then their zip, and MarkFailed fails
 * the set (not the track) and refunds its unit. The Lambda entry and the
 * local runner call the `*Any` functions, which pick the path by the input.
 */
import { STEM_SETS, type StemName, type StemSet } from '@tunesmith/shared/stems';
import { withGain } from '../domain/audio/loudness';
import { type FileMarking, opusComments } from '../domain/audio/marking';
import { AudioFormatError, type PcmSource } from '../domain/audio/pcm';
import { computePeaks, PEAKS_CONTENT_TYPE } from '../domain/audio/peaks';
import { parseWav } from '../domain/audio/wav';
import { DomainError } from '../domain/errors';
import { MusicProviderError } from '../domain/generations/music-provider';
import { callbackWaitSeconds } from '../domain/generations/timing';
import { STEMS_MODEL_NAME, type StoredStem, stemKey, stemNamesOf, stemsZipKey } from '../domain/stems/stems';
import {
  markStemsFailed,
  markStemsPrepared,
  markStemsReady,
  markStemsStreams,
  markStemsSubmitted,
  markStemsZipped,
} from '../domain/stems/stems-service';
import type { Generation } from '../domain/tracks/track';
import {
  asWorkflowError,
  executionEndedStep,
  failStep,
  fileMarkingOf,
  type Job,
  markDownload,
  measureLoudness,
  phaseTimer,
  raiseTrackEvent,
  type StepTimings,
  submitStep,
  WAV_CONTENT_TYPE,
  type WorkflowDeps,
  WorkflowError,
} from './steps';

/** What an execution that separates a track carries beside the track's id. */
export interface StemsJobInput {
  set: StemSet;
  attempt: number;
}

/** The stems job of an execution's input, if it is one (anything else is a generation). */
export function stemsJobOf(input: unknown): StemsJobInput | undefined {
  const stems = (input as { stems?: { set?: unknown; attempt?: unknown } } | null | undefined)?.stems;
  if (!stems || !(STEM_SETS as readonly unknown[]).includes(stems.set) || !Number.isInteger(stems.attempt))
    return undefined;
  return { set: stems.set as StemSet, attempt: stems.attempt as number };
}

/** Zips a set's WAVs with its manifest; without it a set has no zip (and no download). */
export interface StemsArchiver {
  zip(entries: Array<{ name: string; bytes: Uint8Array }>): Promise<Uint8Array>;
}

export type StemsDeps = WorkflowDeps & { stemsArchiver?: StemsArchiver };

async function loadProcessing(deps: WorkflowDeps, id: string, job: StemsJobInput) {
  const track = await deps.generation.generations.get(id);
  const record = track?.stems?.[job.set];
  if (!track || !record || record.status !== 'processing' || record.attempt !== job.attempt)
    throw new WorkflowError(
      'Generation.Ended',
      `The stems of ${id} (${job.set}, #${job.attempt}) are not being made`,
    );
  return { track, record };
}

/**
 * Submit (stems): the track's WAV, through a short-lived link, to the
 * separation endpoint with the webhook. A retried submit reuses the request.
 */
export async function submitStemsStep(
  deps: WorkflowDeps,
  input: { generationId: string; stems: StemsJobInput },
): Promise<Job> {
  const { track, record } = await loadProcessing(deps, input.generationId, input.stems);
  const waitSeconds = callbackWaitSeconds(track.duration);
  if (record.requestId) return { requestId: record.requestId, kind: 'stems', waitSeconds, waits: 0 };
  if (!track.audioUrl || track.downloadPending || track.status !== 'completed')
    throw new WorkflowError('Provider.Rejected', `Track ${track.id} has no finished WAV to separate`);
  let requestId: string;
  try {
    const audioUrl = await (deps.trackAudioUrl ?? ((u) => u))(track.audioUrl);
    ({ requestId } = await deps.provider.submitStems({
      audioUrl,
      model: record.model,
      stems: stemNamesOf(input.stems.set),
      webhookUrl: deps.webhookUrl(track.id),
    }));
  } catch (error) {
    if (error instanceof MusicProviderError) return asWorkflowError(error);
    throw error;
  }
  await markStemsSubmitted(deps.generation, track.id, input.stems.set, input.stems.attempt, requestId);
  return { requestId, kind: 'stems', waitSeconds, waits: 0 };
}

/** Submit for any execution: a separation when its input says so, else the generation. */
export const submitAny = (deps: WorkflowDeps, input: { generationId: string; execution?: unknown }) => {
  const stems = stemsJobOf(input.execution);
  return stems ? submitStemsStep(deps, { generationId: input.generationId, stems }) : submitStep(deps, input);
};

export interface FinishStemsOutput {
  /** Each stem's WAV hash; null for one whose download could not be prepared. */
  stems: Array<{ name: StemName; sha256: string | null }>;
  zipped: boolean;
  timings: StepTimings;
}

/** A stem of a set that plays, as the rest of the step finishes it. */
interface SetStem {
  stored: StoredStem;
  marking: FileMarking;
  /** The bytes at `stored.wavUrl` when in hand (fetched by this run); read back otherwise. */
  bytes?: Uint8Array;
}

/** The marking of a stem's files: the track's, its title naming the stem. */
const stemMarking = (marking: FileMarking, name: StemName): FileMarking => ({
  ...marking,
  title: `${marking.title} (${name})`,
  model: `${marking.model}; stems by ${STEMS_MODEL_NAME}`,
});

/** Adds each phase of `from` into `into` (phases of several stems, summed). */
function addTimings(into: StepTimings, from: StepTimings): void {
  for (const [phase, ms] of Object.entries(from))
    into[phase] = Math.round(((into[phase] ?? 0) + ms) * 10) / 10;
}

/** Where a stem's WAV is kept as the provider made it, while it plays and its download is prepared. */
const masterKey = (trackId: string, set: StemSet, name: StemName) =>
  stemKey(trackId, set, name, '.master.wav');

/**
 * FinishStems, in two phases like a track (decisions 040 and 048). First the
 * stems play: each is fetched, its peaks drawn, and its WAV as it came and its
 * peaks stored, all stems at once, and the set is marked ready (players get
 * those WAVs). Then, at once, each stem's loudness is measured and its Opus
 * copy made at the track's own stream gain (so the stems played together sound
 * as the track's stream does), and each WAV is prepared for download: marked
 * like the master (INFO, XMP, C2PA when content credentials are set up),
 * hashed and stored under a key of its own, the WAV it played from removed.
 * Last the zip (`stems/{name}.wav` and `manifest.json`). A stem that is
 * missing or not a WAV we read fails the set (and refunds it); files of a set
 * deleted or failed meanwhile are removed. Run again once the set plays (a
 * retry), it finishes what is left from the stored files and never fails a
 * set that plays.
 */
export async function finishStemsStep(
  deps: StemsDeps,
  input: { generationId: string; job: Job; execution?: unknown },
): Promise<FinishStemsOutput> {
  const job = stemsJobOf(input.execution);
  if (!job) throw new WorkflowError('Generation.NotFound', 'The execution names no stems');
  const timer = phaseTimer();
  const track = await deps.generation.generations.get(input.generationId);
  const record = track?.stems?.[job.set];
  if (!track || !record || record.attempt !== job.attempt || record.status === 'failed')
    throw new WorkflowError(
      'Generation.Ended',
      `The stems of ${input.generationId} (${job.set}, #${job.attempt}) are not being made`,
    );
  const marking = await fileMarkingOf(deps.site, track);
  const stems: SetStem[] =
    record.status === 'processing'
      ? await playableSet(deps, track, job, input.job, marking, timer)
      : record.files.map((stored) => ({ stored, marking: stemMarking(marking, stored.name) }));
  // Read once, when a retry finds the stems stored: the copy and the download share the bytes.
  const reads = new Map<SetStem, Promise<Uint8Array>>();
  const bytesOf = (stem: SetStem) => {
    if (stem.bytes) return Promise.resolve(stem.bytes);
    const read = reads.get(stem) ?? deps.audio.read(stem.stored.wavUrl);
    reads.set(stem, read);
    return read;
  };
  // The copies first: players move to them, and their work runs in slices that leave the local
  // cloud's API answering; signing a WAV holds the thread for a few hundred ms at a time.
  const streams = await streamCopies(deps, track, job, stems, bytesOf, timer).catch(() => 0);
  let prepared: SetStem[];
  try {
    prepared = await prepareDownloads(deps, track, job, stems, bytesOf, timer);
  } catch (reason) {
    if (reason instanceof WorkflowError) throw reason;
    deps.log?.warn('the stems’ downloads were not prepared; they play from the WAVs as they came', {
      generationId: track.id,
      set: job.set,
      error: reason,
    });
    // Retried by the state (as storage that did not answer); a retry finishes what is left.
    const error = new Error(
      `The downloads of the stems of ${track.id} were not prepared: ${(reason as Error)?.message ?? reason}`,
    );
    error.name = 'Storage.Unavailable';
    throw error;
  }
  const zipped = await timer.time('zip', () => storeZip(deps, track, job, prepared));
  deps.log?.info?.('finish stems: copies, downloads and zip', {
    generationId: track.id,
    set: job.set,
    streams,
    zipped,
    timings: timer.timings,
  });
  return {
    stems: prepared.map((stem) => ({ name: stem.stored.name, sha256: stem.stored.sha256 })),
    zipped,
    timings: timer.timings,
  };
}

type Timer = ReturnType<typeof phaseTimer>;

/**
 * The first phase: every stem fetched, checked, its peaks drawn, its WAV (as
 * it came) and peaks stored, and the set marked ready. Nothing of it is kept
 * when a stem fails or the set was deleted or failed meanwhile.
 */
async function playableSet(
  deps: StemsDeps,
  track: Generation,
  job: StemsJobInput,
  providerJob: Job,
  marking: FileMarking,
  timer: Timer,
): Promise<SetStem[]> {
  const names = stemNamesOf(job.set);
  let urls: Record<string, string>;
  try {
    urls = (await timer.time('result', () => deps.provider.stemsResult(providerJob.requestId))).stems;
  } catch (error) {
    return asWorkflowError(error);
  }
  for (const name of names)
    if (!urls[name]) throw new WorkflowError('Provider.Failed', `The provider returned no ${name} stem`);
  const keys: string[] = [];
  const removeAll = async () => {
    for (const key of keys) await deps.audio.remove(key);
  };
  const started = performance.now();
  const perStem = names.map(() => phaseTimer());
  // Every stem settles before anything is removed, so no store lands after the clean-up.
  const settled = await Promise.allSettled(
    names.map((name, i) =>
      playableStem(deps, track, job.set, name, urls[name] as string, perStem[i] as Timer, keys),
    ),
  );
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    await removeAll();
    throw failure.reason;
  }
  const made = settled.map((r) => (r as PromiseFulfilledResult<SetStem>).value);
  for (const stemTimer of perStem) addTimings(timer.timings, stemTimer.timings);
  timer.timings.playable = Math.round((performance.now() - started) * 10) / 10;
  const ready = await timer
    .time('record', () =>
      markStemsReady(
        deps.generation,
        track.id,
        job.set,
        job.attempt,
        made.map((m) => m.stored),
      ),
    )
    .catch(async (error: unknown) => {
      if (error instanceof DomainError && error.kind === 'not-found') return false;
      throw error;
    });
  if (!ready) {
    // Deleted, or failed meanwhile (its unit already went back): nothing may keep these files.
    await removeAll();
    throw new WorkflowError('Generation.Ended', `The stems of ${track.id} are no longer being made`);
  }
  const played = await deps.generation.generations.get(track.id).catch(() => undefined);
  if (played) await raiseTrackEvent(deps, 'stems.ready', played);
  deps.log?.info?.('finish stems: the stems play', {
    generationId: track.id,
    set: job.set,
    timings: timer.timings,
  });
  return made.map((m) => ({ ...m, marking: stemMarking(marking, m.stored.name) }));
}

/** One stem made playable: its WAV stored as it came while it is fetched, checked, its peaks drawn and stored. */
async function playableStem(
  deps: StemsDeps,
  track: Generation,
  set: StemSet,
  name: StemName,
  url: string,
  timer: Timer,
  keys: string[],
): Promise<Omit<SetStem, 'marking'>> {
  const wavKey = masterKey(track.id, set, name);
  const peaksKey = stemKey(track.id, set, name, '.peaks.json');
  keys.push(wavKey, peaksKey);
  // Stored as it arrives: nothing of the WAV players get first changes before they play it.
  const { bytes, stored: wavUrl } = await timer.time('fetchStore', () =>
    deps.audio.keep(url, wavKey, WAV_CONTENT_TYPE),
  );
  let pcm: PcmSource;
  try {
    pcm = parseWav(bytes);
  } catch (error) {
    if (error instanceof AudioFormatError)
      throw new WorkflowError('Provider.Failed', `The ${name} stem is not a WAV we read: ${error.message}`);
    throw error;
  }
  const peaks = await timer.time('peaks', () => new TextEncoder().encode(JSON.stringify(computePeaks(pcm))));
  const peaksUrl = await timer.time('storePeaks', () => deps.audio.put(peaksKey, peaks, PEAKS_CONTENT_TYPE));
  return { stored: { name, wavUrl, streamUrl: null, peaksUrl, sha256: null, loudness: null }, bytes };
}

interface PreparedWav {
  name: StemName;
  /** The WAV the stem played from. */
  from: string;
  wavUrl: string;
  sha256: string;
}

/**
 * The stems' downloads, once they play: each WAV still as the provider made
 * it is marked, signed and hashed, stored under its own key (CloudFront keeps
 * files by key: writing over the one players fetched could serve it from
 * cache), recorded, and the WAV it played from removed. Returns the set's
 * stems as they now are (a stem prepared before, on an earlier run, as it was).
 */
async function prepareDownloads(
  deps: StemsDeps,
  track: Generation,
  job: StemsJobInput,
  stems: SetStem[],
  bytesOf: (stem: SetStem) => Promise<Uint8Array>,
  total: Timer,
): Promise<SetStem[]> {
  const pending = stems.filter((stem) => stem.stored.sha256 === null);
  if (pending.length === 0) return stems;
  const perStem = pending.map(() => phaseTimer());
  // One stem signed at a time (the work holds the thread), each stored while the next is signed.
  const storing: Array<Promise<{ stem: SetStem; key: string; wav: Uint8Array; prepared: PreparedWav }>> = [];
  for (const [i, stem] of pending.entries()) {
    const timer = perStem[i] as Timer;
    const { name } = stem.stored;
    const key = stemKey(track.id, job.set, name, '.wav');
    const signed = bytesOf(stem).then((bytes) => markDownload(deps, track.id, bytes, stem.marking, timer));
    const stored = signed.then(async ({ wav, sha256 }) => {
      const wavUrl = await timer.time('storeDownload', () => deps.audio.put(key, wav, WAV_CONTENT_TYPE));
      return { stem, key, wav, prepared: { name, from: stem.stored.wavUrl, wavUrl, sha256 } };
    });
    // Settled below with the others (a failure is not left unhandled meanwhile).
    stored.catch(() => undefined);
    storing.push(stored);
    // The next stem is signed once this one is; its upload goes on meanwhile.
    await signed.catch(() => undefined);
  }
  const settled = await Promise.allSettled(storing);
  for (const stemTimer of perStem) addTimings(total.timings, stemTimer.timings);
  const done = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  const recorded = await total
    .time('recordDownloads', () =>
      markStemsPrepared(
        deps.generation,
        track.id,
        job.set,
        job.attempt,
        done.map((d) => d.prepared),
      ),
    )
    .catch((error: unknown) => {
      if (error instanceof DomainError && error.kind === 'not-found') return false;
      throw error;
    });
  if (!recorded) {
    // Deleted or asked again meanwhile: the prepared files are nobody's.
    for (const d of done) await deps.audio.remove(d.key);
    throw new WorkflowError('Generation.Ended', `The stems of ${track.id} are no longer there`);
  }
  await total.time('cleanup', async () => {
    for (const d of done) await deps.audio.remove(masterKey(track.id, job.set, d.stem.stored.name));
  });
  if (failure) throw failure.reason;
  return stems.map((stem) => {
    const d = done.find((x) => x.stem === stem);
    return d
      ? {
          ...stem,
          stored: { ...stem.stored, wavUrl: d.prepared.wavUrl, sha256: d.prepared.sha256 },
          bytes: d.wav,
        }
      : stem;
  });
}

/**
 * The stems' loudness and Opus copies, once they play: each stem without a
 * copy measured, encoded at the track's stream gain and stored, then all
 * recorded at once. Never fails the set: a copy not made leaves players on
 * that stem's WAV. Returns how many copies were recorded.
 */
async function streamCopies(
  deps: StemsDeps,
  track: Generation,
  job: StemsJobInput,
  stems: SetStem[],
  bytesOf: (stem: SetStem) => Promise<Uint8Array>,
  total: Timer,
): Promise<number> {
  const gainDb = track.loudness?.streamGainDb ?? 0;
  const encoder = deps.streamEncoder;
  const copies: Array<{
    name: StemName;
    streamUrl: string | null;
    loudness: StoredStem['loudness'];
    key?: string;
  }> = [];
  for (const stem of stems) {
    const { name } = stem.stored;
    if (stem.stored.loudness !== null) continue;
    // Each stem's phases are added to the step's: the step's timings are the sums over its stems.
    const timer = phaseTimer();
    try {
      const pcm = parseWav(await bytesOf(stem));
      const loudness = await timer.time('loudness', () => measureLoudness(pcm));
      let streamUrl: string | null = null;
      let key: string | undefined;
      if (encoder) {
        const opus = await timer.time('opus', () =>
          encoder.encode(withGain(pcm, gainDb), opusComments(stem.marking)),
        );
        key = stemKey(track.id, job.set, name, encoder.extension);
        const stored = key;
        streamUrl = await timer.time('storeCopy', () => deps.audio.put(stored, opus, encoder.contentType));
      }
      copies.push({ name, streamUrl, loudness, ...(key ? { key } : {}) });
      addTimings(total.timings, timer.timings);
    } catch (error) {
      deps.log?.warn('the compressed copy of a stem was not made; players get its WAV', {
        generationId: track.id,
        stem: name,
        error,
      });
    }
  }
  if (copies.length === 0) return 0;
  const recorded = await total
    .time('recordCopies', () => markStemsStreams(deps.generation, track.id, job.set, job.attempt, copies))
    .catch(() => false);
  if (!recorded) {
    // Deleted or asked again meanwhile: the copies are nobody's.
    for (const copy of copies) if (copy.key) await deps.audio.remove(copy.key);
    return 0;
  }
  return copies.filter((c) => c.streamUrl).length;
}

/**
 * The zip of a ready set whose downloads are prepared, stored and recorded
 * (kept when a run before made it); false (logged) when it could not be made.
 */
async function storeZip(
  deps: StemsDeps,
  track: Generation,
  job: StemsJobInput,
  stems: SetStem[],
): Promise<boolean> {
  if (!deps.stemsArchiver) return false;
  const current = (await deps.generation.generations.get(track.id))?.stems?.[job.set];
  if (current?.zipUrl) return true;
  const key = stemsZipKey(track.id, job.set);
  try {
    const manifest = {
      trackId: track.id,
      title: track.title,
      set: job.set,
      model: `${STEMS_MODEL_NAME} (${track.stems?.[job.set]?.model ?? ''})`,
      stems: stems.map((m) => ({
        name: m.stored.name,
        file: `stems/${m.stored.name}.wav`,
        sha256: m.stored.sha256,
      })),
    };
    const entries: Array<{ name: string; bytes: Uint8Array }> = [];
    for (const m of stems)
      entries.push({
        name: `stems/${m.stored.name}.wav`,
        bytes: m.bytes ?? (await deps.audio.read(m.stored.wavUrl)),
      });
    const zip = await deps.stemsArchiver.zip([
      ...entries,
      { name: 'manifest.json', bytes: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`) },
    ]);
    const zipUrl = await deps.audio.put(key, zip, 'application/zip');
    if (await markStemsZipped(deps.generation, track.id, job.set, job.attempt, zipUrl)) return true;
    await deps.audio.remove(key);
    return false;
  } catch (error) {
    deps.log?.warn('the stems zip was not made; the stems play but cannot be downloaded', {
      generationId: track.id,
      error,
    });
    return false;
  }
}

/** MarkFailed for any execution: a separation fails its set (and refunds it), a generation its track. */
export async function failAny(
  deps: Pick<WorkflowDeps, 'generation'> & Partial<Pick<WorkflowDeps, 'provider' | 'trackEvents' | 'log'>>,
  input: { generationId: string; error?: { Error?: string; Cause?: string }; execution?: unknown },
): Promise<{ refunded: boolean; reason: string; stems?: true }> {
  const stems = stemsJobOf(input.execution);
  if (!stems) return failStep(deps, input);
  const reason = [input.error?.Error, input.error?.Cause].filter(Boolean).join(': ') || 'unknown';
  const track = await deps.generation.generations.get(input.generationId);
  const record = track?.stems?.[stems.set];
  if (
    deps.provider &&
    record?.requestId &&
    record.status === 'processing' &&
    record.attempt === stems.attempt
  )
    await deps.provider.cancel('stems', record.requestId).catch(() => undefined);
  const { refunded } = await markStemsFailed(deps.generation, input.generationId, stems.set, stems.attempt);
  // Marked apart from a failed generation: the generations' counters and alarms do not count it.
  return { refunded, reason, stems: true };
}

/** An execution ended FAILED, TIMED_OUT or ABORTED: a separation still being made fails (refunded once). */
export async function executionEndedAny(
  deps: Pick<WorkflowDeps, 'generation' | 'log'> & Partial<Pick<WorkflowDeps, 'provider' | 'trackEvents'>>,
  input: { generationId: string; status: string; execution?: unknown },
): Promise<Awaited<ReturnType<typeof executionEndedStep>> | Awaited<ReturnType<typeof failAny>>> {
  if (!stemsJobOf(input.execution)) return executionEndedStep(deps, input);
  const outcome = await failAny(deps, {
    generationId: input.generationId,
    execution: input.execution,
    error: { Error: `Execution.${input.status}`, Cause: `The workflow execution ended ${input.status}` },
  });
  return outcome.refunded ? outcome : undefined;
}
