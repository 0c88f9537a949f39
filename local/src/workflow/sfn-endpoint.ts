/**
 * The local cloud's Step Functions endpoint: the three calls the product makes,
 * in the AWS JSON 1.0 protocol the SDK speaks (`POST /`, `X-Amz-Target:
 * AWSStepFunctions.<Operation>`, JSON in and out, errors as `__type` and
 * `message`), answered by the local workflow runner. Product code reaches it
 * through the unchanged `@aws-sdk/client-sfn` client with `STEPFUNCTIONS_ENDPOINT`.
 *
 *   StartExecution     {stateMachineArn, name, input} → {executionArn, startDate}
 *   SendTaskSuccess    {taskToken, output}            → {}
 *   SendTaskFailure    {taskToken, error, cause}      → {}
 *   DescribeExecution  {executionArn}                 → {status, input, output, dates...}
 *
 * DescribeExecution is for operators and the bench (each step's timings are in
 * an execution's output); the product never calls it.
 * Executions live in the runner alone. It checks no signatures: it listens on
 * 127.0.0.1 only.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionInput, WorkflowRunner } from './runner';

export interface StepFunctionsEndpointOptions {
  /** The state machine this endpoint runs; other ARNs are StateMachineDoesNotExist. */
  stateMachineArn: string;
  runner: EndpointRunner;
  /** Invoked for a handler that crashed (not for the API's own error answers). */
  onError?: (error: unknown) => void;
}

/** What the endpoint needs of the runner; `describe` tells which execution names are taken. */
export type EndpointRunner = Pick<
  WorkflowRunner,
  'startExecution' | 'sendTaskSuccess' | 'sendTaskFailure' | 'describe'
>;

export interface StepFunctionsEndpoint {
  /** `http://127.0.0.1:PORT`: the STEPFUNCTIONS_ENDPOINT. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A local state machine's ARN, in AWS's shape. */
export const localStateMachineArn = (region: string, name: string) =>
  `arn:aws:states:${region}:000000000000:stateMachine:${name}`;

/** The execution ARN of `name` on a state machine (…:stateMachine:M → …:execution:M:name). */
export const executionArnOf = (stateMachineArn: string, name: string) =>
  `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;

/** An error the SDK turns into the service exception of that name. */
class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

// Step Functions' execution names: 1 to 80 characters, no whitespace, wildcards or control characters.
const FORBIDDEN_IN_NAME = /[\s<>{}[\]?*"#%\\^|~`$&,;:/]/;
const isExecutionName = (name: string) =>
  name.length >= 1 &&
  name.length <= 80 &&
  !FORBIDDEN_IN_NAME.test(name) &&
  ![...name].some((c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });

const seconds = (ms: number) => ms / 1000;

/** The request handler alone (tests and the server below use it). */
export function stepFunctionsHandler(
  options: StepFunctionsEndpointOptions,
): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  const { stateMachineArn, runner } = options;

  const str = (body: Record<string, unknown>, field: string, required = true): string | undefined => {
    const value = body[field];
    if (value === undefined || value === null) {
      if (required) throw new ApiError('ValidationException', `${field} is required`);
      return undefined;
    }
    if (typeof value !== 'string') throw new ApiError('ValidationException', `${field} must be a string`);
    return value;
  };

  const operations: Record<string, (body: Record<string, unknown>) => Promise<Record<string, unknown>>> = {
    async StartExecution(body) {
      const arn = str(body, 'stateMachineArn') as string;
      if (arn !== stateMachineArn)
        throw new ApiError('StateMachineDoesNotExist', `State machine ${arn} does not exist`);
      const name = str(body, 'name') as string;
      if (!isExecutionName(name)) throw new ApiError('InvalidName', `Invalid execution name: ${name}`);
      const input = str(body, 'input', false) ?? '{}';
      let parsed: unknown;
      try {
        parsed = JSON.parse(input);
      } catch {
        throw new ApiError('InvalidExecutionInput', 'Input is not valid JSON');
      }
      // Names are unique per state machine, also after the execution ended.
      if (runner.describe(name))
        throw new ApiError(
          'ExecutionAlreadyExists',
          `Execution already exists: ${executionArnOf(arn, name)}`,
        );
      const startDate = Date.now();
      await runner.startExecution({ name, input: parsed as ExecutionInput });
      return { executionArn: executionArnOf(arn, name), startDate: seconds(startDate) };
    },

    async SendTaskSuccess(body) {
      const taskToken = str(body, 'taskToken') as string;
      const output = str(body, 'output') as string;
      let parsed: unknown;
      try {
        parsed = JSON.parse(output);
      } catch {
        throw new ApiError('InvalidOutput', 'Output is not valid JSON');
      }
      await runner.sendTaskSuccess(taskToken, parsed).catch(asTaskError);
      return {};
    },

    async DescribeExecution(body) {
      const arn = str(body, 'executionArn') as string;
      const prefix = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:`;
      const execution = arn.startsWith(prefix) ? runner.describe(arn.slice(prefix.length)) : undefined;
      if (!execution) throw new ApiError('ExecutionDoesNotExist', `Execution does not exist: ${arn}`);
      return {
        executionArn: arn,
        stateMachineArn,
        name: execution.name,
        status: execution.status,
        startDate: seconds(execution.startDate),
        input: JSON.stringify(execution.input),
        ...(execution.stopDate === undefined ? {} : { stopDate: seconds(execution.stopDate) }),
        ...(execution.status === 'SUCCEEDED' ? { output: JSON.stringify(execution.output ?? null) } : {}),
        ...(execution.status === 'FAILED'
          ? { error: 'States.TaskFailed', cause: execution.error ?? '' }
          : {}),
      };
    },

    async SendTaskFailure(body) {
      const taskToken = str(body, 'taskToken') as string;
      await runner
        .sendTaskFailure(taskToken, str(body, 'error', false) ?? '', str(body, 'cause', false) ?? '')
        .catch(asTaskError);
      return {};
    },
  };

  const send = (res: http.ServerResponse, status: number, body: unknown, type?: string) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(Buffer.byteLength(text)),
      'x-amzn-requestid': randomUUID(),
      ...(type ? { 'x-amzn-errortype': type } : {}),
    });
    res.end(text);
  };
  const fail = (res: http.ServerResponse, error: ApiError) =>
    send(
      res,
      error.status,
      { __type: `com.amazonaws.sfn#${error.type}`, message: error.message },
      error.type,
    );

  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '');
    const [service, operation = ''] = target.split('.');
    const handler = service === 'AWSStepFunctions' ? operations[operation] : undefined;
    if (req.method !== 'POST' || (req.url ?? '/').split('?')[0] !== '/' || !handler) {
      return fail(
        res,
        new ApiError('UnknownOperationException', `Unsupported operation ${target || req.method}`),
      );
    }
    let body: Record<string, unknown>;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      const parsed: unknown = text.trim() ? JSON.parse(text) : {};
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return fail(res, new ApiError('SerializationException', 'The request body is not a JSON object'));
    }
    try {
      send(res, 200, await handler(body));
    } catch (error) {
      if (error instanceof ApiError) return fail(res, error);
      options.onError?.(error);
      fail(res, new ApiError('InternalServerError', 'The local Step Functions endpoint failed', 500));
    }
  };
}

/** The runner's "no task waits for this token" (TaskTimedOut) as the service's error. */
function asTaskError(error: unknown): never {
  const name = (error as { name?: string }).name;
  if (name === 'TaskTimedOut' || name === 'TaskDoesNotExist' || name === 'InvalidToken')
    throw new ApiError(name, (error as Error).message);
  throw error;
}

/** Serves {@link stepFunctionsHandler} on 127.0.0.1 (`port` 0 picks a free one). */
export async function startStepFunctionsEndpoint(
  options: StepFunctionsEndpointOptions & { port: number },
): Promise<StepFunctionsEndpoint> {
  const handle = stepFunctionsHandler(options);
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
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
              `Port ${options.port} for the Step Functions endpoint is in use (is another local cloud running?). Stop it or set STEPFUNCTIONS_PORT.`,
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
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
