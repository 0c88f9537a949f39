/**
 * Work that outlives a request: exporting a user's music and deleting an
 * account. The API records what is asked, starts the job and answers 202; the
 * job runs in its own function (on AWS an asynchronous Lambda invocation,
 * retried by Lambda; locally the same handler behind the local cloud's Lambda
 * endpoint). Every job can run again from the start and finish what is left.
 */
export type BackgroundJob =
  | { kind: 'export'; userId: string; exportId: string }
  | { kind: 'delete-account'; userId: string };

/** Starts a job and returns once it is queued (never waits for it to run). */
export interface BackgroundJobs {
  start(job: BackgroundJob): Promise<void>;
}
