/**
 * `npm run stripe:sync [-- --local] [-- --check]`
 *
 * Reports and repairs drift between the plans and Stripe: every active paid
 * plan gets a product and a price for each billing cycle it offers, in the
 * account the secret key belongs to; a stored price that is missing,
 * archived, or at another amount or interval than the plan is replaced by a
 * new one (the old one archived: its subscribers keep paying it until they
 * change plan); the price ids are written into the plans, and the customer
 * portal offers exactly the plans' current prices (syncPlanPrices in the
 * billing domain). Running it again changes nothing. `--check` only reports,
 * and exits with 1 when something drifted.
 *
 * - Against AWS (default): TABLE_NAME and AWS_REGION from the environment
 *   (stack output TableName), the usual AWS credentials, and the Stripe key
 *   from the `stripe_secret_key` site setting, else STRIPE_SECRET_KEY, else the
 *   secret named by STRIPE_SECRET_ARN (stack output StripeSecretArn).
 * - `--local`: the running local cloud (`npm start`) and its embedded Stripe
 *   (which the local cloud also syncs on every start).
 */
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoPlanRepository } from '../src/adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../src/adapters/dynamo/settings-repository';
import { stripeKeys } from '../src/adapters/stripe/stripe-keys';
import { stripePayments } from '../src/adapters/stripe/stripe-payments';
import {
  findPriceDrift,
  type PriceDrift,
  type PriceSyncResult,
  syncPlanPrices,
} from '../src/domain/billing/plan-prices';
import { PaymentsError } from '../src/domain/billing/ports';
import { runningLocalCloud, UsageError } from './local-cloud';

const usage = `Usage: npm run stripe:sync [-- --local] [-- --check]

Reports and repairs drift between the plans and Stripe: creates the products and prices the plans
lack, replaces prices at another amount than the plan shows (archiving the old ones), stores the price
ids in the plans, and makes the customer portal offer exactly the plans' current prices.

  --local  use the running local cloud (npm start) and its embedded Stripe
  --check  only report drift; exit with 1 when there is some

Against AWS: TABLE_NAME (stack output TableName) and AWS_REGION, AWS credentials as usual, and the
Stripe secret key (test or live) in STRIPE_SECRET_KEY, the stripe_secret_key site setting, or the
secret named by STRIPE_SECRET_ARN (stack output StripeSecretArn).`;

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let local = false;
  let check = false;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        local: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help) {
      console.log(usage);
      return;
    }
    local = values.local ?? false;
    check = values.check ?? false;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }

  const target = local
    ? runningLocalCloud(env, ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'STRIPE_API_BASE', 'STRIPE_SECRET_KEY']).env
    : env;
  const missing = ['TABLE_NAME', 'AWS_REGION'].filter((name) => !target[name]);
  if (missing.length)
    throw new UsageError(`Missing environment variable(s) ${missing.join(', ')}.\n\n${usage}`);

  const dynamo = new DynamoDBClient({
    region: target.AWS_REGION,
    ...(target.DYNAMODB_ENDPOINT ? { endpoint: target.DYNAMODB_ENDPOINT } : {}),
    ...(local
      ? {
          credentials: {
            accessKeyId: target.AWS_ACCESS_KEY_ID || 'local',
            secretAccessKey: target.AWS_SECRET_ACCESS_KEY || 'local',
          },
        }
      : {}),
  });
  try {
    const documents = DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const tableName = target.TABLE_NAME as string;
    const plans = dynamoPlanRepository(documents, tableName);
    const catalog = stripePayments({
      keys: stripeKeys({ settings: dynamoSettingsRepository(documents, tableName), env: target }),
      ...(target.STRIPE_API_BASE ? { apiBase: target.STRIPE_API_BASE } : {}),
    });
    if (check) {
      const drift = await findPriceDrift({ plans, catalog });
      if (drift.length === 0) console.log('No drift: every active paid plan has its prices in Stripe.');
      for (const found of drift) {
        console.log(`${found.planId} ${found.cycle}: ${describeDrift(found.drift, found.chargedAmount)}`);
      }
      if (drift.length > 0) process.exitCode = 1;
      return;
    }
    const results = await syncPlanPrices({ plans, catalog, clock: { now: () => new Date() } });
    if (results.length === 0) console.log('No active paid plan has a price to sync.');
    for (const result of results) console.log(describeResult(result));
    const repaired = results.filter((r) => r.action !== 'kept').length;
    console.log(repaired === 0 ? 'No drift.' : `Repaired ${repaired} price${repaired === 1 ? '' : 's'}.`);
    console.log("The customer portal offers the active plans' current prices.");
  } catch (error) {
    if (error instanceof PaymentsError && error.failure === 'not-configured') {
      throw new UsageError(`Stripe refused the key or none is set: ${error.message}\n\n${usage}`);
    }
    throw error;
  } finally {
    dynamo.destroy();
  }
}

const dollars = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

function describeDrift(drift: PriceDrift, chargedAmount?: number): string {
  switch (drift) {
    case 'missing':
      return 'no Stripe price yet';
    case 'unknown':
      return 'the stored price is not in this Stripe account';
    case 'archived':
      return 'the stored price is archived';
    case 'interval':
      return 'the stored price renews at another interval';
    case 'amount':
      return `Stripe charges ${dollars(chargedAmount ?? 0)}, not the plan's price`;
  }
}

function describeResult(result: PriceSyncResult): string {
  const name = `${result.planId} ${result.cycle}`;
  if (result.action === 'kept') return `${name}: ok ${result.priceId}`;
  const archived = result.archived ? `, archived ${result.archived}` : '';
  if (result.action === 'withdrawn') return `${name}: no longer offered${archived}`;
  return `${name}: ${describeDrift(result.drift as PriceDrift, result.chargedAmount)}: created ${result.priceId}${archived}`;
}

// The SDK's notice about Node 22 would bury this command's output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
try {
  await main(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof UsageError) console.error(error.message);
  else console.error(`Could not sync the plans' prices: ${(error as Error).message ?? String(error)}`);
  process.exitCode = 1;
}
