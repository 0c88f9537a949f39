/**
 * The generation workflow's task Lambdas (one function per Task state of
 * workflow/generation.asl.json, each with its own handler export):
 *   SubmitFunctionArn → submitHandler   WaitFunctionArn → waitHandler
 *   PollFunctionArn   → pollHandler     FinishFunctionArn → finishHandler
 *   FailFunctionArn   → failHandler
 * and executionEndedHandler, the target of the EventBridge rule on the state
 * machine's FAILED, TIMED_OUT and ABORTED executions.
 * Env: TABLE_NAME, AWS_REGION (DYNAMODB_ENDPOINT locally), FAL_KEY (when the
 * `fal_api_key` site setting is empty), FAL_BASE_URL (optional), TRACKS_BUCKET,
 * UPLOADS_BUCKET (inputs of audio-to-music), S3_ENDPOINT and S3_FORCE_PATH_STYLE
 * (optional), WEBHOOK_BASE_URL (the API origin the provider posts to),
 * STEPFUNCTIONS_ENDPOINT (locally).
 */
import { randomUUID } from 'node:crypto';
import { oggOpusStreamEncoder } from '../adapters/audio/opus-encoder';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { s3AudioStore } from '../adapters/s3/audio-store';
import { s3 } from '../adapters/s3/client';
import { s3Links } from '../adapters/s3/links';
import { sfn, stepFunctionsTaskCallbacks } from '../adapters/sfn/step-functions';
import { MusicProviderError } from '../domain/generations/music-provider';
import { ownUploadKey } from '../domain/uploads/uploads';
import { log } from '../http/logger';
import { dynamoCallbackStore } from '../workflow/dynamo-callback-store';
import {
  executionEndedStep,
  failStep,
  finishStep,
  type Job,
  pollStep,
  submitStep,
  type WorkflowDeps,
  waitStep,
} from '../workflow/steps';
import { musicProviderFromEnv } from './music-wiring';

/** The provider's webhook route (served by the API). */
export const FAL_WEBHOOK_PATH = '/api/webhooks/fal';

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

/** Builds the steps' dependencies from the environment. */
export function workflowDepsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkflowDeps {
  const { client, tableName } = dynamo();
  const webhookBase = required(env, 'WEBHOOK_BASE_URL').replace(/\/+$/, '');
  const uploadsBucket = required(env, 'UPLOADS_BUCKET');
  const links = s3Links(s3());
  return {
    generation: {
      generations: dynamoGenerationStore(client, tableName),
      quota: dynamoQuotaStore(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    },
    provider: musicProviderFromEnv(client, tableName, env),
    audio: s3AudioStore(s3(), required(env, 'TRACKS_BUCKET')),
    streamEncoder: oggOpusStreamEncoder,
    log,
    webhookUrl: (id) => `${webhookBase}${FAL_WEBHOOK_PATH}?generationId=${encodeURIComponent(id)}`,
    callbacks: dynamoCallbackStore(client, tableName),
    tasks: stepFunctionsTaskCallbacks(sfn()),
    // The provider fetches the owner's upload through a presigned GET; the
    // generation stores only its object path.
    inputAudioUrl: async (objectPath, owner) => {
      const key = ownUploadKey(objectPath, owner.userId);
      if (!key) throw new MusicProviderError('The input audio is not an upload of this user', 'rejected');
      return links.read({ bucket: uploadsBucket, key });
    },
  };
}

let deps: WorkflowDeps | undefined;
const getDeps = () => {
  deps ??= workflowDepsFromEnv();
  return deps;
};

export const submitHandler = (event: { generationId: string }) => submitStep(getDeps(), event);
export const waitHandler = (event: { generationId: string; requestId: string; taskToken: string }) =>
  waitStep(getDeps(), event);
export const pollHandler = (event: { generationId: string; job: Job }) => pollStep(getDeps(), event);
export const finishHandler = (event: { generationId: string; job: Job }) => finishStep(getDeps(), event);
export const failHandler = (event: { generationId: string; error?: { Error?: string; Cause?: string } }) =>
  failStep(getDeps(), event);

/** EventBridge's "Step Functions Execution Status Change" event, the parts used. */
interface ExecutionStatusChange {
  detail?: { status?: string; input?: string | null; executionArn?: string };
}

export const executionEndedHandler = async (event: ExecutionStatusChange) => {
  let generationId: unknown;
  try {
    generationId = (JSON.parse(event.detail?.input ?? '{}') as { generationId?: unknown }).generationId;
  } catch {
    generationId = undefined;
  }
  // Not one of ours (or its input is gone): nothing to mark.
  if (typeof generationId !== 'string' || generationId === '') return { handled: false };
  const outcome = await executionEndedStep(getDeps(), {
    generationId,
    status: event.detail?.status ?? 'FAILED',
  });
  return { handled: outcome !== undefined, ...(outcome ?? {}) };
};
