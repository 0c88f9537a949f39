import { lambdaBackgroundJobs } from '@tunesmith/functions/adapters/lambda/background-jobs';
// The client the functions bundle, so the product adapter below can take it.
import { InvokeCommand, LambdaClient } from '@tunesmith/functions/adapters/lambda/sdk';
import { lazySdk } from '@tunesmith/functions/adapters/lazy-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type LambdaEndpoint, localFunctionArn, startLambdaEndpoint } from './lambda-endpoint';

let endpoint: LambdaEndpoint | undefined;
let client: LambdaClient | undefined;
afterEach(async () => {
  client?.destroy();
  await endpoint?.stop();
});

type Failure = { functionName: string; event: unknown; attempts: number; error: unknown };

/** An endpoint for one function `jobs` whose handler records each call and fails the first `failures` of them. */
async function setup(failures = 0) {
  const calls: unknown[] = [];
  const failed: Failure[] = [];
  const retries: number[] = [];
  endpoint = await startLambdaEndpoint({
    port: 0,
    retryDelaysMs: [0, 0],
    functions: {
      jobs: async (event) => {
        calls.push(event);
        if (calls.length <= failures) throw new Error(`attempt ${calls.length} failed`);
      },
    },
    onFailure: (failure) => failed.push(failure),
    onRetry: ({ attempt }) => retries.push(attempt),
  });
  client = new LambdaClient({
    region: 'us-east-1',
    endpoint: endpoint.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  return { calls, failed, retries, lambda: client, endpoint };
}

const payload = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('local Lambda endpoint (Invoke through the SDK client)', () => {
  it('answers an asynchronous invocation 202 and then runs the handler with the event', async () => {
    const { lambda, calls, endpoint } = await setup();

    const out = await lambda.send(
      new InvokeCommand({
        FunctionName: 'jobs',
        InvocationType: 'Event',
        Payload: payload({ kind: 'export' }),
      }),
    );
    await endpoint.idle();

    expect(out.StatusCode).toBe(202);
    expect(calls).toEqual([{ kind: 'export' }]);
  });

  it('finds the function by its ARN too', async () => {
    const { lambda, calls, endpoint } = await setup();

    await lambda.send(
      new InvokeCommand({
        FunctionName: localFunctionArn('us-east-1', 'jobs'),
        InvocationType: 'Event',
        Payload: payload({ n: 1 }),
      }),
    );
    await endpoint.idle();

    expect(calls).toEqual([{ n: 1 }]);
  });

  it('retries a failed run twice, as Lambda does, and stops at the first success', async () => {
    const { lambda, calls, failed, retries, endpoint } = await setup(2);

    await lambda.send(
      new InvokeCommand({ FunctionName: 'jobs', InvocationType: 'Event', Payload: payload({}) }),
    );
    await endpoint.idle();

    expect(calls).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
    expect(failed).toEqual([]);
  });

  it('hands an event that failed all three attempts to onFailure, with the last error', async () => {
    const { lambda, calls, failed, endpoint } = await setup(10);

    await lambda.send(
      new InvokeCommand({ FunctionName: 'jobs', InvocationType: 'Event', Payload: payload({ id: 'x' }) }),
    );
    await endpoint.idle();

    expect(calls).toHaveLength(3);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ functionName: 'jobs', event: { id: 'x' }, attempts: 3 });
    expect(failed[0]?.error).toMatchObject({ message: 'attempt 3 failed' });
  });

  it('refuses synchronous invocations, unknown functions and a payload that is not JSON, running nothing', async () => {
    const { lambda, calls, endpoint } = await setup();

    await expect(
      lambda.send(
        new InvokeCommand({ FunctionName: 'jobs', InvocationType: 'RequestResponse', Payload: payload({}) }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterValueException', $metadata: { httpStatusCode: 400 } });
    await expect(
      lambda.send(new InvokeCommand({ FunctionName: 'jobs', Payload: payload({}) })),
    ).rejects.toMatchObject({ name: 'InvalidParameterValueException' });
    await expect(
      lambda.send(
        new InvokeCommand({ FunctionName: 'other', InvocationType: 'Event', Payload: payload({}) }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException', $metadata: { httpStatusCode: 404 } });
    await expect(
      lambda.send(
        new InvokeCommand({
          FunctionName: 'jobs',
          InvocationType: 'Event',
          Payload: new TextEncoder().encode('{not json'),
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidRequestContentException' });
    await endpoint.idle();

    expect(calls).toEqual([]);
  });

  it('carries a job started with the product adapter to the handler, as JSON', async () => {
    const { lambda, calls, endpoint } = await setup();
    const jobs = lambdaBackgroundJobs(
      lazySdk(
        () => import('@tunesmith/functions/adapters/lambda/sdk'),
        () => lambda,
      ),
      'jobs',
    );

    await jobs.start({ kind: 'export', userId: 'user-1', exportId: 'exp-1' });
    await endpoint.idle();

    expect(calls).toEqual([{ kind: 'export', userId: 'user-1', exportId: 'exp-1' }]);
  });
});
