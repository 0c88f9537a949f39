/**
 * Work that outlives a request: exporting a user's music and deleting an
 * account. The API records what is asked, starts the job and answers 202; the
 * job runs in its own function (on AWS an asynchronous Lambda invocation,
 * retried by Lambda; locally the same handler behind the local cloud's Lambda
 * endpoint). Every job can run again from the start and finish what is left.
 */
export type BackgroundJob =
  | { kind: 'export'; userId: string; exportId: string }
  | {
      kind: 'delete-account';
      userId: string;
      /** The request cancelled a running subscription before it answered (the confirmation mail says so). */
      subscriptionCancelled?: boolean;
    }
  /**
   * Rewrites every public track's share page from the deployed shell and the
   * site's name (decision 024): after a deploy writes a new index.html, and
   * the backfill of tracks from before share pages.
   */
  | { kind: 'share-pages' }
  /**
   * Brings the pricing page's document in line with the plans (decision 038):
   * after a deploy writes a new one.
   */
  | { kind: 'pricing-page' };

/** Starts a job and returns once it is queued (never waits for it to run). */
export interface BackgroundJobs {
  start(job: BackgroundJob): Promise<void>;
}

/** The kinds of job there are. */
export const BACKGROUND_JOB_KINDS = [
  'export',
  'delete-account',
  'share-pages',
  'pricing-page',
] as const satisfies readonly BackgroundJob['kind'][];

/**
 * What runs each kind of job. A runner must be safe to run again from the
 * start (an asynchronous invocation is retried after a failure, and may even
 * be delivered twice): it finishes what is left and changes nothing twice.
 */
export type JobRunners = {
  [K in BackgroundJob['kind']]?: (job: Extract<BackgroundJob, { kind: K }>) => Promise<void>;
};

/** An event this build cannot run: not a job, or a kind with no runner. It fails, and after Lambda's retries lands with the failed jobs. */
export class InvalidJobError extends Error {
  override readonly name = 'InvalidJobError';
}

const ID_MAX = 128;
const isId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= ID_MAX && /^[\w-]+$/.test(value);

/** The job an event describes, or {@link InvalidJobError}. */
export function parseBackgroundJob(event: unknown): BackgroundJob {
  if (!event || typeof event !== 'object' || Array.isArray(event))
    throw new InvalidJobError('A background job is a JSON object');
  const { kind, userId, exportId, subscriptionCancelled } = event as Record<string, unknown>;
  if (kind === 'share-pages' || kind === 'pricing-page') return { kind };
  if (!isId(userId)) throw new InvalidJobError('A background job names its user (userId)');
  if (kind === 'export') {
    if (!isId(exportId)) throw new InvalidJobError('An export job names its export (exportId)');
    return { kind, userId, exportId };
  }
  if (kind === 'delete-account') {
    return typeof subscriptionCancelled === 'boolean'
      ? { kind, userId, subscriptionCancelled }
      : { kind, userId };
  }
  throw new InvalidJobError(`Unknown background job kind: ${String(kind)}`);
}

/**
 * Runs the job an event describes with the runner of its kind. A kind with no
 * runner in this build throws, so the invocation fails and, after its
 * retries, lands where failed jobs are kept.
 */
export async function runBackgroundJob(runners: JobRunners, event: unknown): Promise<BackgroundJob> {
  const job = parseBackgroundJob(event);
  const runner = runners[job.kind] as ((job: BackgroundJob) => Promise<void>) | undefined;
  if (!runner) throw new InvalidJobError(`No runner for background jobs of kind ${job.kind}`);
  await runner(job);
  return job;
}
