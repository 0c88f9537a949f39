import { describe, expect, it } from 'vitest';
import { lazyMetrics } from './lazy-metrics';
import { metricNames } from './metric-names';
import type { MetricsRecorder } from './metrics';

/** A recorder that writes down what reaches it, and a loader that counts its loads. */
function recorder(failFirst = false) {
  const seen: string[] = [];
  let loads = 0;
  const target: MetricsRecorder = {
    count: (name) => seen.push(`count ${name}`),
    countOutcome: (name, outcome) => seen.push(`outcome ${name} ${outcome}`),
    flush: () => seen.push('flush'),
  };
  const load = async () => {
    loads++;
    if (failFirst && loads === 1) throw new Error('chunk unreadable');
    return target;
  };
  return { seen, load, loads: () => loads };
}

describe('lazyMetrics', () => {
  it('loads nothing for an invocation that counted nothing', async () => {
    const { seen, load, loads } = recorder();
    await lazyMetrics(load).flush();
    expect(loads()).toBe(0);
    expect(seen).toEqual([]);
  });

  it('holds counts until the flush, then hands them over and publishes once', async () => {
    const { seen, load, loads } = recorder();
    const metrics = lazyMetrics(load);
    metrics.count(metricNames.generationsStarted);
    metrics.countOutcome(metricNames.stripeWebhooks, 'duplicate');
    expect(loads()).toBe(0);
    await metrics.flush();
    expect(seen).toEqual(['count GenerationsStarted', 'outcome StripeWebhooks duplicate', 'flush']);
    await metrics.flush();
    expect(seen).toHaveLength(3);
  });

  it('keeps the counts when the recorder fails to load, for the next flush', async () => {
    const { seen, load } = recorder(true);
    const metrics = lazyMetrics(load);
    metrics.count(metricNames.generationsStarted);
    await expect(metrics.flush()).rejects.toThrow('chunk unreadable');
    await metrics.flush();
    expect(seen).toEqual(['count GenerationsStarted', 'flush']);
  });
});
