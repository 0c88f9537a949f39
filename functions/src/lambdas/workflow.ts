/**
 * The generation workflow's task Lambdas (one function per Task state of
 * workflow/generation.asl.json, each with its own handler export):
 *   SubmitFunctionArn → submitHandler   WaitFunctionArn    → waitHandler
 *   PollFunctionArn   → pollHandler     FinishFunctionArn  → finishHandler
 *   FailFunctionArn   → failHandler     PrepareFunctionArn → prepareHandler
 *   LyricsFunctionArn → lyricsHandler
 *   StemsFunctionArn  → stemsHandler (FinishStems: a separation's stems, decision 044)
 * and executionEndedHandler, the target of the EventBridge rule on the state
 * machine's FAILED, TIMED_OUT and ABORTED executions.
 * Env: TABLE_NAME, AWS_REGION (DYNAMODB_ENDPOINT locally), FAL_KEY (when the
 * `fal_api_key` site setting is empty), FAL_BASE_URL (optional), TRACKS_BUCKET,
 * UPLOADS_BUCKET (inputs of audio-to-music; the tracks bucket's WAVs are the
 * inputs of extend and repaint), S3_ENDPOINT and S3_FORCE_PATH_STYLE
 * (optional), WEBHOOK_BASE_URL (the API origin the provider posts to),
 * PUBLIC_ORIGIN (the site's origin, which the files' provenance links name;
 * WEBHOOK_BASE_URL when unset: on AWS both are the distribution's URL),
 * SITE_NAME (the files' site name when the Site Name setting is unset or
 * unreadable; default Tunesmith), C2PA_SIGNING_SECRET_ARN (PrepareDownload on AWS:
 * where the content credentials' key is kept; locally they are made in
 * memory), STEPFUNCTIONS_ENDPOINT (locally).
 */
import { randomUUID } from 'node:crypto';
import { audioWorkerPool, workerAudio } from '../adapters/audio/audio-workers';
import { c2paContentCredentials } from '../adapters/c2pa/content-credentials';
import {
  credentialsMadeOnFirstUse,
  memoryCredentialStore,
  secretsManagerCredentialStore,
} from '../adapters/c2pa/credential-store';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoLyricsStore } from '../adapters/dynamo/lyrics-store';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { type MetricName, metricNames, metrics } from '../adapters/metrics';
import { s3AudioStore } from '../adapters/s3/audio-store';
import { s3 } from '../adapters/s3/client';
import { parseS3Url, s3Links } from '../adapters/s3/links';
import { sfn, stepFunctionsTaskCallbacks } from '../adapters/sfn/step-functions';
import { startTracing } from '../adapters/tracing';
import { MusicProviderError } from '../domain/generations/music-provider';
import { siteNameSource } from '../domain/settings/site';
import { TRACK_AUDIO_AREA } from '../domain/tracks/track';
import { ownUploadKey } from '../domain/uploads/uploads';
import { log, logger } from '../http/logger';
import { dynamoCallbackStore } from '../workflow/dynamo-callback-store';
import {
  executionEndedAny,
  failAny,
  finishStemsStep,
  type StemsDeps,
  submitAny,
} from '../workflow/stems-steps';
import {
  finishStep,
  type Job,
  pollStep,
  prepareDownloadStep,
  timeLyricsStep,
  waitStep,
} from '../workflow/steps';
import { musicProviderFromEnv } from './music-wiring';
import { sharePagesFromEnv } from './share-wiring';
import { trackEventsFromEnv } from './track-events-wiring';

/** The provider's webhook route (served by the API). */
export const FAL_WEBHOOK_PATH = '/api/webhooks/fal';

/**
 * How long the provider's link to a parent track's WAV (extend, repaint) is
 * signed for, beyond the start of the hour it is signed in (s3Links): long
 * enough for fal's queue, short enough that the link is no lasting way in.
 */
export const TRACK_SOURCE_LINK_SECONDS = 15 * 60;

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

/**
 * One pool of audio threads per process (the local cloud builds deps more
 * than once); its threads start with the first Finish.
 */
const audio = workerAudio(audioWorkerPool());

/** Builds the steps' dependencies from the environment. */
export function workflowDepsFromEnv(env: NodeJS.ProcessEnv = process.env): StemsDeps {
  const { client, tableName } = dynamo();
  const webhookBase = required(env, 'WEBHOOK_BASE_URL').replace(/\/+$/, '');
  const uploadsBucket = required(env, 'UPLOADS_BUCKET');
  const tracksBucket = required(env, 'TRACKS_BUCKET');
  const links = s3Links(s3());
  const siteOrigin = (env.PUBLIC_ORIGIN || webhookBase).replace(/\/+$/, '');
  const siteName = siteNameSource(dynamoSettingsRepository(client, tableName), env.SITE_NAME || 'Tunesmith', {
    onError: (error) => log.warn('site name unreadable; the files use SITE_NAME', { error }),
  });
  const credentialSecret = env.C2PA_SIGNING_SECRET_ARN?.trim();
  return {
    generation: {
      generations: dynamoGenerationStore(client, tableName),
      quota: dynamoQuotaStore(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    },
    provider: musicProviderFromEnv(client, tableName, env),
    audio: s3AudioStore(s3(), tracksBucket),
    streamEncoder: audio.streamEncoder,
    audioWork: audio.work,
    // Site Name is not secret: read as stored, without the settings key.
    site: { origin: siteOrigin, name: siteName },
    contentCredentials: c2paContentCredentials(
      credentialsMadeOnFirstUse(
        credentialSecret ? secretsManagerCredentialStore(credentialSecret) : memoryCredentialStore(),
        siteName,
      ),
    ),
    log,
    // The zip library (a third of the bundle) loads with the first stems set, not at every cold start.
    stemsArchiver: {
      zip: async (entries) => (await import('../adapters/audio/stems-zip')).zipInMemory(entries),
    },
    // A public track's share page is written when it completes (decision 024).
    ...(env.SITE_BUCKET ? { sharePages: sharePagesFromEnv(env, siteOrigin) } : {}),
    webhookUrl: (id) => `${webhookBase}${FAL_WEBHOOK_PATH}?generationId=${encodeURIComponent(id)}`,
    callbacks: dynamoCallbackStore(client, tableName),
    lyrics: dynamoLyricsStore(client, tableName),
    // The owner's webhooks hear of a track completed or failed and of stems ready (decision 053).
    trackEvents: trackEventsFromEnv(log),
    tasks: stepFunctionsTaskCallbacks(sfn()),
    // The provider fetches the owner's upload through a presigned GET; the
    // generation stores only its object path.
    inputAudioUrl: async (objectPath, owner) => {
      const key = ownUploadKey(objectPath, owner.userId);
      if (!key) throw new MusicProviderError('The input audio is not an upload of this user', 'rejected');
      return links.read({ bucket: uploadsBucket, key });
    },
    // Extend and repaint: the provider fetches the parent's WAV through a short-lived presigned GET,
    // made here at submit and never stored on the child.
    trackAudioUrl: async (stored) => {
      const location = parseS3Url(stored);
      if (!location || location.bucket !== tracksBucket || !location.key.startsWith(TRACK_AUDIO_AREA))
        throw new MusicProviderError('The source audio is not a track of ours', 'rejected');
      return links.read(location, { expiresIn: TRACK_SOURCE_LINK_SECONDS });
    },
  };
}

let deps: StemsDeps | undefined;
const getDeps = () => {
  deps ??= workflowDepsFromEnv();
  return deps;
};

/**
 * One step's invocation: the generation's id as the logs' correlation id,
 * tracing started before any SDK call, and the outcome counted in CloudWatch.
 */
async function step<O>(
  generationId: string,
  run: (deps: StemsDeps) => Promise<O>,
  counted: (output: O) => MetricName[] = () => [],
): Promise<O> {
  logger.resetKeys();
  logger.setCorrelationId(generationId);
  await startTracing();
  try {
    const output = await run(getDeps());
    for (const name of counted(output)) metrics.count(name);
    return output;
  } finally {
    metrics.flush();
  }
}

/**
 * A track marked failed counts as failed and, with its unit given back, as
 * refunded; a separation marked failed (its unit given back) counts apart, the
 * track did not fail. Counted once: a step run again finds it already final.
 */
export const failedAndRefunded = (outcome: { refunded?: boolean; stems?: true } | undefined): MetricName[] =>
  !outcome?.refunded
    ? []
    : outcome.stems
      ? [metricNames.separationsFailed]
      : [metricNames.generationsFailed, metricNames.generationsRefunded];

/** An ended execution counts a track failed and refunded, or one that plays but whose download was not prepared. */
export const executionEndedCounts = (ended: Awaited<ReturnType<typeof executionEndedAny>>): MetricName[] =>
  ended && 'downloadPending' in ended
    ? [metricNames.downloadsNotPrepared]
    : ended && 'lyricsNotTimed' in ended
      ? [metricNames.lyricsNotTimed]
      : failedAndRefunded(ended as { refunded?: boolean } | undefined);

export const submitHandler = (event: { generationId: string; execution?: unknown }) =>
  step(event.generationId, (deps) => submitAny(deps, event));
export const waitHandler = (event: { generationId: string; requestId: string; taskToken: string }) =>
  step(event.generationId, (deps) => waitStep(deps, event));
export const pollHandler = (event: { generationId: string; job: Job }) =>
  step(event.generationId, (deps) => pollStep(deps, event));
export const finishHandler = (event: { generationId: string; job: Job }) =>
  step(
    event.generationId,
    (deps) => finishStep(deps, event),
    () => [metricNames.generationsCompleted],
  );
export const prepareHandler = (event: { generationId: string }) =>
  step(event.generationId, (deps) => prepareDownloadStep(deps, event));
export const lyricsHandler = (event: { generationId: string }) =>
  step(event.generationId, (deps) => timeLyricsStep(deps, event));
export const failHandler = (event: {
  generationId: string;
  error?: { Error?: string; Cause?: string };
  execution?: unknown;
}) => step(event.generationId, (deps) => failAny(deps, event), failedAndRefunded);
export const stemsHandler = (event: { generationId: string; job: Job; execution?: unknown }) =>
  step(event.generationId, (deps) => finishStemsStep(deps, event));

/** EventBridge's "Step Functions Execution Status Change" event, the parts used. */
interface ExecutionStatusChange {
  detail?: { status?: string; input?: string | null; executionArn?: string };
}

export const executionEndedHandler = async (event: ExecutionStatusChange) => {
  let generationId: unknown;
  let execution: unknown;
  try {
    execution = JSON.parse(event.detail?.input ?? '{}');
    generationId = (execution as { generationId?: unknown } | null)?.generationId;
  } catch {
    generationId = undefined;
  }
  // Not one of ours (or its input is gone): nothing to mark.
  if (typeof generationId !== 'string' || generationId === '') return { handled: false };
  const outcome = await step(
    generationId,
    (deps) => executionEndedAny(deps, { generationId, status: event.detail?.status ?? 'FAILED', execution }),
    executionEndedCounts,
  );
  return { handled: outcome !== undefined, ...(outcome ?? {}) };
};
