/**
 * The local Step Functions: runs functions/src/workflow/generation.asl.json (the
 * same file CDK deploys) with aws-local-stepfunctions, each Task bound by state
 * name to the step functions, and `.waitForTaskToken` implemented here: the wait
 * task parks on a promise keyed by its token until `sendTaskSuccess` or
 * `sendTaskFailure` (exported for the local webhook route) or its TimeoutSeconds.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { placeholderArns, readGenerationAsl, substituteAsl } from '@tunesmith/functions/workflow/definition';
import {
  executionEndedAny,
  failAny,
  finishStemsStep,
  type StemsDeps,
  submitAny,
} from '@tunesmith/functions/workflow/stems-steps';
import {
  finishStep,
  pollStep,
  prepareDownloadStep,
  type TaskCallbacks,
  timeLyricsStep,
  waitStep,
} from '@tunesmith/functions/workflow/steps';

export interface WorkflowRunnerOptions {
  /** Seconds WaitForCallback waits for the webhook before polling (by default scaled to the requested duration). */
  timeoutOverrideSeconds?: number;
  /** Milliseconds between retries (the file's backoff by default). */
  retryIntervalMs?: number;
  /**
   * Where definitions that passed validation are recorded: a definition recorded there
   * (by its content and the validating libraries' files) is not validated again. Without
   * it every runner validates its definition.
   */
  validatedDir?: string;
}

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED';

export interface Execution {
  name: string;
  status: ExecutionStatus;
  input: ExecutionInput;
  /** Milliseconds since the epoch. */
  startDate: number;
  /** Set when it ends, with its output (SUCCEEDED) or error (FAILED). */
  stopDate?: number;
  output?: unknown;
  error?: string;
  /** Settles when the execution ends; never rejects. */
  done: Promise<{ status: Exclude<ExecutionStatus, 'RUNNING'>; output?: unknown; error?: string }>;
}

/** An execution's input: the track's id, and for a separation its stems job (decision 044). */
export type ExecutionInput = { generationId: string; stems?: { set: string; attempt: number } };

export interface WorkflowRunner {
  startExecution(request: { name: string; input: ExecutionInput }): Promise<Execution>;
  sendTaskSuccess(taskToken: string, output: unknown): Promise<void>;
  sendTaskFailure(taskToken: string, error: string, cause: string): Promise<void>;
  /** TaskCallbacks for the step functions (the webhook path and the wait step). */
  readonly tasks: TaskCallbacks;
  describe(name: string): Execution | undefined;
  /** Aborts every running execution. */
  stop(): void;
}

/**
 * The file that records a definition as valid: named by a digest of the definition, the
 * validation options and the size and time of the files that validate it (the runner
 * library's and asl-validator's entry files), so a change to any of them validates again.
 */
function validationRecord(dir: string, definition: unknown, validationOptions: object): string | undefined {
  try {
    const library = createRequire(import.meta.url).resolve('aws-local-stepfunctions');
    const validator = createRequire(library).resolve('asl-validator');
    const digest = createHash('sha256').update(JSON.stringify([definition, validationOptions]));
    for (const file of [library, validator]) {
      const { size, mtimeMs } = statSync(file);
      digest.update(`${file}:${size}:${mtimeMs}`);
    }
    return path.join(dir, `valid-${digest.digest('hex').slice(0, 24)}`);
  } catch {
    return undefined; // not found where expected: validate every time
  }
}

/** Records a definition as valid; written aside and renamed, and a failure only means validating again. */
function writeRecord(file: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const staging = `${file}.${process.pid}`;
    writeFileSync(staging, '');
    renameSync(staging, file);
  } catch {
    // Not writable: the next runner validates again.
  }
}

class TaskFailure extends Error {
  constructor(name: string, cause: string) {
    super(cause);
    this.name = name;
  }
}

/** `deps.tasks` is filled in by the runner when absent. */
export async function createWorkflowRunner(
  deps: StemsDeps,
  options: WorkflowRunnerOptions = {},
): Promise<WorkflowRunner> {
  const { StateMachine } = await import('aws-local-stepfunctions');
  const definition = substituteAsl(readGenerationAsl(), placeholderArns()) as {
    States: Record<string, { TimeoutSeconds?: number; TimeoutSecondsPath?: string }>;
  };
  const wait = definition.States.WaitForCallback;
  if (wait && options.timeoutOverrideSeconds !== undefined) {
    // Tests shorten the wait the file scales to the requested duration.
    delete wait.TimeoutSecondsPath;
    wait.TimeoutSeconds = options.timeoutOverrideSeconds;
  } else if (wait?.TimeoutSecondsPath === '$.job.waitSeconds') {
    // aws-local-stepfunctions reads TimeoutSecondsPath from the input after Parameters
    // (Step Functions reads the state's input); the same value rides in the Payload.
    wait.TimeoutSecondsPath = '$.Payload.waitSeconds';
  }
  const validationOptions = { checkArn: true };
  const record = options.validatedDir
    ? validationRecord(options.validatedDir, definition, validationOptions)
    : undefined;
  const validated = record !== undefined && existsSync(record);
  // Validation (asl-validator compiling its JSON schemas) takes a third of a second of this
  // thread on two cores: done once per definition and library, not on every start.
  const machine = new StateMachine(definition as never, {
    validationOptions: validated ? { noValidate: true } : validationOptions,
  });
  if (record && !validated) writeRecord(record);

  const waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const executions = new Map<string, Execution>();
  const aborts = new Set<() => void>();
  let stopping = false;

  const sendTaskSuccess = async (taskToken: string, output: unknown) => {
    const w = waiting.get(taskToken);
    if (!w) throw new TaskFailure('TaskTimedOut', `No task is waiting for token ${taskToken}`);
    waiting.delete(taskToken);
    w.resolve(output);
  };
  const sendTaskFailure = async (taskToken: string, error: string, cause: string) => {
    const w = waiting.get(taskToken);
    if (!w) throw new TaskFailure('TaskTimedOut', `No task is waiting for token ${taskToken}`);
    waiting.delete(taskToken);
    w.reject(new TaskFailure(error, cause));
  };
  const tasks: TaskCallbacks = { success: sendTaskSuccess, failure: sendTaskFailure };
  const stepDeps: StemsDeps = { ...deps, tasks: deps.tasks ?? tasks };

  const retryNames = [
    'Submit',
    'WaitForCallback',
    'PollOnce',
    'Finish',
    'FinishStems',
    'PrepareDownload',
    'TimeLyrics',
    'MarkFailed',
  ];
  const retryIntervalOverrides =
    options.retryIntervalMs === undefined
      ? undefined
      : Object.fromEntries(retryNames.map((n) => [n, options.retryIntervalMs as number]));

  const json = (v: unknown) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));
  type Input = Record<string, never>;

  const handlers = {
    Submit: async (input: unknown) =>
      json(await submitAny(stepDeps, input as { generationId: string; execution?: unknown })),
    WaitForCallback: async (input: unknown) => {
      const payload = (input as { Payload: { generationId: string; requestId: string; taskToken: string } })
        .Payload;
      const parked = new Promise<unknown>((resolve, reject) => {
        waiting.set(payload.taskToken, { resolve, reject });
      });
      // The state's timeout rejects the race in the library, not this promise: forget the token then.
      parked.catch(() => undefined);
      try {
        await waitStep(stepDeps, payload);
      } catch (error) {
        waiting.delete(payload.taskToken);
        throw error;
      }
      try {
        return json(await parked);
      } finally {
        waiting.delete(payload.taskToken);
      }
    },
    PollOnce: async (input: unknown) =>
      json(await pollStep(stepDeps, input as Parameters<typeof pollStep>[1])),
    Finish: async (input: unknown) =>
      json(await finishStep(stepDeps, input as Parameters<typeof finishStep>[1])),
    FinishStems: async (input: unknown) =>
      json(await finishStemsStep(stepDeps, input as Parameters<typeof finishStemsStep>[1])),
    PrepareDownload: async (input: unknown) =>
      json(await prepareDownloadStep(stepDeps, input as Parameters<typeof prepareDownloadStep>[1])),
    TimeLyrics: async (input: unknown) =>
      json(await timeLyricsStep(stepDeps, input as Parameters<typeof timeLyricsStep>[1])),
    MarkFailed: async (input: unknown) =>
      json(await failAny(stepDeps, input as Parameters<typeof failAny>[1])),
  } satisfies Record<string, (input: Input) => Promise<unknown>>;

  return {
    tasks,
    sendTaskSuccess,
    sendTaskFailure,
    describe: (name) => executions.get(name),
    async startExecution({ name, input }) {
      if (executions.get(name)?.status === 'RUNNING')
        throw new TaskFailure('ExecutionAlreadyExists', `Execution ${name} is running`);
      const token = randomUUID();
      const startTime = new Date().toISOString();
      const run = machine.run(input, {
        overrides: {
          taskResourceLocalHandlers: handlers,
          ...(retryIntervalOverrides ? { retryIntervalOverrides } : {}),
        },
        context: {
          Execution: { Id: `local:${name}`, Name: name, Input: input, StartTime: startTime },
          Task: { Token: token },
        } as never,
      });
      aborts.add(run.abort);
      const execution: Execution = {
        name,
        status: 'RUNNING',
        input,
        startDate: Date.parse(startTime),
        done: run.result.then(
          (output) => {
            Object.assign(execution, { status: 'SUCCEEDED', stopDate: Date.now(), output });
            return { status: 'SUCCEEDED' as const, output };
          },
          async (error: unknown) => {
            Object.assign(execution, {
              status: 'FAILED',
              stopDate: Date.now(),
              error: error instanceof Error ? error.message : String(error),
            });
            // What the EventBridge rule on FAILED executions does on AWS: the track is failed and refunded once.
            if (!stopping) {
              await executionEndedAny(stepDeps, {
                generationId: input.generationId,
                status: 'FAILED',
                execution: input,
              }).catch(() => undefined);
            }
            return {
              status: 'FAILED' as const,
              error: error instanceof Error ? error.message : String(error),
            };
          },
        ),
      };
      void execution.done.finally(() => aborts.delete(run.abort));
      executions.set(name, execution);
      return execution;
    },
    stop() {
      stopping = true;
      for (const abort of aborts) abort();
      aborts.clear();
    },
  };
}
