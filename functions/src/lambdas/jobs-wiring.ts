import { jobsFunctionFromEnv, lambda, lambdaBackgroundJobs } from '../adapters/lambda/background-jobs';
import type { BackgroundJobs } from '../domain/jobs';

/**
 * Background jobs for the route groups that start them (generation: export;
 * auth: delete my account): asynchronous invocations of the jobs function
 * named by JOBS_FUNCTION_NAME (LAMBDA_ENDPOINT locally), read on the first
 * start, so a runtime that starts none needs neither.
 */
export function backgroundJobs(): BackgroundJobs {
  let jobs: BackgroundJobs | undefined;
  return {
    start: (job) => {
      jobs ??= lambdaBackgroundJobs(lambda(), jobsFunctionFromEnv());
      return jobs.start(job);
    },
  };
}
