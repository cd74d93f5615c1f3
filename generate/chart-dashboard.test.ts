// The chart's Grafana dashboard queries only metrics that exist: the watcher's own (registered in
// watcher/metrics.ts, with prom-client's process metrics), the Temporal SDK's worker metrics, and
// the two the worker emits through the SDK's metric meter (failed passes by class, EC2 calls).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WatcherMetrics } from '#watcher/metrics';
import { chartDir } from './chart-files';
import { RECONCILE_FAILURES } from '#workflows/failure-metrics';
import { EC2_API_CALLS } from '#providers/aws/call-metrics';

/**
 * The Temporal SDK's worker metrics the dashboard uses, as the worker's Prometheus endpoint names
 * them (TypeScript SDK 1.24 defaults: no `_total` suffix, durations in milliseconds).
 */
const TEMPORAL_METRICS = [
  'temporal_activity_execution_failed',
  'temporal_activity_execution_latency',
  'temporal_local_activity_execution_failed',
  'temporal_local_activity_execution_latency',
  'temporal_num_pollers',
  'temporal_sticky_cache_size',
  'temporal_sticky_cache_total_forced_eviction',
  'temporal_worker_task_slots_used',
  'temporal_workflow_completed',
  'temporal_workflow_continue_as_new',
  'temporal_workflow_failed',
  'temporal_workflow_task_execution_latency',
  'temporal_workflow_task_schedule_to_start_latency',
];

interface Panel {
  title?: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(await readFile(join(chartDir, 'dashboards', 'chronoplane.json'), 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: { query?: string | { query: string } }[] };
};

/** Metric names in a PromQL expression: identifiers followed by `{`, with histogram suffixes taken off. */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/([a-z_:][a-z0-9_:]*)\{/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, ''));
}

describe("the chart's Grafana dashboard", () => {
  const exprs = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr)),
    ...dashboard.templating.list.map((v) => (typeof v.query === 'object' ? v.query.query : '')),
  ];

  it('queries only metrics that the watcher, the Temporal SDK or the worker export', async () => {
    const watcherMetrics = (await new WatcherMetrics().registry.getMetricsAsJSON()).map((m) => m.name);
    const known = new Set([...watcherMetrics, ...TEMPORAL_METRICS, RECONCILE_FAILURES, EC2_API_CALLS]);
    const used = [...new Set(exprs.flatMap(metricsIn))];
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((name) => !known.has(name))).toEqual([]);
  });

  it('shows passes, failures by step and by class, signal latency, workflow-task latency, provider and EC2 calls, and resources by Ready and Synced', () => {
    const titles = dashboard.panels.map((p) => p.title);
    for (const title of [
      'Reconcile passes',
      'Failures by step',
      'Failures by class',
      'EC2 calls',
      'Watch event to signal',
      'Workflow task latency',
      'Provider calls',
      'Resources by Ready and Synced',
    ]) {
      expect(titles).toContain(title);
    }
  });
});
