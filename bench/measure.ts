// Small measuring helpers for the benchmarks.
import { readFile } from 'node:fs/promises';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Samples each process's resident set size from /proc while a run goes on. */
export class RssSampler<Name extends string> {
  private readonly peaks = new Map<string, number>();
  private readonly last = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  /** A name without a pid (a process that is not running in this setup) is left out of the summary. */
  constructor(private readonly pids: Partial<Record<Name, number>>) {}

  start(intervalMs = 250): void {
    this.timer = setInterval(() => void this.sample(), intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  summary(): Partial<Record<Name, { peak: number; last: number }>> {
    const names = Object.keys(this.pids) as Name[];
    return Object.fromEntries(
      names.map((name) => [name, { peak: this.peaks.get(name) ?? NaN, last: this.last.get(name) ?? NaN }]),
    ) as Partial<Record<Name, { peak: number; last: number }>>;
  }

  private async sample(): Promise<void> {
    for (const [name, pid] of Object.entries(this.pids) as [string, number][]) {
      try {
        const status = await readFile(`/proc/${pid}/status`, 'utf8');
        const kib = Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1]);
        const mib = Math.round(kib / 1024);
        this.last.set(name, mib);
        this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, mib));
      } catch {
        // The process has exited; keep what was measured.
      }
    }
  }
}

/** p50/p95/p99 in milliseconds from the watcher's Prometheus summary. */
export function summarizeLatency(metricsText: string): { p50: number; p95: number; p99: number; count: number } {
  const quantile = (q: string) => {
    const match = metricsText.match(new RegExp(`^chronoplane_watch_event_to_signal_seconds\\{quantile="${q}"\\} (\\S+)`, 'm'));
    return match ? Math.round(Number(match[1]) * 10_000) / 10 : NaN;
  };
  const count = Number(metricsText.match(/^chronoplane_watch_event_to_signal_seconds_count (\S+)/m)?.[1] ?? NaN);
  return { p50: quantile('0.5'), p95: quantile('0.95'), p99: quantile('0.99'), count };
}

/** The workflows an embedded watcher started eagerly (chronoplane_eager_workflow_starts_total), by whether the first task came back in the answer. */
export interface EagerStarts {
  eagerly: number;
  throughTheQueue: number;
}

/** From the watcher's metrics; undefined when it started none (a watcher in its own process starts none). */
export function summarizeEagerStarts(metricsText: string): EagerStarts | undefined {
  const sum = (eagerly: boolean) =>
    [
      ...metricsText.matchAll(new RegExp(`^chronoplane_eager_workflow_starts_total\\{[^}]*eagerly="${eagerly}"[^}]*\\} (\\S+)`, 'gm')),
    ].reduce((total, match) => total + Number(match[1]), 0);
  const starts = { eagerly: sum(true), throughTheQueue: sum(false) };
  return starts.eagerly + starts.throughTheQueue > 0 ? starts : undefined;
}

/** How an EagerStarts reads in a table. */
export const formatEagerStarts = (s: EagerStarts): string =>
  `${s.eagerly} of ${s.eagerly + s.throughTheQueue} with the first workflow task in the answer, ${s.throughTheQueue} through the task queue (no free slot)`;

/** Aligned columns; the last column of each row is left as it is. Rows may have any number of cells. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Seconds with two decimals, or a dash when there is no figure. */
export function formatSeconds(seconds: number | undefined): string {
  return seconds === undefined || Number.isNaN(seconds) ? '—' : `${seconds.toFixed(2)} s`;
}

/** "DescribeVpcs 12, CreateVpc 1, …": largest first (or smallest first); `unit` follows each figure. */
export function formatCounts(counts: Record<string, number>, unit = '', order: 'descending' | 'ascending' = 'descending'): string {
  const sign = order === 'descending' ? 1 : -1;
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => sign * (y - x) || a.localeCompare(b));
  return entries.length === 0 ? 'none' : entries.map(([name, count]) => `${name} ${count}${unit}`).join(', ');
}
