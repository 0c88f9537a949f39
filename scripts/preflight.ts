/**
 * `npm run preflight -- --stage dev [--region <region>]`
 *
 * Before a deploy (`npm run deploy` runs it first): reads the account's Lambda
 * concurrency in the stage's region (GetAccountSettings) and what the stage's
 * own functions reserve now (their GetFunctionConcurrency), and checks that
 * what the stage needs (infra/lib/capacity.ts: the API at its route throttles,
 * the workflow's and the jobs' reservations) fits. When it does not, it says
 * how many executions to ask AWS for and how, and exits 1. Default credential
 * chain; the region from `--region`, AWS_REGION, AWS_DEFAULT_REGION or the
 * profile, as the CDK CLI picks it (decision 035).
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type CloudFormationClient,
  ListStackResourcesCommand,
  type ListStackResourcesCommandOutput,
} from '@aws-sdk/client-cloudformation';
import {
  GetAccountSettingsCommand,
  type GetAccountSettingsCommandOutput,
  GetFunctionConcurrencyCommand,
  type GetFunctionConcurrencyCommandOutput,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import {
  type AccountConcurrency,
  type CapacityVerdict,
  capacityVerdict,
  stageConcurrency,
} from '../infra/lib/capacity';
import { stackNameOf } from './stack-outputs';

/** The calls the preflight makes, so tests can answer them. */
export interface PreflightClients {
  readonly lambda: Pick<LambdaClient, 'send'>;
  readonly cloudFormation: Pick<CloudFormationClient, 'send'>;
}

/** The physical names of the stack's Lambda functions; none when the stack is not deployed yet. */
async function functionsOfStack(stackName: string, cloudFormation: PreflightClients['cloudFormation']) {
  const names: string[] = [];
  let token: string | undefined;
  do {
    let page: ListStackResourcesCommandOutput;
    try {
      page = await cloudFormation.send(
        new ListStackResourcesCommand({ StackName: stackName, NextToken: token }),
      );
    } catch (error) {
      // CloudFormation's answer for a stack that does not exist.
      if ((error as { name?: string }).name === 'ValidationError') return [];
      throw error;
    }
    for (const resource of page.StackResourceSummaries ?? []) {
      if (resource.ResourceType === 'AWS::Lambda::Function' && resource.PhysicalResourceId)
        names.push(resource.PhysicalResourceId);
    }
    token = page.NextToken;
  } while (token);
  return names;
}

/** The account's concurrency and what the stage reserves of it now. */
export async function readAccountConcurrency(
  stackName: string,
  clients: PreflightClients,
): Promise<AccountConcurrency> {
  const settings = (await clients.lambda.send(
    new GetAccountSettingsCommand({}),
  )) as GetAccountSettingsCommandOutput;
  const limit = settings.AccountLimit?.ConcurrentExecutions;
  const unreserved = settings.AccountLimit?.UnreservedConcurrentExecutions;
  if (limit === undefined || unreserved === undefined)
    throw new Error('Lambda did not report the account concurrency (GetAccountSettings).');
  let reservedByStage = 0;
  // One at a time: a few dozen calls, well inside Lambda's control-plane rate.
  for (const name of await functionsOfStack(stackName, clients.cloudFormation)) {
    const concurrency = (await clients.lambda.send(
      new GetFunctionConcurrencyCommand({ FunctionName: name }),
    )) as GetFunctionConcurrencyCommandOutput;
    reservedByStage += concurrency.ReservedConcurrentExecutions ?? 0;
  }
  return { limit, unreserved, reservedByStage };
}

/** Whether the stage fits its account, from what the clients answer. */
export async function preflight(
  stage: string,
  region: string,
  clients: PreflightClients,
): Promise<CapacityVerdict> {
  const stackName = stackNameOf(stage);
  return capacityVerdict(
    stackName,
    region,
    stageConcurrency(),
    await readAccountConcurrency(stackName, clients),
  );
}

/** Runs the preflight with the default credential chain; prints the verdict; false when the stage does not fit. */
export async function runPreflight(stage: string, region?: string): Promise<boolean> {
  // An unknown stage is refused before any AWS call.
  stackNameOf(stage);
  const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
  const { LambdaClient } = await import('@aws-sdk/client-lambda');
  // The region the CDK CLI deploys to: AWS_REGION, else AWS_DEFAULT_REGION, else the profile's.
  const chosen = region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  const config = chosen ? { region: chosen } : {};
  const lambda = new LambdaClient(config);
  const cloudFormation = new CloudFormationClient(config);
  try {
    const verdict = await preflight(stage, await lambda.config.region(), { lambda, cloudFormation });
    if (verdict.fits) console.log(verdict.summary);
    else console.error(verdict.message);
    return verdict.fits;
  } finally {
    lambda.destroy();
    cloudFormation.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { stage: { type: 'string', default: 'dev' }, region: { type: 'string' } },
  });
  runPreflight(values.stage, values.region).then(
    (fits) => process.exit(fits ? 0 : 1),
    (error: unknown) => {
      // The caller's mistakes and AWS's refusals (no credentials, no region, access denied) as one line each.
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
