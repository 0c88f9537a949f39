/**
 * `npm run stripe:sync [-- --local]`
 *
 * Gives every active paid plan a Stripe product and a price for each billing
 * cycle it has a price for, in the account the secret key belongs to, and
 * writes the price ids into the plans (syncPlanPrices in the billing domain).
 * Prices the account already has at the plan's amount are kept; running it
 * again changes nothing.
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
import { syncPlanPrices } from '../src/domain/billing/plan-prices';
import { PaymentsError } from '../src/domain/billing/ports';
import { runningLocalCloud, UsageError } from './local-cloud';

const usage = `Usage: npm run stripe:sync [-- --local]

Creates Stripe products and prices for the plans that lack them and stores the price ids in the plans.

  --local  use the running local cloud (npm start) and its embedded Stripe

Against AWS: TABLE_NAME (stack output TableName) and AWS_REGION, AWS credentials as usual, and the
Stripe secret key (test or live) in STRIPE_SECRET_KEY, the stripe_secret_key site setting, or the
secret named by STRIPE_SECRET_ARN (stack output StripeSecretArn).`;

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let local = false;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { local: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      console.log(usage);
      return;
    }
    local = values.local ?? false;
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
    const results = await syncPlanPrices({
      plans: dynamoPlanRepository(documents, tableName),
      catalog: stripePayments({
        keys: stripeKeys({ settings: dynamoSettingsRepository(documents, tableName), env: target }),
        ...(target.STRIPE_API_BASE ? { apiBase: target.STRIPE_API_BASE } : {}),
      }),
      clock: { now: () => new Date() },
    });
    if (results.length === 0) console.log('No active paid plan has a price to sync.');
    for (const result of results) {
      console.log(`${result.planId} ${result.cycle}: ${result.action} ${result.priceId}`);
    }
  } catch (error) {
    if (error instanceof PaymentsError && error.failure === 'not-configured') {
      throw new UsageError(`Stripe refused the key or none is set: ${error.message}\n\n${usage}`);
    }
    throw error;
  } finally {
    dynamo.destroy();
  }
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
