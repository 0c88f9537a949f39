import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/dynamo/audit-log';
import { dynamoBillingAccounts, dynamoEventReceipts } from '../adapters/dynamo/billing-accounts';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { stripeKeys } from '../adapters/stripe/stripe-keys';
import { stripePayments } from '../adapters/stripe/stripe-payments';
import type { BillingLog } from '../domain/billing/billing-service';
import type { BillingDeps } from '../domain/billing/ports';
import { siteNameSource } from '../domain/settings/site';
import { log } from '../http/logger';
import { settingsFromEnv } from './settings-wiring';

/**
 * What the `billing` and `webhooks` groups need to bill: Stripe (keys from
 * site settings or the environment; `STRIPE_API_BASE` locally), the table's
 * profiles, plans and event receipts. Built once per runtime, on first use.
 */
function build(env: NodeJS.ProcessEnv = process.env): BillingDeps & { log: BillingLog } {
  const { client, tableName } = dynamo();
  return {
    accounts: dynamoBillingAccounts(client, tableName),
    receipts: dynamoEventReceipts(client, tableName),
    plans: dynamoPlanRepository(client, tableName),
    payments: stripePayments({
      keys: stripeKeys({ settings: settingsFromEnv(client, tableName, env), env }),
      ...(env.STRIPE_API_BASE ? { apiBase: env.STRIPE_API_BASE } : {}),
    }),
    clock: { now: () => new Date() },
    audit: dynamoAuditLog(client, tableName),
    newId: randomUUID,
    siteName: siteNameSource(dynamoSettingsRepository(client, tableName), env.SITE_NAME || 'Tunesmith', {
      onError: (error) => log.warn('site name unreadable; billing uses SITE_NAME', { error }),
    }),
    log,
  };
}

let built: ReturnType<typeof build> | undefined;

export function billingWiring(): ReturnType<typeof build> {
  built ??= build();
  return built;
}
