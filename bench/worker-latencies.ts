// Where the worker's time goes, from the Temporal SDK's own Prometheus histograms on the
// worker's metrics port (milliseconds): each local activity (observe, resolve references, write
// status…), each activity, and workflow tasks. Read before and after a phase, the difference
// gives the mean per step, which is what a slow wake-up gap is made of.
const HISTOGRAMS: Record<string, string> = {
  temporal_local_activity_execution_latency: 'local activity',
  temporal_activity_execution_latency: 'activity',
  temporal_activity_schedule_to_start_latency: 'activity schedule-to-start',
  temporal_workflow_task_execution_latency: 'workflow task execution',
  temporal_workflow_task_schedule_to_start_latency: 'workflow task schedule-to-start',
};

/** Sum (ms) and count of each histogram, by `<what> <activity type>`. */
export type LatencyTotals = Record<string, { sumMs: number; count: number }>;

export async function readWorkerLatencies(metricsPort: number): Promise<LatencyTotals> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const totals: LatencyTotals = {};
  for (const line of text.split('\n')) {
    const match = /^(\w+)_(sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    const what = match && HISTOGRAMS[match[1]!];
    if (!match || !what) continue;
    const activityType = /activity_type="([^"]+)"/.exec(match[3]!)?.[1];
    const key = activityType ? `${what} ${activityType}` : what;
    const entry = (totals[key] ??= { sumMs: 0, count: 0 });
    if (match[2] === 'sum') entry.sumMs += Number(match[4]);
    else entry.count += Number(match[4]);
  }
  return totals;
}

/** Count and mean of each step between two readings; steps that did not run are left out. */
export function latenciesBetween(before: LatencyTotals, after: LatencyTotals): Record<string, { count: number; meanMs: number }> {
  const steps: Record<string, { count: number; meanMs: number }> = {};
  for (const [key, { sumMs, count }] of Object.entries(after)) {
    const runs = count - (before[key]?.count ?? 0);
    if (runs > 0) steps[key] = { count: runs, meanMs: Math.round((sumMs - (before[key]?.sumMs ?? 0)) / runs) };
  }
  return steps;
}

/** "local activity observe 31 × 120 ms, …", by total time, largest first. */
export function formatLatencies(steps: Record<string, { count: number; meanMs: number }>): string {
  return Object.entries(steps)
    .sort(([, a], [, b]) => b.count * b.meanMs - a.count * a.meanMs)
    .map(([key, { count, meanMs }]) => `${key} ${count} × ${meanMs} ms`)
    .join(', ');
}
