/**
 * The route groups' metrics: counts wait in memory until the invocation's
 * flush, and Powertools' Metrics (./metrics.ts) loads with the first flush
 * that has something to publish. Most requests count nothing, so most cold
 * starts never load it (decision 042). The workflow, which counts on every
 * step, uses ./metrics.ts directly.
 */
import { lazySdk } from './lazy-sdk';
import type { MetricName, MetricsRecorder } from './metrics';

export interface LazyMetrics {
  /** Counts one occurrence, published at the invocation's flush. */
  count(name: MetricName): void;
  /** Counts one occurrence with an `outcome` dimension, published at the invocation's flush. */
  countOutcome(name: MetricName, outcome: string): void;
  /** Publishes what was counted since the last flush; loads nothing when nothing was. */
  flush(): Promise<void>;
}

/** A {@link LazyMetrics} publishing through the recorder `load` answers. */
export function lazyMetrics(load: () => Promise<MetricsRecorder>): LazyMetrics {
  const counts: MetricName[] = [];
  const outcomes: [MetricName, string][] = [];
  return {
    count: (name) => {
      counts.push(name);
    },
    countOutcome: (name, outcome) => {
      outcomes.push([name, outcome]);
    },
    flush: async () => {
      if (counts.length === 0 && outcomes.length === 0) return;
      // Counts are taken only once the recorder is there: a failed load keeps them for the next flush.
      const recorder = await load();
      for (const name of counts.splice(0)) recorder.count(name);
      for (const [name, outcome] of outcomes.splice(0)) recorder.countOutcome(name, outcome);
      recorder.flush();
    },
  };
}

const powertools = lazySdk(
  () => import('./metrics'),
  (module) => module.metrics,
);

/** CloudWatch metrics (embedded metric format) of the route groups. */
export const metrics = lazyMetrics(async () => (await powertools()).client);
