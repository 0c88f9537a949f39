import { dynamo } from '../adapters/dynamo/client';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { s3 } from '../adapters/s3/client';
import { filePricingPage, s3PricingPage } from '../adapters/share/pricing-page';
import type { PricingDocument, PricingPageDeps } from '../domain/plans/pricing-page';

/**
 * The pricing page's document (decision 038): locally the built file
 * `PRICING_PAGE_FILE` names (the local server serves the build), on AWS
 * `pages/pricing.html` in the site bucket `SITE_BUCKET`.
 */
export function pricingPageFromEnv(env: NodeJS.ProcessEnv): PricingDocument {
  if (env.PRICING_PAGE_FILE) return filePricingPage(env.PRICING_PAGE_FILE);
  const bucket = env.SITE_BUCKET;
  if (!bucket) throw new Error('Missing environment variable SITE_BUCKET');
  return s3PricingPage(s3(), bucket);
}

let built: PricingPageDeps | undefined;

/** The plans and the pricing page's document, for the job that brings one in line with the other. Built once. */
export function pricingPageWiring(): PricingPageDeps {
  const { client, tableName } = dynamo();
  built ??= { plans: dynamoPlanRepository(client, tableName), page: pricingPageFromEnv(process.env) };
  return built;
}
