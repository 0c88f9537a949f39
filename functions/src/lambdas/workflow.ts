/**
 * The generation workflow's task Lambdas (one function per Task state of
 * workflow/generation.asl.json, each with its own handler export):
 *   SubmitFunctionArn → submitHandler   WaitFunctionArn → waitHandler
 *   PollFunctionArn   → pollHandler     FinishFunctionArn → finishHandler
 *   FailFunctionArn   → failHandler
 * Env: TABLE_NAME, AWS_REGION (DYNAMODB_ENDPOINT locally), FAL_KEY, FAL_BASE_URL
 * (optional), TRACKS_BUCKET, S3_ENDPOINT and S3_FORCE_PATH_STYLE (optional),
 * WEBHOOK_BASE_URL (the API origin the provider posts to).
 */
import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { falMusicProvider } from '../adapters/fal/fal-provider';
import { s3AudioStore } from '../adapters/s3/audio-store';
import { dynamoCallbackStore } from '../workflow/dynamo-callback-store';
import {
  failStep,
  finishStep,
  type Job,
  pollStep,
  submitStep,
  type WorkflowDeps,
  waitStep,
} from '../workflow/steps';

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
  return {
    generation: {
      generations: dynamoGenerationStore(client, tableName),
      quota: dynamoQuotaStore(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    },
    provider: falMusicProvider({
      key: required(env, 'FAL_KEY'),
      ...(env.FAL_BASE_URL ? { baseUrl: env.FAL_BASE_URL } : {}),
    }),
    audio: s3AudioStore({
      bucket: required(env, 'TRACKS_BUCKET'),
      region: env.AWS_REGION ?? 'us-east-1',
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
    }),
    webhookUrl: (id) => `${webhookBase}${FAL_WEBHOOK_PATH}?generationId=${encodeURIComponent(id)}`,
    callbacks: dynamoCallbackStore(client, tableName),
    // No TaskCallbacks here yet (needs @aws-sdk/client-sfn): a webhook that beats
    // the token is recovered by the timeout and the status poll.
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
