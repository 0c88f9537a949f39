/**
 * The generation workflow's task states as plain functions over ports, so the
 * Lambda entry (lambdas/workflow.ts), the local runner (local/src/workflow) and
 * the unit tests share them. Error names are what the ASL's Retry and Catch
 * match: `Provider.Unavailable` and `Storage.Unavailable` are retried, the rest
 * go to MarkFailed.
 */
import { createHash } from 'node:crypto';
import type { WebhookEventType } from '@tunesmith/shared/developer-api';
import { DEFAULT_MODEL_ID, musicModel } from '@tunesmith/shared/models';
import { tempoAndKeyTags } from '@tunesmith/shared/musical-keys';
import type { Loudness } from '@tunesmith/shared/ownership';
import type { TrackAnalysis } from '@tunesmith/shared/tracks';
import { UNTITLED_TRACK } from '@tunesmith/shared/tracks';
import { loudnessRecord, loudnessSteps, withGain } from '../domain/audio/loudness';
import { type FileMarking, markWav, opusComments, type VorbisComment } from '../domain/audio/marking';
import { AudioFormatError, type PcmSource } from '../domain/audio/pcm';
import { PEAKS_CONTENT_TYPE, trackPeaksKey } from '../domain/audio/peaks';
import { parseWav } from '../domain/audio/wav';
import { DomainError } from '../domain/errors';
import {
  markCompleted,
  markDownloadReady,
  markFailed,
  markGenerating,
} from '../domain/generations/generation-service';
import {
  type MusicJobKind,
  type MusicJobStatus,
  type MusicProvider,
  MusicProviderError,
  musicEndpointOf,
} from '../domain/generations/music-provider';
import type { GenerationDeps, GenerationStore } from '../domain/generations/ports';
import { afterCallbackWait, callbackWaitSeconds } from '../domain/generations/timing';
import { hasLyricsToTime, type LyricsStore, timeTrackLyrics } from '../domain/lyrics/lyrics-timing';
import { provenanceOf, provenanceUrl } from '../domain/tracks/provenance';
import { refreshSharePage, type SharePageDeps } from '../domain/tracks/share-page';
import { type Generation, isGalleryVisible, TRACK_AUDIO_AREA } from '../domain/tracks/track';
import { type AudioWork, inThreadAudioWork } from './audio-work';
import { sniffAudio, wavMaster } from './provider-audio';
import { runInSlices } from './slices';

/** Fetches the provider's result and keeps a track's files in our tracks bucket. */
export interface AudioStore {
  /** The bytes at `url` (the provider's expiring link to the result). */
  fetch(url: string): Promise<Uint8Array>;
  /** Stores a file of a track (the marked WAV, the compressed copy, the peaks) under `key`; returns our URL for it. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  /**
   * {@link fetch} and {@link put} at once: the bytes at `url` stored under
   * `key` as they arrive (a stem plays from its WAV as it came), and returned.
   */
  keep(url: string, key: string, contentType: string): Promise<{ bytes: Uint8Array; stored: string }>;
  /** The bytes of a file stored by `put`, by the URL it returned. */
  read(stored: string): Promise<Uint8Array>;
  /** Removes a copy (its track was deleted while the audio was on its way). */
  remove(key: string): Promise<void>;
}

/** Makes the compressed copy players stream, from the track's audio (already at the stream's gain). */
export interface StreamEncoder {
  /** The media type of what `encode` makes. */
  readonly contentType: string;
  /** The file name extension of what `encode` makes, with its dot. */
  readonly extension: string;
  /**
   * Encodes `pcm`, with `comments` (the file's marking) in its header; they
   * may still be on their way (tempo and key are measured while it encodes).
   */
  encode(
    pcm: PcmSource,
    comments: readonly VorbisComment[] | Promise<readonly VorbisComment[]>,
  ): Promise<Uint8Array>;
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

/** Where the steps report what went wrong without failing the track, and what their phases took. */
export interface WorkflowLog {
  warn(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
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
  /** Where Finish measures the audio; in this thread when absent. */
  audioWork?: AudioWork;
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
  /** Where timed lyrics are kept; without it, lyrics are not timed. */
  lyrics?: LyricsStore;
  /** Tells the owner's webhooks a track completed or failed, or its stems are ready (decision 053). */
  trackEvents?: TrackEvents;
}

/** The events a track raises for its owner's webhooks. */
export interface TrackEvents {
  raise(type: WebhookEventType, generation: Generation): Promise<unknown>;
}

/**
 * Raises a track's event; a failure to record it is logged and never fails
 * the track (its owner's webhooks miss that one event).
 */
export async function raiseTrackEvent(
  deps: Pick<WorkflowDeps, 'trackEvents' | 'log'>,
  type: WebhookEventType,
  generation: Generation,
): Promise<void> {
  if (!deps.trackEvents) return;
  try {
    await deps.trackEvents.raise(type, generation);
  } catch (error) {
    deps.log?.warn('a webhook event was not recorded', { generationId: generation.id, type, error });
  }
}

export interface Job {
  requestId: string;
  kind: MusicJobKind;
  /**
   * The endpoint the job was submitted to, whose queue status, result and
   * cancel name; absent in jobs submitted before there was a choice of
   * models (then the kind's ACE-Step endpoint).
   */
  endpoint?: string;
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

/** A provider's error as the error name the state machine's Retry and Catch match. */
export function asWorkflowError(error: unknown): never {
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

/** The endpoint a generation's job runs on: its model's (a track from before the choice: ACE-Step's). */
const endpointOf = (g: Generation): string | undefined => musicEndpointOf(kindOf(g), g.model);

/** What ACE-Step gets as lyrics for a studio job on a track without vocals. */
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
  // Its master goes once its download is there: the submit is retried (Provider.Unavailable) until then.
  if (parent.downloadPending)
    throw new MusicProviderError('The track this one is made from is still being prepared', 'unavailable');
  return (deps.trackAudioUrl ?? ((u) => u))(parent.audioUrl);
}

/**
 * The WAV a remix restyles (decision 060): its source's, while the source is
 * still listed and remixable; otherwise the job is refused (the remix fails
 * and its unit goes back), since its owner withdrew it.
 */
async function remixSourceAudio(
  deps: WorkflowDeps,
  remixOf: NonNullable<Generation['remixOf']>,
): Promise<string> {
  const source = await deps.generation.generations.get(remixOf.trackId);
  if (!source || !isGalleryVisible(source) || !source.remixable || !source.audioUrl)
    throw new MusicProviderError('The track this remixes may no longer be remixed', 'rejected');
  if (source.downloadPending)
    throw new MusicProviderError('The track this remixes is still being prepared', 'unavailable');
  return (deps.trackAudioUrl ?? ((u) => u))(source.audioUrl);
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
  const model = generation.model ?? DEFAULT_MODEL_ID;
  const endpoint = endpointOf(generation);
  // The API offers a model only the jobs it runs; a record that says otherwise is refused, not sent elsewhere.
  if (!endpoint)
    return asWorkflowError(
      new MusicProviderError(`The model ${model} does not run ${kind} jobs`, 'rejected'),
    );
  if (generation.status === 'generating' && generation.falRequestId)
    return { requestId: generation.falRequestId, kind, endpoint, waitSeconds, waits: 0 };
  const webhookUrl = deps.webhookUrl(generation.id);
  const lyrics = generation.instrumental ? INSTRUMENTAL_LYRICS : (generation.lyrics ?? '');
  // A tempo and key asked for reach the model as tags ("120 bpm, A minor"), as ACE-Step reads them.
  const tags = tempoAndKeyTags(generation.tags, { bpm: generation.tempo, key: generation.musicalKey });
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
      const remixOf = generation.remixOf;
      if (!generation.inputAudioUrl && !remixOf)
        throw new MusicProviderError('The generation has no input audio', 'rejected');
      const audioUrl = remixOf
        ? await remixSourceAudio(deps, remixOf)
        : await (deps.inputAudioUrl ?? ((u) => u))(generation.inputAudioUrl ?? '', generation);
      ({ requestId } = await deps.provider.submitAudioToMusic({
        audioUrl,
        tags,
        lyrics,
        originalTags: tags,
        webhookUrl,
      }));
    } else {
      ({ requestId } = await deps.provider.submitTextToMusic({
        model,
        tags,
        lyrics: generation.instrumental ? '' : (generation.lyrics ?? ''),
        instrumental: !!generation.instrumental,
        // A model that decides the length is given none; the others the length asked for (60 s by default).
        duration: musicModel(model)?.duration ? (generation.duration ?? 60) : null,
        webhookUrl,
      }));
    }
  } catch (error) {
    return asWorkflowError(error);
  }
  await markGenerating(deps.generation, generation.id, { falRequestId: requestId });
  return { requestId, kind, endpoint, waitSeconds, waits: 0 };
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
    status = await deps.provider.status(input.job.kind, input.job.requestId, input.job.endpoint);
  } catch (error) {
    return asWorkflowError(error);
  }
  const waits = (input.job.waits ?? 0) + 1;
  const next = afterCallbackWait(status, waits);
  if (next === 'finish') return { ...input.job, waits, done: true };
  if (next === 'wait-again') return { ...input.job, waits, done: false };
  await deps.provider.cancel(input.job.kind, input.job.requestId, input.job.endpoint).catch(() => undefined);
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

/**
 * Where the provider's master waits, as it came, from the moment the track
 * plays until its download is prepared (then it is removed). A key of its own:
 * CloudFront keeps track audio by key, so the marked WAV is never written over
 * a file that may already have been served.
 */
export const trackMasterKey = (g: Pick<Generation, 'id'>) => `${TRACK_AUDIO_AREA}${g.id}.master.wav`;

/** The media type the WAV download is stored with. */
export const WAV_CONTENT_TYPE = 'audio/wav';

/** Where the players' compressed copy of a track lives, beside its WAV. */
export const trackStreamKey = (g: Pick<Generation, 'id'>, extension: string) =>
  `${TRACK_AUDIO_AREA}${g.id}${extension}`;

/** Milliseconds each phase of a step took, in the order they ran: in the step's output and its log line. */
export type StepTimings = Record<string, number>;

/** Times a step's phases (in its output and its log line). */
export function phaseTimer() {
  const timings: StepTimings = {};
  return {
    timings,
    async time<T>(phase: string, work: () => Promise<T> | T): Promise<T> {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[phase] = Math.round((performance.now() - started) * 10) / 10;
      }
    },
  };
}

/**
 * The players' compressed copy: the track's audio at the stream's gain (gain
 * only: no compression, no limiter), the marking in its header; undefined
 * when there is no encoder or encoding failed. Never throws: a track without
 * the copy still completes, and players get the WAV.
 */
async function encodeStreamCopy(
  deps: WorkflowDeps,
  generation: Generation,
  pcm: PcmSource,
  gainDb: number,
  marking: Promise<FileMarking>,
): Promise<Uint8Array | undefined> {
  const encoder = deps.streamEncoder;
  if (!encoder) return undefined;
  try {
    return await encoder.encode(withGain(pcm, gainDb), marking.then(opusComments));
  } catch (error) {
    deps.log?.warn('the compressed copy of a track was not made; players get the WAV', {
      generationId: generation.id,
      error,
    });
    return undefined;
  }
}

/**
 * The waveform's peaks (audiowaveform JSON) of the track's audio; undefined
 * when making them failed. Never throws: a track without peaks still
 * completes (the backfill can make them later).
 */
async function peaksOf(
  deps: WorkflowDeps,
  work: AudioWork,
  generation: Generation,
  pcm: PcmSource,
): Promise<Uint8Array | undefined> {
  try {
    return new TextEncoder().encode(JSON.stringify(await work.peaks(pcm)));
  } catch (error) {
    deps.log?.warn("a track's waveform peaks were not made; it completes without them", {
      generationId: generation.id,
      error,
    });
    return undefined;
  }
}

/** Stores a file the track can do without; undefined (and logged) when the store fails. */
async function storeOptional(
  deps: WorkflowDeps,
  generation: Generation,
  what: string,
  key: string,
  bytes: Uint8Array | undefined,
  contentType: string,
): Promise<{ key: string; url: string } | undefined> {
  if (!bytes) return undefined;
  try {
    return { key, url: await deps.audio.put(key, bytes, contentType) };
  } catch (error) {
    deps.log?.warn(`${what} of a track was not stored; it completes without it`, {
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
  const provenance = provenanceOf(generation, site.origin);
  return {
    title,
    siteName: await site.name(),
    model: provenance.model,
    endpoint: provenance.endpoint,
    provenanceUrl: provenanceUrl(site.origin, generation.id),
    createdAt: generation.createdAt,
    license: generation.origin?.license ?? null,
    analysis: generation.analysis ?? null,
  };
}

/** The WAV download as stored, and its hash. */
export interface MarkedDownload {
  /** The master's samples with the marking (and a C2PA manifest when signed). */
  wav: Uint8Array;
  /** SHA-256 (hex) of exactly `wav`. */
  sha256: string;
  /** False when the master is not a WAV we read: it is kept as it came. */
  marked: boolean;
}

type Timer = ReturnType<typeof phaseTimer>;

/**
 * The master made ready for download: marked (LIST/INFO, XMP and ID3; the samples
 * and every other chunk untouched), signed with content credentials when
 * they are set up (a failed signature leaves the marking alone), and hashed.
 * Audio that is not a WAV we read is kept as it came (and logged).
 */
export async function markDownload(
  deps: Pick<WorkflowDeps, 'contentCredentials' | 'log'>,
  generationId: string,
  master: Uint8Array,
  marking: FileMarking,
  timer: Timer = phaseTimer(),
): Promise<MarkedDownload> {
  let wav = master;
  let marked = false;
  await timer.time('marking', () => {
    try {
      wav = markWav(master, marking);
      marked = true;
    } catch (error) {
      if (!(error instanceof AudioFormatError)) throw error;
      deps.log?.warn('the audio is not a WAV we read; it is kept unmarked', { generationId, error });
    }
  });
  const credentials = deps.contentCredentials;
  if (marked && credentials) {
    await timer.time('c2pa', async () => {
      try {
        wav = await credentials.sign(wav, marking);
      } catch (error) {
        deps.log?.warn('the content credentials were not signed; the WAV carries the marking only', {
          generationId,
          error,
        });
      }
    });
  }
  const sha256 = await timer.time('hashing', () => createHash('sha256').update(wav).digest('hex'));
  return { wav, sha256, marked };
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

/** The loudness of the master (ITU-R BS.1770), the event loop getting a turn meanwhile. */
export const measureLoudness = async (pcm: PcmSource): Promise<Loudness> =>
  loudnessRecord(await runInSlices(loudnessSteps(pcm)));

/**
 * Tempo and key of the audio, the event loop getting a turn meanwhile;
 * undefined when it cannot be told (too short or silent) or measuring failed
 * (logged: a track completes without it).
 */
export async function measureTempoAndKey(
  deps: Pick<WorkflowDeps, 'log'>,
  generationId: string,
  pcm: PcmSource,
  work: AudioWork = inThreadAudioWork,
): Promise<TrackAnalysis | undefined> {
  try {
    return await work.tempoAndKey(pcm);
  } catch (error) {
    deps.log?.warn("a track's tempo and key were not measured; it completes without them", {
      generationId,
      error,
    });
    return undefined;
  }
}

/** {@link markDownload}, then the audio read back and measured (the files backfill makes everything at once). */
export async function prepareMaster(
  deps: Pick<WorkflowDeps, 'contentCredentials' | 'log'>,
  generationId: string,
  master: Uint8Array,
  marking: FileMarking,
): Promise<PreparedAudio> {
  const { wav, sha256, marked } = await markDownload(deps, generationId, master, marking);
  if (!marked) return { wav, sha256, loudness: null };
  const pcm = parseWav(wav);
  return { wav, sha256, pcm, loudness: await measureLoudness(pcm) };
}

/** The master's audio, or undefined when it is not a WAV we read. */
function readableAudio(master: Uint8Array): PcmSource | undefined {
  try {
    return parseWav(master);
  } catch (error) {
    if (error instanceof AudioFormatError) return undefined;
    throw error;
  }
}

export interface FinishOutput {
  audioUrl: string;
  streamAudioUrl: string | null;
  peaksUrl: string | null;
  duration: number;
  seed: number | null;
  /** The download is prepared next (PrepareDownload); false when the audio is kept as it came. */
  downloadPending: boolean;
  timings: StepTimings;
}

/**
 * Finish: the track plays as soon as it can. Fetches the result, measures its
 * loudness, makes the players' compressed copy at the stream's gain and the
 * waveform's peaks, stores them with the master as it came (its upload runs
 * while the copy is encoded), and marks the track completed with duration,
 * seed, URLs and loudness, its download pending: marking, signing and hashing
 * the WAV are PrepareDownload's. FLAC and MP3 are decoded to a WAV master
 * first; audio that is none of these is kept as it came and is its own download.
 */
export async function finishStep(
  deps: WorkflowDeps,
  input: { generationId: string; job: Job },
): Promise<FinishOutput> {
  const timer = phaseTimer();
  const work = deps.audioWork ?? inThreadAudioWork;
  // Threads that measure the audio start while it is fetched.
  work.prepare?.();
  const generation = await load(deps, input.generationId);
  const { result, master: fetched } = await timer.time('fetch', async () => {
    let result: Awaited<ReturnType<MusicProvider['result']>>;
    try {
      result = await deps.provider.result(input.job.kind, input.job.requestId, input.job.endpoint);
    } catch (error) {
      return asWorkflowError(error);
    }
    return { result, master: await deps.audio.fetch(result.audioUrl) };
  });
  // A model that answers FLAC or MP3 has it decoded: the master is always a WAV.
  const decoded =
    sniffAudio(fetched) === 'wav' ? undefined : await timer.time('decode', () => wavMaster(fetched));
  if (decoded)
    deps.log?.info?.(`finish: the provider's ${decoded.from.toUpperCase()} is kept as a WAV`, {
      generationId: generation.id,
    });
  const master = decoded?.wav ?? fetched;
  const pcm = readableAudio(master);
  const duration =
    result.duration ?? (pcm ? pcm.frames / pcm.sampleRate : undefined) ?? generation.duration ?? 0;
  const rounded = Math.round(duration * 100) / 100;

  let stored: {
    audioUrl: string;
    keys: string[];
    stream?: { key: string; url: string };
    peaks?: { key: string; url: string };
    loudness: Loudness | null;
    audioSha256: string | null;
    analysis?: TrackAnalysis;
  };
  if (pcm) {
    const masterKey = trackMasterKey(generation);
    // The master uploads while the audio is measured and encoded: one waits on the network, the rest on the CPU.
    const storingMaster = deps.audio.put(masterKey, master, WAV_CONTENT_TYPE);
    storingMaster.catch(() => undefined);
    // The site's name is read meanwhile too.
    const marking = fileMarkingOf(deps.site, generation);
    marking.catch(() => undefined);
    // Measured at once (on worker threads where there are any); the copy is encoded once the loudness
    // gives its gain, while tempo and key, which go in its header, are still being measured.
    const measuring = timer.time('loudness', async () => loudnessRecord(await work.loudness(pcm)));
    const analysing = timer.time('analysis', () => measureTempoAndKey(deps, generation.id, pcm, work));
    const drawing = timer.time('peaks', () => peaksOf(deps, work, generation, pcm));
    analysing.catch(() => undefined);
    drawing.catch(() => undefined);
    const loudness = await measuring;
    const opus = timer.time('opus', () =>
      encodeStreamCopy(
        deps,
        generation,
        pcm,
        loudness.streamGainDb,
        Promise.all([marking, analysing]).then(([fileMarking, analysis]) => ({
          ...fileMarking,
          analysis: analysis ?? null,
        })),
      ),
    );
    const storingPeaks = drawing.then((peaks) =>
      storeOptional(
        deps,
        generation,
        'the waveform peaks',
        trackPeaksKey(generation),
        peaks,
        PEAKS_CONTENT_TYPE,
      ),
    );
    storingPeaks.catch(() => undefined);
    const analysis = await analysing;
    const copy = await opus;
    const extension = deps.streamEncoder?.extension ?? '';
    const [audioUrl, streamCopy, peaksFile] = await timer.time('store', () =>
      Promise.all([
        storingMaster,
        storeOptional(
          deps,
          generation,
          'the compressed copy',
          trackStreamKey(generation, extension),
          copy,
          deps.streamEncoder?.contentType ?? '',
        ),
        storingPeaks,
      ]),
    );
    stored = {
      audioUrl,
      keys: [masterKey, ...(streamCopy ? [streamCopy.key] : []), ...(peaksFile ? [peaksFile.key] : [])],
      ...(streamCopy ? { stream: streamCopy } : {}),
      ...(peaksFile ? { peaks: peaksFile } : {}),
      loudness,
      audioSha256: null,
      ...(analysis ? { analysis } : {}),
    };
  } else {
    deps.log?.warn(
      'the audio is not a WAV, FLAC or MP3 we read; it is kept as it came, with no compressed copy or peaks',
      {
        generationId: generation.id,
      },
    );
    const key = trackAudioKey(generation);
    const audioSha256 = await timer.time('hashing', () => createHash('sha256').update(master).digest('hex'));
    const audioUrl = await timer.time('store', () => deps.audio.put(key, master, WAV_CONTENT_TYPE));
    stored = { audioUrl, keys: [key], loudness: null, audioSha256 };
  }

  const removeCopies = async () => {
    for (const key of stored.keys) await deps.audio.remove(key);
  };
  let done: Generation;
  try {
    done = await timer.time('record', () =>
      markCompleted(deps.generation, generation.id, {
        audioUrl: stored.audioUrl,
        streamAudioUrl: stored.stream?.url ?? null,
        peaksUrl: stored.peaks?.url ?? null,
        duration: rounded,
        seed: result.seed,
        loudness: stored.loudness,
        audioSha256: stored.audioSha256,
        downloadPending: !!pcm,
        analysis: stored.analysis ?? null,
      }),
    );
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
  // Raised by the run that completed it (a retried Finish finds it completed already).
  if (generation.status !== 'completed') await raiseTrackEvent(deps, 'track.completed', done);
  if (deps.sharePages) {
    const sharePages = deps.sharePages;
    // The track is playable whatever happens here; a page not written is mended by the next change or rewrite.
    await timer.time('sharePage', () =>
      refreshSharePage(sharePages, generation.id).catch((error: unknown) =>
        deps.log?.warn('the share page of a completed track was not written', {
          generationId: generation.id,
          error,
        }),
      ),
    );
  }
  deps.log?.info?.('finish: the track plays', { generationId: generation.id, timings: timer.timings });
  return {
    audioUrl: stored.audioUrl,
    streamAudioUrl: stored.stream?.url ?? null,
    peaksUrl: stored.peaks?.url ?? null,
    duration: rounded,
    seed: result.seed,
    downloadPending: !!pcm,
    timings: timer.timings,
  };
}

export interface PrepareDownloadOutput {
  /** The download was made by this call (false: deleted meanwhile, or made by an earlier attempt). */
  prepared: boolean;
  audioSha256: string | null;
  timings: StepTimings;
}

/** What preparing a download needs (the workflow's step, and the files backfill for a track left pending). */
export type PrepareDownloadDeps = Pick<WorkflowDeps, 'site' | 'contentCredentials' | 'log'> & {
  generation: { generations: Pick<GenerationStore, 'get' | 'update'>; clock: GenerationDeps['clock'] };
  audio: Pick<AudioStore, 'read' | 'put' | 'remove'>;
};

/**
 * PrepareDownload: the download of a track that already plays. Reads the
 * master Finish kept, marks it, signs it (content credentials), hashes it,
 * stores it as the WAV download, points the track at it with its hash, and
 * removes the master. Safe to run again: a track already prepared only has a
 * master left behind removed, and a track deleted meanwhile keeps nothing. A
 * failure throws, for the state's retries (and then its alarm); the track
 * plays throughout.
 */
export async function prepareDownloadStep(
  deps: PrepareDownloadDeps,
  input: { generationId: string },
): Promise<PrepareDownloadOutput> {
  const timer = phaseTimer();
  const masterKey = trackMasterKey({ id: input.generationId });
  const generation = await deps.generation.generations.get(input.generationId);
  if (!generation) return { prepared: false, audioSha256: null, timings: timer.timings };
  if (!generation.downloadPending || generation.status !== 'completed' || !generation.audioUrl) {
    // An earlier attempt prepared it and then failed to remove the master.
    await deps.audio.remove(masterKey);
    return { prepared: false, audioSha256: generation.audioSha256 ?? null, timings: timer.timings };
  }
  const from = generation.audioUrl;
  const master = await timer.time('read', () => deps.audio.read(from));
  const marking = await fileMarkingOf(deps.site, generation);
  const download = await markDownload(deps, generation.id, master, marking, timer);
  const key = trackAudioKey(generation);
  const audioUrl = await timer.time('store', () => deps.audio.put(key, download.wav, WAV_CONTENT_TYPE));
  const now = await timer.time('record', () =>
    markDownloadReady(deps.generation, generation.id, {
      from,
      audioUrl,
      audioSha256: download.sha256,
    }),
  );
  if (!now) {
    // Deleted while its download was made: its delete could not know of this file.
    await deps.audio.remove(key);
    return { prepared: false, audioSha256: null, timings: timer.timings };
  }
  await timer.time('cleanup', () => deps.audio.remove(masterKey));
  deps.log?.info?.('prepare download: the WAV is ready', {
    generationId: generation.id,
    timings: timer.timings,
  });
  return { prepared: true, audioSha256: download.sha256, timings: timer.timings };
}

/** MarkFailed: failed (final) and one refund; a second call changes nothing. */
export async function failStep(
  deps: Pick<WorkflowDeps, 'generation'> & Partial<Pick<WorkflowDeps, 'provider' | 'trackEvents' | 'log'>>,
  input: { generationId: string; error?: { Error?: string; Cause?: string } },
): Promise<{ refunded: boolean; reason: string }> {
  const reason = [input.error?.Error, input.error?.Cause].filter(Boolean).join(': ') || 'unknown';
  const before = await deps.generation.generations.get(input.generationId);
  // A job we give up on stops costing at the provider (what it already finished is not lost: it was never kept).
  if (deps.provider && before?.falRequestId && before.status !== 'completed' && before.status !== 'failed') {
    await deps.provider
      .cancel(kindOf(before), before.falRequestId, endpointOf(before))
      .catch(() => undefined);
  }
  try {
    const { refunded, changed, generation } = await markFailed(deps.generation, input.generationId, reason);
    // Raised by the call that failed it: a second call changes nothing.
    if (changed) await raiseTrackEvent(deps, 'track.failed', generation);
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
 * failed and the unit refunded, once. A completed track stays completed; one
 * whose download was left pending is reported (`downloadPending`: counted and
 * alarmed), for `npm run backfill -- files` to prepare.
 */
export async function executionEndedStep(
  deps: Pick<WorkflowDeps, 'generation' | 'log' | 'lyrics'> &
    Partial<Pick<WorkflowDeps, 'provider' | 'trackEvents'>>,
  input: { generationId: string; status: string },
): Promise<
  { refunded: boolean; reason: string } | { downloadPending: true } | { lyricsNotTimed: true } | undefined
> {
  const generation = await deps.generation.generations.get(input.generationId);
  if (generation?.status === 'completed' && generation.downloadPending) {
    deps.log?.warn('a track plays but its download was not prepared; npm run backfill -- files prepares it', {
      generationId: generation.id,
      status: input.status,
    });
    return { downloadPending: true };
  }
  if (
    generation?.status === 'completed' &&
    deps.lyrics &&
    hasLyricsToTime(generation) &&
    !(await deps.lyrics.get(generation.id))
  ) {
    // TimeLyrics failed its retries: the track plays and downloads as ever, without timed lyrics.
    deps.log?.warn('a track plays but its lyrics were not timed', {
      generationId: generation.id,
      status: input.status,
    });
    return { lyricsNotTimed: true };
  }
  if (!generation || generation.status === 'completed' || generation.status === 'failed') return undefined;
  return failStep(deps, {
    generationId: input.generationId,
    error: { Error: `Execution.${input.status}`, Cause: `The workflow execution ended ${input.status}` },
  });
}

export interface TimeLyricsOutput {
  timed: boolean;
  reason?: string;
  lines?: number;
  words?: number;
  timings: StepTimings;
}

/**
 * TimeLyrics, after the track plays (and its download is prepared): its
 * audio goes through the provider's timed transcription from a short-lived
 * link, and the owner's lyrics are aligned to what was heard and kept beside
 * the track. Instrumental tracks, tracks without words and tracks already
 * timed are left alone. Errors go to the state machine, which retries them;
 * a track never fails for its lyrics.
 */
export async function timeLyricsStep(
  deps: Pick<WorkflowDeps, 'generation' | 'provider' | 'lyrics' | 'trackAudioUrl' | 'log'>,
  input: { generationId: string },
): Promise<TimeLyricsOutput> {
  const store = deps.lyrics;
  if (!store) return { timed: false, reason: 'no-store', timings: {} };
  let outcome: Awaited<ReturnType<typeof timeTrackLyrics>>;
  try {
    outcome = await timeTrackLyrics(
      {
        generations: deps.generation.generations,
        lyrics: store,
        transcribe: (request) => deps.provider.transcribe(request),
        audioLink: async (stored) => (deps.trackAudioUrl ?? ((u) => u))(stored),
      },
      input.generationId,
    );
  } catch (error) {
    deps.log?.warn('time lyrics: failed (retried)', { generationId: input.generationId, error });
    return asWorkflowError(error);
  }
  if (!outcome.timed) return { timed: false, reason: outcome.reason, timings: {} };
  deps.log?.info?.('time lyrics: timed', { generationId: input.generationId, timings: outcome.timings });
  return { timed: true, lines: outcome.lines, words: outcome.words, timings: outcome.timings };
}
