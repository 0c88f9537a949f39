/**
 * Background jobs as asynchronous invocations of the jobs function
 * (functions/src/lambdas/jobs.ts): `InvokeCommand` with `InvocationType:
 * 'Event'`, which Lambda queues and answers 202 at once, then runs and
 * retries twice on failure (and sends a job that failed them all to the
 * failed-events queue). Locally `LAMBDA_ENDPOINT` points the same client at
 * the local cloud's Lambda endpoint (local/src/jobs/lambda-endpoint.ts).
 */
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { runtimeConfig } from '../../config';
import type { BackgroundJob, BackgroundJobs } from '../../domain/jobs';
import { awsClientDefaults } from '../client-options';
import { type LazySdk, lazySdk } from '../lazy-sdk';
import { traced } from '../tracing';

export type LambdaSdk = LazySdk<typeof import('./sdk'), LambdaClient>;

let cached: LambdaSdk | undefined;

/** One Lambda client per runtime, loaded when the first job starts. */
export function lambda(): LambdaSdk {
  cached ??= lazySdk(
    () => import('./sdk'),
    (sdk) =>
      traced(
        new sdk.LambdaClient({
          ...awsClientDefaults,
          region: runtimeConfig().region,
          ...(process.env.LAMBDA_ENDPOINT ? { endpoint: process.env.LAMBDA_ENDPOINT } : {}),
        }),
      ),
  );
  return cached;
}

/** `JOBS_FUNCTION_NAME`: the function that runs background jobs. */
export function jobsFunctionFromEnv(): string {
  const value = process.env.JOBS_FUNCTION_NAME;
  if (!value) throw new Error('Missing environment variable JOBS_FUNCTION_NAME');
  return value;
}

/** Thrown when Lambda did not accept the job for an asynchronous run. */
export class JobNotQueuedError extends Error {
  override readonly name = 'JobNotQueuedError';
}

/** {@link BackgroundJobs} that queue each job as an asynchronous invocation of `functionName`. */
export function lambdaBackgroundJobs(client: LambdaSdk, functionName: string): BackgroundJobs {
  return {
    async start(job: BackgroundJob) {
      const { sdk, client: lambdaClient } = await client();
      const result = await lambdaClient.send(
        new sdk.InvokeCommand({
          FunctionName: functionName,
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(job)),
        }),
      );
      if (result.StatusCode !== 202)
        throw new JobNotQueuedError(`The jobs function answered ${result.StatusCode} to an asynchronous run`);
    },
  };
}
