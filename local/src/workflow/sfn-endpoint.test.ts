import {
  DescribeExecutionCommand,
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import type { Execution } from './runner';
import {
  type EndpointRunner,
  executionArnOf,
  localStateMachineArn,
  type StepFunctionsEndpoint,
  startStepFunctionsEndpoint,
} from './sfn-endpoint';

const ARN = localStateMachineArn('us-east-1', 'generation');

/** A runner that records what it was asked; tokens `token-1` and `token-2` wait for an answer. */
function fakeRunner() {
  const started: Array<{ name: string; input: unknown }> = [];
  const executions = new Map<string, Execution>();
  const answers: Array<{ token: string; output?: unknown; error?: string; cause?: string }> = [];
  const waiting = new Set(['token-1', 'token-2']);
  const noTask = () => Object.assign(new Error('No task is waiting'), { name: 'TaskTimedOut' });
  const runner: EndpointRunner = {
    async startExecution({ name, input }) {
      started.push({ name, input });
      const execution: Execution = {
        name,
        status: 'RUNNING',
        input: input as { generationId: string },
        startDate: Date.parse('2026-11-29T10:00:00.000Z'),
        done: new Promise(() => {}),
      };
      executions.set(name, execution);
      return execution;
    },
    describe: (name) => executions.get(name),
    async sendTaskSuccess(token, output) {
      if (!waiting.delete(token)) throw noTask();
      answers.push({ token, output });
    },
    async sendTaskFailure(token, error, cause) {
      if (!waiting.delete(token)) throw noTask();
      answers.push({ token, error, cause });
    },
  };
  return { runner, started, executions, answers };
}

let endpoint: StepFunctionsEndpoint | undefined;
let client: SFNClient | undefined;
afterEach(async () => {
  client?.destroy();
  await endpoint?.stop();
});

async function setup() {
  const fake = fakeRunner();
  endpoint = await startStepFunctionsEndpoint({ port: 0, stateMachineArn: ARN, runner: fake.runner });
  client = new SFNClient({
    region: 'us-east-1',
    endpoint: endpoint.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  return { ...fake, sfn: client };
}

describe('local Step Functions endpoint (AWS JSON 1.0 through the SDK client)', () => {
  it('starts an execution named after the generation with its input', async () => {
    const { sfn, started } = await setup();

    const out = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-1', input: '{"generationId":"gen-1"}' }),
    );

    expect(started).toEqual([{ name: 'gen-1', input: { generationId: 'gen-1' } }]);
    expect(out.executionArn).toBe(executionArnOf(ARN, 'gen-1'));
    expect(out.executionArn).toMatch(/^arn:aws:states:us-east-1:\d+:execution:generation:gen-1$/);
    expect(out.startDate).toBeInstanceOf(Date);
  });

  it('refuses a second execution of the same name (also once ended), an unknown state machine and a bad name', async () => {
    const { sfn, started, executions } = await setup();
    await sfn.send(new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-1', input: '{}' }));
    await sfn.send(new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-0', input: '{}' }));
    (executions.get('gen-0') as Execution).status = 'SUCCEEDED';

    await expect(
      sfn.send(new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-1', input: '{}' })),
    ).rejects.toMatchObject({ name: 'ExecutionAlreadyExists', $metadata: { httpStatusCode: 400 } });
    await expect(
      sfn.send(new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-0', input: '{}' })),
    ).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
    await expect(
      sfn.send(new StartExecutionCommand({ stateMachineArn: `${ARN}-other`, name: 'gen-2', input: '{}' })),
    ).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
    await expect(
      sfn.send(new StartExecutionCommand({ stateMachineArn: ARN, name: 'has space', input: '{}' })),
    ).rejects.toMatchObject({ name: 'InvalidName' });
    await expect(
      sfn.send(new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-3', input: 'not json' })),
    ).rejects.toMatchObject({ name: 'InvalidExecutionInput' });
    expect(started.map((s) => s.name)).toEqual(['gen-1', 'gen-0']);
  });

  it('hands task success (parsed output) and failure (error and cause) to the runner', async () => {
    const { sfn, answers } = await setup();

    await sfn.send(new SendTaskSuccessCommand({ taskToken: 'token-1', output: '{"status":"OK"}' }));
    await sfn.send(
      new SendTaskFailureCommand({ taskToken: 'token-2', error: 'Provider.Failed', cause: 'job failed' }),
    );

    expect(answers).toEqual([
      { token: 'token-1', output: { status: 'OK' } },
      { token: 'token-2', error: 'Provider.Failed', cause: 'job failed' },
    ]);
  });

  it('answers a task that no longer waits with TaskTimedOut, as Step Functions does', async () => {
    const { sfn, answers } = await setup();
    await sfn.send(
      new SendTaskFailureCommand({ taskToken: 'token-1', error: 'Provider.Failed', cause: 'job failed' }),
    );

    await expect(
      sfn.send(new SendTaskSuccessCommand({ taskToken: 'token-1', output: '{}' })),
    ).rejects.toMatchObject({ name: 'TaskTimedOut' });
    expect(answers).toEqual([{ token: 'token-1', error: 'Provider.Failed', cause: 'job failed' }]);
  });

  it('describes an execution: running, then ended with its output, as the SDK reads it', async () => {
    const { sfn, executions } = await setup();
    await sfn.send(
      new StartExecutionCommand({ stateMachineArn: ARN, name: 'gen-1', input: '{"generationId":"gen-1"}' }),
    );
    const arn = executionArnOf(ARN, 'gen-1');
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn: arn }))).toMatchObject({
      executionArn: arn,
      stateMachineArn: ARN,
      name: 'gen-1',
      status: 'RUNNING',
      input: '{"generationId":"gen-1"}',
      startDate: new Date('2026-11-29T10:00:00.000Z'),
    });
    Object.assign(executions.get('gen-1') as Execution, {
      status: 'SUCCEEDED',
      stopDate: Date.parse('2026-11-29T10:00:05.000Z'),
      output: { track: { timings: { opus: 12.5 } } },
    });
    const ended = await sfn.send(new DescribeExecutionCommand({ executionArn: arn }));
    expect(ended).toMatchObject({ status: 'SUCCEEDED', stopDate: new Date('2026-11-29T10:00:05.000Z') });
    expect(JSON.parse(ended.output ?? '')).toEqual({ track: { timings: { opus: 12.5 } } });
    await expect(
      sfn.send(new DescribeExecutionCommand({ executionArn: executionArnOf(ARN, 'gen-9') })),
    ).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
  });

  it('refuses operations it does not implement', async () => {
    await setup();
    const response = await fetch(endpoint?.url as string, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'AWSStepFunctions.DeleteStateMachine',
      },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
    expect(await response.json()).toMatchObject({
      __type: expect.stringContaining('UnknownOperationException'),
    });
  });
});
