/**
 * The jobs function: runs one background job per asynchronous invocation
 * (domain/jobs.ts). The API starts jobs with `lambdaBackgroundJobs`
 * (adapters/lambda/background-jobs.ts); on AWS Lambda retries a failed run
 * twice and then sends the event to the failed-events queue, locally the
 * local cloud's Lambda endpoint does the same in process. Each kind's runner
 * is built on its first job, so a runtime builds only what it runs.
 */

import { PRICING_PAGE_KEY } from '@tunesmith/shared/pages';
import { dynamoTrackDirectory } from '../adapters/dynamo/admin-directory';
import { dynamo } from '../adapters/dynamo/client';
import { runAccountDeletion } from '../domain/accounts/account-deletion';
import { runExport } from '../domain/exports/export-service';
import { type JobRunners, runBackgroundJob } from '../domain/jobs';
import { refreshPricingPage } from '../domain/plans/pricing-page';
import { isShareTemplateKey, rewriteAllFromDirectory } from '../domain/tracks/share-page';
import { logger } from '../http/logger';
import { accountDeletionJobDeps } from './account-deletion-wiring';
import { exportJobDeps } from './export-wiring';
import { pricingPageWiring } from './pricing-wiring';
import { sharePageWiring } from './share-wiring';

const runners: JobRunners = {
  // Export everything (domain/exports): the zip of a user's music, linked by mail.
  export: (job) => runExport(exportJobDeps(), job),
  // Delete my account (domain/accounts/account-deletion): the cascade, then the confirmation mail.
  'delete-account': async (job) => {
    const outcome = await runAccountDeletion(accountDeletionJobDeps(), job);
    logger.info('account deletion', { outcome });
  },
  // Share pages (decisions 024, 026): every public track's page rewritten from the deployed template,
  // then every playlist's and creator's document from the deployed shell (decisions 058, 059).
  'share-pages': async () => {
    const { client, tableName } = dynamo();
    const { written } = await rewriteAllFromDirectory(
      sharePageWiring(),
      dynamoTrackDirectory(client, tableName),
    );
    logger.info('share pages rewritten', { written });
    const { rewriteCommunityDocuments } = await import('./community-documents-wiring');
    logger.info('playlist and creator documents rewritten', await rewriteCommunityDocuments());
  },
  // The pricing page (decision 038): a new document (a deploy) gets the plans; its own write changes nothing more.
  'pricing-page': async () => {
    logger.info('pricing page', { outcome: await refreshPricingPage(pricingPageWiring()) });
  },
};

/**
 * S3 tells the function when the site bucket's track frame template
 * (`pages/track.html`) is written (a deploy): that is a `share-pages` job;
 * and when the pricing page's document (`pages/pricing.html`) is, by a
 * deploy or by this job: that is a `pricing-page` job. Anything else is a
 * job event as the API sends it.
 */
export function jobOf(event: unknown): unknown {
  const records = (event as { Records?: { eventSource?: string; s3?: { object?: { key?: string } } }[] })
    ?.Records;
  if (!Array.isArray(records)) return event;
  const written = records.flatMap((r) =>
    r.eventSource === 'aws:s3' ? [decodeURIComponent((r.s3?.object?.key ?? '').replace(/\+/g, ' '))] : [],
  );
  if (written.some(isShareTemplateKey)) return { kind: 'share-pages' };
  if (written.includes(PRICING_PAGE_KEY)) return { kind: 'pricing-page' };
  return event;
}

export const handler = async (event: unknown): Promise<void> => {
  const started = Date.now();
  try {
    const job = await runBackgroundJob(runners, jobOf(event));
    logger.info('background job done', { kind: job.kind, ms: Date.now() - started });
  } catch (error) {
    // Ids only: a job event carries no secrets, but its fields are not logged whole either.
    const { kind } = (event ?? {}) as { kind?: unknown };
    logger.error('background job failed', { kind: String(kind), error });
    throw error;
  }
};
