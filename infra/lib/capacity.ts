import { routes } from '@tunesmith/shared/routes';
import { routeThrottles, throttleClassOf } from './api';
import { JOBS_RESERVED_CONCURRENCY } from './jobs';
import { WORKFLOW_RESERVED_CONCURRENCY } from './workflow';

/**
 * Lambda keeps at least this many of an account's concurrent executions
 * unreserved: it refuses a reservation that would leave fewer.
 */
export const LAMBDA_MIN_UNRESERVED = 100;

/** The concurrency quota AWS gives an account once it raises a new account's lower one. One stage fits it. */
export const STANDARD_ACCOUNT_CONCURRENCY = 1000;

/**
 * The stack's functions that neither serve the API nor have a reservation:
 * the daily analytics job, CDK's deploy-time custom resources (site upload,
 * bucket notifications, log retention, the seed, the web ACL's ARN), the test
 * mail sink. They run rarely and briefly; this is room for them.
 */
export const OTHER_FUNCTIONS_CONCURRENCY = 20;

/** The Service Quotas code of Lambda's "Concurrent executions". */
export const LAMBDA_CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

/** What one stage needs of its account's Lambda concurrency (decision 035). */
export interface StageConcurrency {
  /** The API with every route at its throttle at once: each route's rate × its class's duration. */
  readonly api: number;
  /** The stack's other unreserved functions ({@link OTHER_FUNCTIONS_CONCURRENCY}). */
  readonly other: number;
  /** Reservations, by function: the workflow's and the jobs function. */
  readonly reserved: Readonly<Record<string, number>>;
  readonly reservedTotal: number;
  /** What must stay unreserved for this stage: the API and the other functions. */
  readonly unreserved: number;
  readonly total: number;
}

/** The stage's need, from the route throttles and the reservations the stack makes. */
export function stageConcurrency(): StageConcurrency {
  const api = Math.ceil(
    routes.reduce((sum, route) => {
      const limits = routeThrottles[throttleClassOf(route)];
      return sum + (limits.rateLimit ?? 0) * limits.seconds;
    }, 0),
  );
  const reserved = {
    ...Object.fromEntries(
      Object.entries(WORKFLOW_RESERVED_CONCURRENCY).map(([step, n]) => [`Workflow-${step}`, n]),
    ),
    Jobs: JOBS_RESERVED_CONCURRENCY,
  };
  const reservedTotal = Object.values(reserved).reduce((sum, n) => sum + n, 0);
  const unreserved = api + OTHER_FUNCTIONS_CONCURRENCY;
  return {
    api,
    other: OTHER_FUNCTIONS_CONCURRENCY,
    reserved,
    reservedTotal,
    unreserved,
    total: unreserved + reservedTotal,
  };
}

/** An account's Lambda concurrency in the stage's region, as Lambda and the stage's stack report it. */
export interface AccountConcurrency {
  /** The account's quota (GetAccountSettings: AccountLimit.ConcurrentExecutions). */
  readonly limit: number;
  /** What no function has reserved (AccountLimit.UnreservedConcurrentExecutions). */
  readonly unreserved: number;
  /** What the stage's own functions reserve now (0 before its first deploy): the deploy replaces it. */
  readonly reservedByStage: number;
}

export type CapacityVerdict =
  | { readonly fits: true; readonly summary: string }
  | { readonly fits: false; readonly message: string; readonly requestAtLeast: number };

/**
 * Whether `need` fits the account: after the deploy, the executions no
 * function reserves must hold the stage's API and other functions (and never
 * fewer than Lambda's minimum). Other functions' reservations in the account
 * count against it; the stage's own current ones are replaced by the deploy.
 * When it does not fit, the message says what is missing and how to ask AWS
 * for more (Service Quotas).
 */
export function capacityVerdict(
  stackName: string,
  region: string,
  need: StageConcurrency,
  account: AccountConcurrency,
): CapacityVerdict {
  const reservedByOthers = Math.max(0, account.limit - account.unreserved - account.reservedByStage);
  const unreservedAfter = account.limit - reservedByOthers - need.reservedTotal;
  const mustStay = Math.max(need.unreserved, LAMBDA_MIN_UNRESERVED);
  if (unreservedAfter >= mustStay) {
    return {
      fits: true,
      summary: `${stackName} fits the Lambda concurrency of this account in ${region}: it reserves ${need.reservedTotal} and needs ${need.unreserved} unreserved; ${unreservedAfter} will be unreserved of the account's ${account.limit}.`,
    };
  }
  const requestAtLeast = reservedByOthers + need.reservedTotal + mustStay;
  const lines = [
    `${stackName} needs ${need.reservedTotal + mustStay} concurrent Lambda executions in ${region}: ${need.reservedTotal} reserved for the generation workflow and the background jobs, and ${mustStay} unreserved for the API at its route throttles (${need.api}) and the stack's other functions (${need.other}).`,
    `This account allows ${account.limit}${reservedByOthers ? `, of which other functions reserve ${reservedByOthers}` : ''}: ${requestAtLeast - account.limit} short.`,
    `Ask AWS for at least ${requestAtLeast} (new accounts start lower than ${STANDARD_ACCOUNT_CONCURRENCY}): the Service Quotas console, AWS Lambda, "Concurrent executions", Request increase at account level; or`,
    `  aws service-quotas request-service-quota-increase --service-code lambda --quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value ${requestAtLeast} --region ${region}`,
    'Deploy again once AWS has raised it (npm run preflight shows where it stands).',
  ];
  return { fits: false, message: lines.join('\n'), requestAtLeast };
}
