/**
 * The local cloud's Lambda endpoint: the one call the product makes, Invoke
 * of the jobs function with `InvocationType: 'Event'` (background jobs,
 * functions/src/domain/jobs.ts), in the REST protocol the SDK speaks:
 *
 *   POST /2015-03-31/functions/{FunctionName}/invocations
 *   X-Amz-Invocation-Type: Event        → 202, empty body
 *
 * and then, as Lambda does with an asynchronous invocation, runs the function
 * (here: its handler in this process) and, when it fails, runs it again twice
 * after a pause (Lambda waits a minute, then two; here `retryDelaysMs`), then
 * hands the event to `onFailure` (on AWS the failed-events queue). Other
 * invocation types (RequestResponse, DryRun) are refused: nothing of ours
 * waits for a job. Product code reaches it through the unchanged
 * `@aws-sdk/client-lambda` client with `LAMBDA_ENDPOINT`. It checks no
 * signatures: it listens on 127.0.0.1 only.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Lambda's retries of a failed asynchronous invocation. */
export const ASYNC_RETRIES = 2;
/** Pauses before each retry, locally (Lambda's are about 1 and 2 minutes). */
export const LOCAL_RETRY_DELAYS_MS = [1_000, 2_000] as const;
/** Lambda's largest asynchronous payload. */
export const MAX_EVENT_BYTES = 1024 * 1024;

export interface LambdaEndpointOptions {
  /** The functions this endpoint runs, by name: the handler of each (called with the parsed event). */
  functions: Record<string, (event: unknown) => Promise<unknown>>;
  /** Pause before each retry; its length is the number of retries. @default LOCAL_RETRY_DELAYS_MS */
  retryDelaysMs?: readonly number[];
  /** An invocation that failed every attempt (Lambda's dead-letter queue). */
  onFailure?: (failure: { functionName: string; event: unknown; attempts: number; error: unknown }) => void;
  /** A failed attempt that will be retried. */
  onRetry?: (retry: { functionName: string; attempt: number; error: unknown }) => void;
  /** Invoked for a request the endpoint itself could not answer. */
  onError?: (error: unknown) => void;
}

export interface LambdaEndpoint {
  /** `http://127.0.0.1:PORT`: the LAMBDA_ENDPOINT. */
  url: string;
  port: number;
  /** Resolves once no invocation is running or waiting for a retry (tests). */
  idle(): Promise<void>;
  /** Stops listening and drops retries still to come; runs already under way go on to their end. */
  stop(): Promise<void>;
}

/** A local function's ARN, in AWS's shape. */
export const localFunctionArn = (region: string, name: string) =>
  `arn:aws:lambda:${region}:000000000000:function:${name}`;

class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** The function name of a FunctionName parameter: a name, `name:qualifier`, or a (partial) ARN. */
function functionNameOf(parameter: string): string {
  const parts = parameter.split(':');
  const at = parts.indexOf('function');
  if (at >= 0) return parts[at + 1] ?? '';
  return parts[0] ?? '';
}

/** The request handler and the invocations it keeps (the server below uses them; tests may too). */
export function lambdaInvoker(options: LambdaEndpointOptions) {
  const delays = options.retryDelaysMs ?? LOCAL_RETRY_DELAYS_MS;
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const pause = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (stopped) return resolve(false);
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve(!stopped);
      }, ms);
      timers.add(timer);
    });

  /** One asynchronous invocation: the first attempt and up to `delays.length` retries. */
  const runAsync = async (
    functionName: string,
    run: (event: unknown) => Promise<unknown>,
    event: unknown,
  ) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await run(event);
        return;
      } catch (error) {
        const delay = delays[attempt - 1];
        if (delay === undefined) {
          options.onFailure?.({ functionName, event, attempts: attempt, error });
          return;
        }
        options.onRetry?.({ functionName, attempt, error });
        if (!(await pause(delay))) return;
      }
    }
  };

  const send = (res: http.ServerResponse, status: number, body?: unknown, type?: string) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, {
      ...(text ? { 'content-type': 'application/json' } : {}),
      'content-length': String(Buffer.byteLength(text)),
      'x-amzn-requestid': randomUUID(),
      ...(type ? { 'x-amzn-errortype': type } : {}),
    });
    res.end(text);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    try {
      const match = INVOKE_PATH.exec((req.url ?? '/').split('?')[0] ?? '/');
      if (req.method !== 'POST' || !match)
        throw new ApiError(
          'UnrecognizedClientException',
          `Unsupported operation ${req.method} ${req.url}`,
          404,
        );
      const name = functionNameOf(decodeURIComponent(match[1] as string));
      const run = Object.hasOwn(options.functions, name) ? options.functions[name] : undefined;
      if (!run) throw new ApiError('ResourceNotFoundException', `Function not found: ${name}`, 404);
      const type = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
      if (type !== 'Event')
        throw new ApiError(
          'InvalidParameterValueException',
          `The local Lambda endpoint runs asynchronous invocations only (InvocationType Event), not ${type}`,
          400,
        );
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > MAX_EVENT_BYTES)
          throw new ApiError('RequestTooLargeException', 'Request must be smaller than 1048576 bytes', 413);
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let event: unknown = {};
      if (text.trim()) {
        try {
          event = JSON.parse(text);
        } catch {
          throw new ApiError('InvalidRequestContentException', 'Could not parse request body into json', 400);
        }
      }
      if (stopped) throw new ApiError('ServiceException', 'The local cloud is stopping', 500);
      send(res, 202);
      // Started after the answer, as Lambda queues the event and runs it later.
      const invocation = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => runAsync(name, run, event))
        .finally(() => running.delete(invocation));
      running.add(invocation);
    } catch (error) {
      if (error instanceof ApiError)
        return send(res, error.status, { Type: 'User', message: error.message }, error.type);
      options.onError?.(error);
      send(res, 500, { Type: 'Service', message: 'The local Lambda endpoint failed' }, 'ServiceException');
    }
  };

  return {
    handle,
    async idle() {
      while (running.size) await Promise.allSettled([...running]);
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Serves {@link lambdaInvoker} on 127.0.0.1 (`port` 0 picks a free one). */
export async function startLambdaEndpoint(
  options: LambdaEndpointOptions & { port: number },
): Promise<LambdaEndpoint> {
  const invoker = lambdaInvoker(options);
  const server = http.createServer((req, res) => {
    invoker.handle(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${options.port} for the Lambda endpoint is in use (is another local cloud running?). Stop it or set LAMBDA_PORT.`,
            )
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    idle: () => invoker.idle(),
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        invoker.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
