import { Metrics } from '@aws-lambda-powertools/metrics';
import { describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE, metricNames, metricsRecorder } from './metrics';

/** The embedded-metric-format documents a Metrics instance prints. */
function recorded() {
  const printed: Record<string, unknown>[] = [];
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'tunesmith' });
  vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
    printed.push(metrics.serializeMetrics() as unknown as Record<string, unknown>);
    metrics.clearMetrics();
    return metrics;
  });
  return { recorder: metricsRecorder(metrics), printed, metrics };
}

describe('metricsRecorder', () => {
  it('publishes what an invocation counted as one document in the Tunesmith namespace', () => {
    const { recorder, printed } = recorded();
    recorder.count(metricNames.generationsFailed);
    recorder.count(metricNames.generationsRefunded);
    recorder.flush();
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatchObject({
      service: 'tunesmith',
      GenerationsFailed: 1,
      GenerationsRefunded: 1,
      _aws: { CloudWatchMetrics: [{ Namespace: 'Tunesmith', Dimensions: [['service']] }] },
    });
  });

  it('publishes nothing for an invocation that counted nothing', () => {
    const { recorder, printed } = recorded();
    recorder.flush();
    expect(printed).toEqual([]);
  });

  it('counts an outcome under its own dimension, apart from the other metrics', () => {
    const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'tunesmith' });
    const single = new Metrics({
      namespace: METRICS_NAMESPACE,
      serviceName: 'tunesmith',
      singleMetric: true,
    });
    const printed: unknown[] = [];
    vi.spyOn(single, 'publishStoredMetrics').mockImplementation(() => {
      printed.push(single.serializeMetrics());
      return single;
    });
    vi.spyOn(metrics, 'singleMetric').mockReturnValue(single);
    metricsRecorder(metrics).countOutcome(metricNames.stripeWebhooks, 'duplicate');
    expect(printed[0]).toMatchObject({
      outcome: 'duplicate',
      StripeWebhooks: 1,
      _aws: { CloudWatchMetrics: [{ Dimensions: [['service', 'outcome']] }] },
    });
    expect(metrics.hasStoredMetrics()).toBe(false);
  });
});
