// The benchmark reads the watcher's own Prometheus text: parsed here from what prom-client writes.
import { describe, expect, it } from 'vitest';
import { WatcherMetrics } from '#watcher/metrics';
import { summarizeEagerStarts } from './measure';

describe('summarizeEagerStarts', () => {
  it('adds up the eager starts of every kind, by whether the first task came back in the answer', async () => {
    const metrics = new WatcherMetrics();
    metrics.eagerStarts.inc({ kind: 'VPC', eagerly: 'true' }, 3);
    metrics.eagerStarts.inc({ kind: 'Subnet', eagerly: 'true' });
    metrics.eagerStarts.inc({ kind: 'VPC', eagerly: 'false' }, 2);
    expect(summarizeEagerStarts(await metrics.registry.metrics())).toEqual({ eagerly: 4, throughTheQueue: 2 });
  });

  it('says nothing for a watcher that started none', async () => {
    expect(summarizeEagerStarts(await new WatcherMetrics().registry.metrics())).toBeUndefined();
  });
});
