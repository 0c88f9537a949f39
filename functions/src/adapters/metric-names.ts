/** The functions' own CloudWatch metrics, named once for the code that counts and the stack that graphs them. */
export const METRICS_NAMESPACE = 'Tunesmith';

/** Every metric the functions emit (the dashboard and alarms name them too). */
export const metricNames = {
  generationsStarted: 'GenerationsStarted',
  generationsCompleted: 'GenerationsCompleted',
  generationsFailed: 'GenerationsFailed',
  generationsRefunded: 'GenerationsRefunded',
  /** A track that plays but whose download was not prepared after the workflow's retries (alarmed). */
  downloadsNotPrepared: 'DownloadsNotPrepared',
  /** A track that plays but whose lyrics were not timed after the workflow's retries (alarmed). */
  lyricsNotTimed: 'LyricsNotTimed',
  /** A separation into stems marked failed (its unit given back; the track itself is untouched). */
  separationsFailed: 'SeparationsFailed',
  /** Dimension `outcome`: accepted or rejected. */
  falWebhooks: 'FalWebhooks',
  /** Dimension `outcome`: what handling the event did, or rejected. */
  stripeWebhooks: 'StripeWebhooks',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];
