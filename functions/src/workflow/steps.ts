/**
 * The generation workflow's task states as plain functions over ports, so the
 * Lambda entry (lambdas/workflow.ts), the local runner (local/src/workflow) and
 * the unit tests share them. Error names are what the ASL's Retry and Catch
 * match: `Provider.Unavailable` and `Storage.Unavailable` are retried, the rest
 * go to MarkFailed.
 */
import { createHash } from 'node:crypto';
import type { Loudness } from '@tunesmith/shared/ownership';
import { UNTITLED_TRACK } from '@tunesmith/shared/tracks';
import { loudnessRecord, loudnessSteps, withGain } from '../domain/audio/loudness';
import { type FileMarking, markWav, opusComments, type VorbisComment } from '../domain/audio/marking';
import { AudioFormatError, type PcmSource } from '../domain/audio/pcm';
import { computePeaks, PEAKS_CONTENT_TYPE, trackPeaksKey } from '../domain/audio/peaks';
import { parseWav } from '../domain/audio/wav';
import { DomainError } from '../domain/errors';
import { markCompleted, markFailed, markGenerating } from '../domain/generations/generation-service';
import {
  type MusicJobKind,
  type MusicJobStatus,
  type MusicProvider,
  MusicProviderError,
} from '../domain/generations/music-provider';
import type { GenerationDeps } from '../domain/generations/ports';
import { afterCallbackWait, callbackWaitSeconds } from '../domain/generations/timing';
import { provenanceOf, provenanceUrl } from '../domain/tracks/provenance';
import { refreshSharePage, type SharePageDeps } from '../domain/tracks/share-page';
import { type Generation, TRACK_AUDIO_AREA } from '../domain/tracks/track';
import { runInSlices } from './slices';

/** Fetches the provider's result and keeps a track's files in our tracks bucket. */
export interface AudioStore {
  /** The bytes at `url` (the provider's expiring link to the result). */
  fetch(url: string): Promise<Uint8Array>;
  /** Stores a file of a track (the marked WAV, the compressed copy, the peaks) under `key`; returns our URL for it. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  /** Removes a copy (its track was deleted while the audio was on its way). */
  remove(key: string): Promise<void>;
}

/** Makes the compressed copy players stream, from the track's audio (already at the stream's gain). */
export interface StreamEncoder {
  /** The media type of what `encode` makes. */
  readonly contentType: string;
  /** The file name extension of what `encode` makes, with its dot. */
  readonly extension: string;
  /** Encodes `pcm`, with `comments` (the file's marking) in its header. */
  encode(pcm: PcmSource, comments: VorbisComment[]): Promise<Uint8Array>;
}

/** How the files name the site they were made on. */
export interface SiteIdentity {
  /** The site's public origin (`https://example.com`): where the provenance record is read. */
  readonly origin: string;
  /** The site's name (Site Settings, General), read when a track completes. */
  name(): Promise<string>;
}

/**
 * Adds a signed C2PA manifest (content credentials) to a marked WAV. Never
 * required: without it, or when it fails, the WAV carries the marking only.
 */
export interface ContentCredentials {
  sign(wav: Uint8Array, marking: FileMarking): Promise<Uint8Array>;
}

/** Where the steps report what went wrong without failing the track. */
export interface WorkflowLog {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** How the provider's webhook outcome reaches the waiting execution. */
export type CallbackOutcome = { status: 'OK' } | { status: 'ERROR'; error: string };

/**
 * Meeting point of the wait step and the webhook, keyed by the provider's request
 * id. Both calls are atomic: whichever comes second sees what the first left, so
 * a webhook that beats the task token is not lost.
 */
export interface CallbackStore {
  /** Records the task token; returns the outcome if the webhook came first. */
  register(requestId: string, taskToken: string): Promise<{ outcome?: CallbackOutcome }>;
  /** Records the webhook's outcome; returns the task token if the wait step came first. */
  complete(requestId: string, outcome: CallbackOutcome): Promise<{ taskToken?: string }>;
}

/** SendTaskSuccess / SendTaskFailure (Step Functions, or the local runner). */
export interface TaskCallbacks {
  success(taskToken: string, output: unknown): Promise<void>;
  failure(taskToken: string, error: string, cause: string): Promise<void>;
}

export interface WorkflowDeps {
  generation: GenerationDeps;
  provider: MusicProvider;
  audio: AudioStore;
  /** Makes the players' compressed copy; without it tracks have only the WAV. */
  streamEncoder?: StreamEncoder;
  /** The site the files say they were made on. */
  site: SiteIdentity;
  /** Signs the WAV download with a C2PA manifest; without it the WAV carries the marking only. */
  contentCredentials?: ContentCredentials;
  log?: WorkflowLog;
  /** Share documents: a public track gets its own when it completes (decision 024). */
  sharePages?: SharePageDeps;
  /** Where the provider posts its webhook for this generation. */
  webhookUrl: (generationId: string) => string;
  callbacks?: CallbackStore;
  tasks?: TaskCallbacks;
  /**
   * A URL the provider can fetch for the owner's upload (a presigned GET of the
   * stored object path); identity by default.
   */
  inputAudioUrl?: (stored: string, owner: Pick<Generation, 'userId'>) => Promise<string> | string;
  /**
   * A short-lived URL the provider can fetch for a finished track's WAV (a
   * presigned GET of its `s3://` address in the tracks bucket): the source of
   * an extend or a repaint, resolved at submit; identity by default.
   */
  trackAudioUrl?: (stored: string) => Promise<string> | string;
}

export interface Job {
  requestId: string;
  kind: MusicJobKind;
  /** Seconds WaitForCallback waits for the webhook (scaled to the requested duration). */
  waitSeconds: number;
  /** Waits that ended without the webhook so far. */
  waits: number;
  /** Set by PollOnce: the provider has finished, go on to Finish. */
  done?: boolean;
}

/** An error whose `name` is what the state machine's Retry and Catch match. */
export class WorkflowError extends Error {
  constructor(
    override readonly name:
      | 'Provider.Unavailable'
      | 'Provider.Rejected'
      | 'Provider.Failed'
      | 'Generation.NotComplete'
      | 'Generation.NotFound'
      | 'Generation.Ended',
    message: string,
  ) {
    super(message);
  }
}

function asWorkflowError(error: unknown): never {
  if (error instanceof MusicProviderError) {
    const name =
      error.reason === 'unavailable'
        ? 'Provider.Unavailable'
        : error.reason === 'rejected'
          ? 'Provider.Rejected'
          : 'Provider.Failed';
    throw new WorkflowError(name, error.message);
  }
  throw error;
}

async function load(deps: WorkflowDeps, id: string): Promise<Generation> {
  const generation = await deps.generation.generations.get(id);
  if (!generation) throw new WorkflowError('Generation.NotFound', `Generation ${id} does not exist`);
  return generation;
}

/**
 * The provider job a generation runs: extend and repaint by how it was made
 * (`edit.kind`), else by its type (a variation runs its parent's kind again).
 */
const kindOf = (g: Generation): MusicJobKind =>
  g.edit?.kind === 'extend' || g.edit?.kind === 'repaint'
    ? g.edit.kind
    : g.type === 'audio-to-music'
      ? 'audio'
      : 'text';

/** What the provider gets as lyrics: `[instrumental]` for a track without vocals. */
export const INSTRUMENTAL_LYRICS = '[instrumental]';

/**
 * The WAV an extend or a repaint starts from: its parent's, as a link the
 * provider can fetch. A parent that is gone, not the owner's, or has no
 * finished audio is a refused job (the track fails and its unit goes back).
 */
async function parentAudio(deps: WorkflowDeps, child: Generation): Promise<string> {
  const parent = child.parentId ? await deps.generation.generations.get(child.parentId) : undefined;
  if (!parent || parent.userId !== child.userId)
    throw new MusicProviderError('The track this one is made from no longer exists', 'rejected');
  if (parent.status !== 'completed' || !parent.audioUrl)
    throw new MusicProviderError('The track this one is made from has no finished audio', 'rejected');
  return (deps.trackAudioUrl ?? ((u) => u))(parent.audioUrl);
}

/**
 * Submit: sends the job with the webhook URL, then pending → generating with
 * falRequestId. One definition serves every kind: the endpoint and input come
 * from the generation (extend and repaint send the parent's WAV, a restyle its
 * upload, text its duration).
 */
export async function submitStep(deps: WorkflowDeps, input: { generationId: string }): Promise<Job> {
  const generation = await load(deps, input.generationId);
  const kind = kindOf(generation);
  // Already failed (e.g. its start was answered as lost and refunded) or done: never spend provider time on it.
  if (generation.status === 'failed' || generation.status === 'completed')
    throw new WorkflowError(
      'Generation.Ended',
      `Generation ${generation.id} is already ${generation.status}`,
    );
  // A retried submit (the Lambda timed out after the provider accepted) reuses the job.
  const waitSeconds = callbackWaitSeconds(generation.duration);
  if (generation.status === 'generating' && generation.falRequestId)
    return { requestId: generation.falRequestId, kind, waitSeconds, waits: 0 };
  const webhookUrl = deps.webhookUrl(generation.id);
  const lyrics = generation.instrumental ? INSTRUMENTAL_LYRICS : (generation.lyrics ?? '');
  const { tags } = generation;
  const edit = generation.edit;
  let requestId: string;
  try {
    if (edit?.kind === 'extend') {
      const audioUrl = await parentAudio(deps, generation);
      ({ requestId } = await deps.provider.submitExtend({
        audioUrl,
        tags,
        lyrics,
        before: edit.at === 'start' ? edit.seconds : 0,
        after: edit.at === 'end' ? edit.seconds : 0,
        webhookUrl,
      }));
    } else if (edit?.kind === 'repaint') {
      const audioUrl = await parentAudio(deps, generation);
      ({ requestId } = await deps.provider.submitRepaint({
        audioUrl,
        tags,
        lyrics,
        start: edit.start,
        end: edit.end,
        variance: edit.variance,
        webhookUrl,
      }));
    } else if (kind === 'audio') {
      if (!generation.inputAudioUrl)
        throw new MusicProviderError('The generation has no input audio', 'rejected');
      const audioUrl = await (deps.inputAudioUrl ?? ((u) => u))(generation.inputAudioUrl, generation);
      ({ requestId } = await deps.provider.submitAudioToMusic({
        audioUrl,
        tags,
        lyrics,
        originalTags: tags,
        webhookUrl,
      }));
    } else {
      ({ requestId } = await deps.provider.submitTextToMusic({
        tags,
        lyrics,
        duration: generation.duration ?? 60,
        webhookUrl,
      }));
    }
  } catch (error) {
    return asWorkflowError(error);
  }
  await markGenerating(deps.generation, generation.id, { falRequestId: requestId });
  return { requestId, kind, waitSeconds, waits: 0 };
}

/** Turns a webhook outcome into the waiting task's answer. */
async function deliver(tasks: TaskCallbacks, taskToken: string, outcome: CallbackOutcome) {
  if (outcome.status === 'OK') await tasks.success(taskToken, { status: 'OK' });
  else await tasks.failure(taskToken, 'Provider.Failed', outcome.error);
}

/**
 * WaitForCallback's function: leaves the task token where the webhook finds it.
 * If the webhook already came, answers the task at once.
 */
export async function waitStep(
  deps: Pick<WorkflowDeps, 'callbacks' | 'tasks'>,
  input: { generationId: string; requestId: string; taskToken: string },
): Promise<void> {
  if (!deps.callbacks) return;
  const { outcome } = await deps.callbacks.register(input.requestId, input.taskToken);
  if (outcome && deps.tasks) await deliver(deps.tasks, input.taskToken, outcome);
}

/**
 * For the webhook route, after it verified the delivery: records the outcome and
 * answers the waiting task if its token is there (else the wait step will).
 * Idempotent per request id as far as the state machine is concerned: a task
 * answered twice rejects the second answer, which is ignored.
 */
export async function webhookReceived(
  deps: Pick<WorkflowDeps, 'callbacks' | 'tasks'>,
  webhook: { requestId: string; status: 'OK' | 'ERROR'; error?: string },
): Promise<{ delivered: boolean }> {
  if (!deps.callbacks) return { delivered: false };
  const outcome: CallbackOutcome =
    webhook.status === 'OK'
      ? { status: 'OK' }
      : { status: 'ERROR', error: webhook.error ?? 'The provider reported an error' };
  const { taskToken } = await deps.callbacks.complete(webhook.requestId, outcome);
  if (!taskToken || !deps.tasks) return { delivered: false };
  try {
    await deliver(deps.tasks, taskToken, outcome);
  } catch {
    // Already answered, timed out or the execution is over: nothing to do.
    return { delivered: false };
  }
  return { delivered: true };
}

/**
 * PollOnce: the webhook did not come in time; one status check. Completed →
 * `done` (on to Finish); still queued or running → wait again; after the
 * last wait → cancel the job at the provider and fail.
 */
export async function pollStep(deps: WorkflowDeps, input: { generationId: string; job: Job }): Promise<Job> {
  let status: MusicJobStatus;
  try {
    status = await deps.provider.status(input.job.kind, input.job.requestId);
  } catch (error) {
    return asWorkflowError(error);
  }
  const waits = (input.job.waits ?? 0) + 1;
  const next = afterCallbackWait(status, waits);
  if (next === 'finish') return { ...input.job, waits, done: true };
  if (next === 'wait-again') return { ...input.job, waits, done: false };
  await deps.provider.cancel(input.job.kind, input.job.requestId).catch(() => undefined);
  throw new WorkflowError(
    'Generation.NotComplete',
    `The provider had not finished ${input.job.requestId} after ${waits} waits (${status})`,
  );
}

/**
 * Where a finished track's audio lives in our bucket: by the track's id only,
 * so a public link says nothing about whose track it is.
 */
export const trackAudioKey = (g: Pick<Generation, 'id'>) => `${TRACK_AUDIO_AREA}${g.id}.wav`;

/** The media type the WAV download is stored with. */
export const WAV_CONTENT_TYPE = 'audio/wav';

/** Where the players' compressed copy of a track lives, beside its WAV. */
export const trackStreamKey = (g: Pick<Generation, 'id'>, extension: string) =>
  `${TRACK_AUDIO_AREA}${g.id}${extension}`;

/**
 * The players' compressed copy, stored beside the WAV: the track's audio at
 * the stream's gain (gain only: no compression, no limiter), the marking in
 * its header; undefined when there is no encoder or making it failed. Never
 * throws: a track without the copy still completes, and players get the WAV.
 */
async function storeStreamCopy(
  deps: WorkflowDeps,
  generation: Generation,
  pcm: PcmSource,
  gainDb: number,
  marking: FileMarking,
): Promise<{ key: string; url: string } | undefined> {
  const encoder = deps.streamEncoder;
  if (!encoder) return undefined;
  const key = trackStreamKey(generation, encoder.extension);
  const started = Date.now();
  try {
    const bytes = await encoder.encode(withGain(pcm, gainDb), opusComments(marking));
    const url = await deps.audio.put(key, bytes, encoder.contentType);
    return { key, url };
  } catch (error) {
    deps.log?.warn('the compressed copy of a track was not made; players get the WAV', {
      generationId: generation.id,
      milliseconds: Date.now() - started,
      error,
    });
    return undefined;
  }
}

/**
 * The waveform's peaks (audiowaveform JSON) of the track's audio, stored
 * beside it; undefined when making or storing them failed. Never throws: a
 * track without peaks still completes (the backfill can make them later).
 */
async function storePeaks(
  deps: WorkflowDeps,
  generation: Generation,
  pcm: PcmSource,
): Promise<{ key: string; url: string } | undefined> {
  const key = trackPeaksKey(generation);
  try {
    const peaks = new TextEncoder().encode(JSON.stringify(computePeaks(pcm)));
    const url = await deps.audio.put(key, peaks, PEAKS_CONTENT_TYPE);
    return { key, url };
  } catch (error) {
    deps.log?.warn("a track's waveform peaks were not made; it completes without them", {
      generationId: generation.id,
      error,
    });
    return undefined;
  }
}

/**
 * What a track's files say about it: its title as it is now (a later rename
 * does not rewrite them), the site, the model, where its provenance record is
 * read, and its license when it has one.
 */
export async function fileMarkingOf(site: SiteIdentity, generation: Generation): Promise<FileMarking> {
  const title = generation.title?.trim() || UNTITLED_TRACK;
  return {
    title,
    siteName: await site.name(),
    model: provenanceOf(generation, site.origin).model,
    provenanceUrl: provenanceUrl(site.origin, generation.id),
    createdAt: generation.createdAt,
    license: generation.origin?.license ?? null,
  };
}

/** A track's master as it is stored for download, and what was learnt making it. */
export interface PreparedAudio {
  /** The WAV download: the master's samples with the marking (and a C2PA manifest when signed). */
  wav: Uint8Array;
  /** SHA-256 (hex) of exactly `wav`. */
  sha256: string;
  /** The audio, read from `wav` (undefined when it is not a WAV we read). */
  pcm?: PcmSource;
  loudness: Loudness | null;
}

/**
 * The master made ready for download: marked (LIST/INFO and XMP; the samples
 * and every other chunk untouched), signed with content credentials when
 * they are set up (a failed signature leaves the marking alone), hashed, and
 * measured. Audio that is not a WAV we read is kept as it came (and logged).
 */
export async function prepareMaster(
  deps: Pick<WorkflowDeps, 'contentCredentials' | 'log'>,
  generationId: string,
  master: Uint8Array,
  marking: FileMarking,
): Promise<PreparedAudio> {
  let wav = master;
  let marked = false;
  try {
    wav = markWav(master, marking);
    marked = true;
  } catch (error) {
    if (!(error instanceof AudioFormatError)) throw error;
    deps.log?.warn('the audio is not a WAV we read; it is kept unmarked', { generationId, error });
  }
  if (marked && deps.contentCredentials) {
    try {
      wav = await deps.contentCredentials.sign(wav, marking);
    } catch (error) {
      deps.log?.warn('the content credentials were not signed; the WAV carries the marking only', {
        generationId,
        error,
      });
    }
  }
  const sha256 = createHash('sha256').update(wav).digest('hex');
  if (!marked) return { wav, sha256, loudness: null };
  const pcm = parseWav(wav);
  const loudness = loudnessRecord(await runInSlices(loudnessSteps(pcm)));
  return { wav, sha256, pcm, loudness };
}

/**
 * Finish: fetch the result, mark it (and sign it) as the WAV download, hash
 * and measure it, store it, make the players' compressed copy at the stream's
 * gain and the waveform's peaks from the same audio beside it, and mark the
 * track completed with duration, seed, URLs, loudness and the WAV's hash.
 */
export async function finishStep(
  deps: WorkflowDeps,
  input: { generationId: string; job: Job },
): Promise<{
  audioUrl: string;
  streamAudioUrl: string | null;
  peaksUrl: string | null;
  duration: number;
  seed: number | null;
}> {
  const generation = await load(deps, input.generationId);
  let result: Awaited<ReturnType<MusicProvider['result']>>;
  try {
    result = await deps.provider.result(input.job.kind, input.job.requestId);
  } catch (error) {
    return asWorkflowError(error);
  }
  const key = trackAudioKey(generation);
  const marking = await fileMarkingOf(deps.site, generation);
  const prepared = await prepareMaster(deps, generation.id, await deps.audio.fetch(result.audioUrl), marking);
  const audioUrl = await deps.audio.put(key, prepared.wav, WAV_CONTENT_TYPE);
  const pcm = prepared.pcm;
  const duration =
    result.duration ?? (pcm ? pcm.frames / pcm.sampleRate : undefined) ?? generation.duration ?? 0;
  const rounded = Math.round(duration * 100) / 100;
  const stream = pcm
    ? await storeStreamCopy(deps, generation, pcm, prepared.loudness?.streamGainDb ?? 0, marking)
    : undefined;
  const peaks = pcm ? await storePeaks(deps, generation, pcm) : undefined;
  if (!pcm) {
    deps.log?.warn('the audio is not a WAV we read; the track has no compressed copy or peaks', {
      generationId: generation.id,
    });
  }
  const removeCopies = async () => {
    await deps.audio.remove(key);
    if (stream) await deps.audio.remove(stream.key);
    if (peaks) await deps.audio.remove(peaks.key);
  };
  let done: Generation;
  try {
    done = await markCompleted(deps.generation, generation.id, {
      audioUrl,
      streamAudioUrl: stream?.url ?? null,
      peaksUrl: peaks?.url ?? null,
      duration: rounded,
      seed: result.seed,
      loudness: prepared.loudness,
      audioSha256: prepared.sha256,
    });
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'not-found')) throw error;
    // Deleted by its owner during the copy: nothing may keep its audio.
    await removeCopies();
    throw new WorkflowError('Generation.NotFound', `Generation ${generation.id} was deleted`);
  }
  if (done.status !== 'completed') {
    // Failed meanwhile (its unit already went back): it shows no audio, so none is kept.
    await removeCopies();
    throw new WorkflowError('Generation.Ended', `Generation ${generation.id} is ${done.status}`);
  }
  if (deps.sharePages) {
    // The track is playable whatever happens here; a page not written is mended by the next change or rewrite.
    await refreshSharePage(deps.sharePages, generation.id).catch((error: unknown) =>
      deps.log?.warn('the share page of a completed track was not written', {
        generationId: generation.id,
        error,
      }),
    );
  }
  return {
    audioUrl,
    streamAudioUrl: stream?.url ?? null,
    peaksUrl: peaks?.url ?? null,
    duration: rounded,
    seed: result.seed,
  };
}

/** MarkFailed: failed (final) and one refund; a second call changes nothing. */
export async function failStep(
  deps: Pick<WorkflowDeps, 'generation'> & Partial<Pick<WorkflowDeps, 'provider'>>,
  input: { generationId: string; error?: { Error?: string; Cause?: string } },
): Promise<{ refunded: boolean; reason: string }> {
  const reason = [input.error?.Error, input.error?.Cause].filter(Boolean).join(': ') || 'unknown';
  const before = await deps.generation.generations.get(input.generationId);
  // A job we give up on stops costing at the provider (what it already finished is not lost: it was never kept).
  if (deps.provider && before?.falRequestId && before.status !== 'completed' && before.status !== 'failed') {
    await deps.provider.cancel(kindOf(before), before.falRequestId).catch(() => undefined);
  }
  try {
    const { refunded } = await markFailed(deps.generation, input.generationId, reason);
    return { refunded, reason };
  } catch (error) {
    // Deleted by its owner (who got the unit back then): nothing left to fail.
    if (error instanceof DomainError && error.kind === 'not-found') return { refunded: false, reason };
    throw error;
  }
}

/**
 * An execution ended FAILED, TIMED_OUT or ABORTED (the EventBridge rule on
 * AWS, the runner locally): whatever state it stopped in, its track is marked
 * failed and the unit refunded, once. A completed track stays completed.
 */
export async function executionEndedStep(
  deps: Pick<WorkflowDeps, 'generation'> & Partial<Pick<WorkflowDeps, 'provider'>>,
  input: { generationId: string; status: string },
): Promise<{ refunded: boolean; reason: string } | undefined> {
  const generation = await deps.generation.generations.get(input.generationId);
  if (!generation || generation.status === 'completed' || generation.status === 'failed') return undefined;
  return failStep(deps, {
    generationId: input.generationId,
    error: { Error: `Execution.${input.status}`, Cause: `The workflow execution ended ${input.status}` },
  });
}
