/**
 * The generation workflow on AWS Step Functions: starting an execution per
 * generation and answering the wait-for-callback task. Locally
 * `STEPFUNCTIONS_ENDPOINT` points the same client at the local cloud's Step
 * Functions endpoint (local/src/workflow/sfn-endpoint.ts).
 */
import type { SFNClient } from '@aws-sdk/client-sfn';
import { runtimeConfig } from '../../config';
import type { WorkflowStarter } from '../../domain/generations/ports';
import type { StemsWorkflow } from '../../domain/stems/stems-service';
import type { TaskCallbacks } from '../../workflow/steps';
import { awsClientDefaults } from '../client-options';
import { type LazySdk, lazySdk } from '../lazy-sdk';
import { traced } from '../tracing';

export type StepFunctions = LazySdk<typeof import('./sdk'), SFNClient>;

let cached: StepFunctions | undefined;

/** One Step Functions client per runtime, loaded when a generation first starts or answers. */
export function sfn(): StepFunctions {
  cached ??= lazySdk(
    () => import('./sdk'),
    (sdk) =>
      traced(
        new sdk.SFNClient({
          ...awsClientDefaults,
          region: runtimeConfig().region,
          ...(process.env.STEPFUNCTIONS_ENDPOINT ? { endpoint: process.env.STEPFUNCTIONS_ENDPOINT } : {}),
        }),
      ),
  );
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
export function stepFunctionsStarter(stepFunctions: StepFunctions, stateMachineArn: string): WorkflowStarter {
  return {
    async start(generationId) {
      const { sdk, client } = await stepFunctions();
      try {
        await client.send(
          new sdk.StartExecutionCommand({
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

/**
 * Starts the execution that separates a track (decision 044): the same state
 * machine, input `{ generationId, stems: { set, attempt } }`, named after the
 * track, the set and the attempt, so a repeated start of the same ask is
 * harmless and an ask after a failure is an execution of its own.
 */
export function stepFunctionsStemsStarter(
  stepFunctions: StepFunctions,
  stateMachineArn: string,
): StemsWorkflow {
  return {
    async start(generationId, stems) {
      const { sdk, client } = await stepFunctions();
      try {
        await client.send(
          new sdk.StartExecutionCommand({
            stateMachineArn,
            name: `${generationId}-stems${stems.set}-${stems.attempt}`,
            input: JSON.stringify({ generationId, stems }),
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
export function stepFunctionsTaskCallbacks(stepFunctions: StepFunctions): TaskCallbacks {
  return {
    async success(taskToken, output) {
      const { sdk, client } = await stepFunctions();
      await client.send(
        new sdk.SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output ?? null) }),
      );
    },
    async failure(taskToken, error, cause) {
      const { sdk, client } = await stepFunctions();
      await client.send(
        new sdk.SendTaskFailureCommand({
          taskToken,
          error: error.slice(0, ERROR_MAX),
          cause: cause.slice(0, CAUSE_MAX),
        }),
      );
    },
  };
}
