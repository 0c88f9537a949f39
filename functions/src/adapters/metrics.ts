/**
 * Business metrics in CloudWatch through Powertools for AWS Lambda's Metrics
 * (embedded metric format: a log line CloudWatch turns into metrics, no API
 * call). Namespace `Tunesmith`, dimension `service`. The local cloud and the
 * tests set `POWERTOOLS_METRICS_DISABLED`, so nothing is printed there.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

import { METRICS_NAMESPACE, type MetricName } from './metric-names';

export { METRICS_NAMESPACE, type MetricName, metricNames } from './metric-names';

export interface MetricsRecorder {
  /** Counts one occurrence, published with the invocation's other metrics. */
  count(name: MetricName): void;
  /** Counts one occurrence with an `outcome` dimension, published at once. */
  countOutcome(name: MetricName, outcome: string): void;
  /** Publishes what this invocation counted; nothing when it counted nothing. */
  flush(): void;
}

export function metricsRecorder(metrics: Metrics): MetricsRecorder {
  return {
    count: (name) => metrics.addMetric(name, MetricUnit.Count, 1),
    countOutcome: (name, outcome) => {
      const single = metrics.singleMetric();
      single.addDimension('outcome', outcome);
      single.addMetric(name, MetricUnit.Count, 1);
    },
    flush: () => {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    },
  };
}

export const metrics = metricsRecorder(
  new Metrics({
    namespace: METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'tunesmith',
  }),
);
