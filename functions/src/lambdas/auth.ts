import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { lazyPort } from '../adapters/lazy-sdk';
import type { AccountDeletionRequestDeps } from '../domain/accounts/account-deletion';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { log } from '../http/logger';
import { authRoutes } from '../http/routes/auth';
import { wiring } from './wiring';

let built: LambdaHandler | undefined;
let deletion: AccountDeletionRequestDeps | undefined;

/**
 * Route group `auth`: sign-up, sign-in, verification, reset and account
 * changes, and deleting one's own account (Stripe's keys to cancel the
 * subscription at once; JOBS_FUNCTION_NAME for the job that deletes the rest).
 */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const w = wiring();
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'auth',
      authRoutes({
        accounts: w.accounts,
        deletion: () => {
          deletion ??= {
            users: w.accounts.users,
            identity: w.accounts.identity,
            limiter: w.accounts.limiter,
            clock: w.accounts.clock,
            // Stripe (and its keys) and the jobs function's client load when an account is deleted.
            payments: lazyPort(
              async () => (await import('./billing-wiring')).billingWiring().payments,
              ['cancelNow', 'listSubscriptions'],
            ),
            jobs: lazyPort(async () => (await import('./jobs-wiring')).backgroundJobs(), ['start']),
            log,
          };
          return deletion;
        },
        sessions: w.sessions.user,
        plans: dynamoPlanRepository(client, tableName),
        clock: { now: () => new Date() },
      }),
      { sessions: w.sessions },
    );
  }
  return built(event, context);
};
