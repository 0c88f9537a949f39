/**
 * The generation workflow on AWS Step Functions: starting an execution per
 * generation and answering the wait-for-callback task. Locally
 * `STEPFUNCTIONS_ENDPOINT` points the same client at the local cloud's Step
 * Functions endpoint (local/src/workflow/sfn-endpoint.ts).
 */
import {
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { runtimeConfig } from '../../config';
import type { WorkflowStarter } from '../../domain/generations/ports';
import type { TaskCallbacks } from '../../workflow/steps';
import { awsClientDefaults } from '../client-options';

let cached: SFNClient | undefined;

/** One Step Functions client per runtime. */
export function sfn(): SFNClient {
  cached ??= new SFNClient({
    ...awsClientDefaults,
    region: runtimeConfig().region,
    ...(process.env.STEPFUNCTIONS_ENDPOINT ? { endpoint: process.env.STEPFUNCTIONS_ENDPOINT } : {}),
  });
  return cached;
}

/** `STATE_MACHINE_ARN`: the generation state machine. */
export function stateMachineArnFromEnv(): string {
  const value = process.env.STATE_MACHINE_ARN;
  if (!value) throw new Error('Missing environment variable STATE_MACHINE_ARN');
  return value;
}

/**
 * Starts one execution per generation, named after its id with input
 * `{ generationId }`. The name makes a repeated start harmless: Step Functions
 * refuses a second execution of the same name, which means it already runs.
 */
export function stepFunctionsStarter(client: SFNClient, stateMachineArn: string): WorkflowStarter {
  return {
    async start(generationId) {
      try {
        await client.send(
          new StartExecutionCommand({
            stateMachineArn,
            name: generationId,
            input: JSON.stringify({ generationId }),
          }),
        );
      } catch (error) {
        if ((error as { name?: string }).name === 'ExecutionAlreadyExists') return;
        throw error;
      }
    },
  };
}

// Step Functions' limits on SendTaskFailure's fields.
const ERROR_MAX = 256;
const CAUSE_MAX = 32_768;

/** SendTaskSuccess / SendTaskFailure for the wait-for-callback task. */
export function stepFunctionsTaskCallbacks(client: SFNClient): TaskCallbacks {
  return {
    async success(taskToken, output) {
      await client.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output ?? null) }));
    },
    async failure(taskToken, error, cause) {
      await client.send(
        new SendTaskFailureCommand({
          taskToken,
          error: error.slice(0, ERROR_MAX),
          cause: cause.slice(0, CAUSE_MAX),
        }),
      );
    },
  };
}
