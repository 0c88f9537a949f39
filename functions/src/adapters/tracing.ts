/**
 * X-Ray subsegments for every AWS SDK call, through Powertools for AWS
 * Lambda's Tracer. The Tracer (and the X-Ray SDK inside it) is the heaviest
 * module a function would load, so it is imported when the first invocation
 * starts (`startTracing`, awaited by the group handler and the workflow
 * steps) rather than with the bundle; clients made before that are captured
 * then, later ones as they are made. Off where there is no X-Ray (locally,
 * in tests) or with `POWERTOOLS_TRACE_ENABLED=false`.
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';

/** What an SDK v3 client offers the X-Ray capture (its middleware stack). */
type Client = Parameters<Tracer['captureAWSv3Client']>[0];

export interface Tracing {
  /** Captures the client's calls once tracing has started; returns it unchanged. */
  traced<C extends Client>(client: C): C;
  /** Loads the Tracer (once) and captures the clients made so far. */
  start(): Promise<void>;
}

export function tracing(enabled: boolean, load: () => Promise<Pick<Tracer, 'captureAWSv3Client'>>): Tracing {
  let tracer: Pick<Tracer, 'captureAWSv3Client'> | undefined;
  let loading: Promise<void> | undefined;
  const waiting: Client[] = [];
  return {
    traced(client) {
      if (!enabled) return client;
      if (tracer) tracer.captureAWSv3Client(client);
      else waiting.push(client);
      return client;
    },
    start() {
      if (!enabled) return Promise.resolve();
      loading ??= load().then((loaded) => {
        tracer = loaded;
        for (const client of waiting.splice(0)) loaded.captureAWSv3Client(client);
      });
      return loading;
    },
  };
}

const onLambda = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME && process.env._X_AMZN_TRACE_ID !== undefined);

const runtime = tracing(onLambda && process.env.POWERTOOLS_TRACE_ENABLED !== 'false', async () => {
  const { Tracer } = await import('@aws-lambda-powertools/tracer');
  return new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'tunesmith' });
});

export const traced = runtime.traced;
export const startTracing = runtime.start;
