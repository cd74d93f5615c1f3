// The Object scenario's figures (written to bench/results/ as they are) and the tables printed
// from them: one row per controller, the limit, and the ratios the issue asks for.
import type { RequestCounts } from '../apiserver-requests';
import { formatCounts, formatEagerStarts, formatSeconds, table, type EagerStarts } from '../measure';
import { formatLatencies } from '../worker-latencies';
import { formatStatementTimes, type StatementTimes } from '../temporal-database';

/** Requests per Object that the control cluster's and the target's API servers answered in a phase. */
export interface ApiRequests {
  control: RequestCounts;
  target: RequestCounts;
}

/** What one controller (Chronoplane or provider-kubernetes) did with the N Objects. */
export interface ObjectRow {
  name: string;
  apply: {
    /** From the first create sent until the last create answered. */
    createsSeconds: number;
    /** From the first create sent until every Object was seen Ready; absent when not all were in time. */
    allReadySeconds?: number;
    ready: number;
    /** Per Object, from its create sent until it was seen Ready. */
    p50Seconds: number;
    p95Seconds: number;
    /** The run's ConfigMaps in the target once all were Ready (or at the timeout). */
    configMapsInTarget: number;
    cpuSecondsByProcess: Record<string, number>;
    /** Absent from results written before it was measured. */
    apiRequestsPerObject?: ApiRequests;
  };
  /** Absent when not all were Ready: a window after a timeout measures a backlog, not rest. */
  idle?: {
    settleSeconds: number;
    seconds: number;
    /** Of the controller's processes (worker and watcher, or the provider) together. */
    controllerCpuSeconds: number;
    cpuSecondsByProcess: Record<string, number>;
  };
  delete: {
    /** From the first delete sent until the last delete answered. */
    requestsSeconds: number;
    /** Until no Object was left in the control cluster and no ConfigMap in the target; absent past the timeout. */
    toGoneSeconds?: number;
    objectsLeft: number;
    configMapsLeft: number;
    cpuSecondsByProcess: Record<string, number>;
    apiRequestsPerObject?: ApiRequests;
  };
  /** The controller's processes, sampled through the whole run: peak, and last before the delete. */
  rssMiB: Record<string, { peak: number; settled: number }>;
  /** Chronoplane only: what the workflows of a sample wrote to Temporal until settled. */
  history?: { sampled: number; eventsPerObject: number; historyBytesPerObject: number; passesPerObject: number };
  /** Chronoplane only: the worker's steps during the apply (count × mean). */
  workerSteps?: Record<string, { count: number; meanMs: number }>;
  /** Chronoplane only: the same during the delete. */
  workerStepsInDelete?: Record<string, { count: number; meanMs: number }>;
  /** Chronoplane on Temporal's own server only: its PostgreSQL's statement time per phase. */
  temporalDatabase?: { apply: StatementTimes; delete: StatementTimes };
  /** Chronoplane only: from a watch event to the workflow's signal, in the watcher (ms). */
  watchEventToSignalMs?: { p50: number; p95: number; p99: number; count: number };
  /** Chronoplane with the watcher in the worker: the workflows it started eagerly, in the apply. */
  eagerStarts?: EagerStarts;
  /** The peer only: its start (its own kube-apiserver, CRDs, a probe Object through and back). */
  startSeconds?: number;
}

/** The minimal controller work, 32 at a time (bench/limits/minimal-object-controller.ts). */
export interface ObjectLimit {
  applySeconds: number;
  p50Seconds: number;
  p95Seconds: number;
  deleteSeconds: number;
  /** The ConfigMaps alone, server-side applied in the target, then deleted. */
  rawApplySeconds: number;
  rawDeleteSeconds: number;
}

export interface ObjectScaleResult {
  date: string;
  count: number;
  concurrency: number;
  /** Whether Chronoplane's watcher ran inside its worker (--embedded-watcher). */
  embeddedWatcher?: boolean;
  /** The Temporal Chronoplane ran on (absent from results older than the field: those ran on the dev server). */
  temporal?: string;
  machine: { cores: number | undefined; node: string };
  loadAverage: Partial<Record<'atStart' | 'atEnd', number[]>>;
  chronoplane?: ObjectRow;
  limit?: ObjectLimit;
  peer?: ObjectRow;
  /** A row that could not be measured at all, by row name. */
  errors: Record<string, string>;
}

/** `a ÷ b` as "1.23×", or a dash when either figure is missing. */
export function formatRatio(numerator: number | undefined, denominator: number | undefined): string {
  if (
    numerator === undefined ||
    denominator === undefined ||
    !Number.isFinite(numerator) ||
    !Number.isFinite(denominator) ||
    denominator === 0
  ) {
    return '—';
  }
  return `${(numerator / denominator).toFixed(2)}×`;
}

/** The sum of the controller's processes' figures; undefined when there are none. */
export function rssTotal(rss: ObjectRow['rssMiB'] | undefined, which: 'peak' | 'settled'): number | undefined {
  if (!rss) return undefined;
  const values = Object.values(rss).map((figures) => figures[which]);
  return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0);
}

const HEADER = ['', 'creates', 'to all Ready', 'p50 / p95', 'RSS peak / settled', 'idle CPU', 'delete to gone', 'history/object'];

export function printObjectScaleTable(r: ObjectScaleResult): void {
  const rows = [
    HEADER,
    ...controllerRow(r.chronoplane, 'Chronoplane'),
    ...limitRows(r.limit),
    ...controllerRow(r.peer, 'provider-kubernetes'),
  ];
  rows.push(...ratioRows(r));
  console.log(
    `\n== ${r.count} Objects (ConfigMaps in a target cluster), ${r.concurrency} creates and deletes at a time${r.embeddedWatcher ? ', watcher inside the worker' : ''}${r.temporal ? `, Temporal: ${r.temporal}` : ''} ==`,
  );
  console.log(table(rows));
  for (const [name, error] of Object.entries(r.errors)) console.log(`${name}: FAILED: ${error}`);
  console.log(`\n${table(detailRows(r))}`);
}

function controllerRow(row: ObjectRow | undefined, label: string): string[][] {
  if (!row) return [];
  const { apply, idle } = row;
  return [
    [
      label,
      formatSeconds(apply.createsSeconds),
      apply.allReadySeconds === undefined ? `${apply.ready} Ready, not all` : formatSeconds(apply.allReadySeconds),
      `${formatSeconds(apply.p50Seconds)} / ${formatSeconds(apply.p95Seconds)}`,
      `${rssTotal(row.rssMiB, 'peak')} / ${rssTotal(row.rssMiB, 'settled')} MiB`,
      idle ? `${idle.controllerCpuSeconds.toFixed(2)} s in ${idle.seconds.toFixed(0)} s (${cpuPercent(idle)})` : '—',
      row.delete.toGoneSeconds === undefined
        ? `${row.delete.objectsLeft} Objects, ${row.delete.configMapsLeft} ConfigMaps left`
        : formatSeconds(row.delete.toGoneSeconds),
      row.history ? `${row.history.eventsPerObject.toFixed(1)} events` : 'n/a',
    ],
  ];
}

function limitRows(limit: ObjectLimit | undefined): string[][] {
  if (!limit) return [];
  return [
    [
      'limit (minimal controller work)',
      '—',
      formatSeconds(limit.applySeconds),
      `${formatSeconds(limit.p50Seconds)} / ${formatSeconds(limit.p95Seconds)}`,
      '—',
      '—',
      formatSeconds(limit.deleteSeconds),
      'n/a',
    ],
    [
      '  raw SSA of the ConfigMaps alone',
      '—',
      formatSeconds(limit.rawApplySeconds),
      '—',
      '—',
      '—',
      formatSeconds(limit.rawDeleteSeconds),
      'n/a',
    ],
  ];
}

function ratioRows({ chronoplane: ours, peer, limit }: ObjectScaleResult): string[][] {
  const rows: string[][] = [];
  if (ours && peer) {
    rows.push(
      [
        'provider-kubernetes ÷ Chronoplane',
        '',
        formatRatio(peer.apply.allReadySeconds, ours.apply.allReadySeconds),
        '',
        '',
        '',
        formatRatio(peer.delete.toGoneSeconds, ours.delete.toGoneSeconds),
        '',
      ],
      [
        'Chronoplane ÷ provider-kubernetes',
        '',
        '',
        '',
        `${formatRatio(rssTotal(ours.rssMiB, 'peak'), rssTotal(peer.rssMiB, 'peak'))} / ${formatRatio(rssTotal(ours.rssMiB, 'settled'), rssTotal(peer.rssMiB, 'settled'))}`,
        '',
        '',
        '',
      ],
    );
  }
  if (ours && limit) {
    rows.push([
      'Chronoplane ÷ limit',
      '',
      formatRatio(ours.apply.allReadySeconds, limit.applySeconds),
      '',
      '',
      '',
      formatRatio(ours.delete.toGoneSeconds, limit.deleteSeconds),
      '',
    ]);
  }
  return rows;
}

/** Where the time and memory went: CPU by process in each phase, the worker's steps, RSS by process. */
function detailRows(r: ObjectScaleResult): string[][] {
  const rows: string[][] = [
    [
      'load average (1/5/15 min) at start → end',
      `${r.loadAverage.atStart?.join(' ')} → ${r.loadAverage.atEnd?.join(' ')} (${r.machine.cores} cores)`,
    ],
  ];
  for (const [label, row] of [
    ['Chronoplane', r.chronoplane],
    ['provider-kubernetes', r.peer],
  ] as const) {
    if (!row) continue;
    rows.push(
      [`${label}: ConfigMaps in the target at all Ready`, `${row.apply.configMapsInTarget} of ${r.count}`],
      [
        `${label}: RSS by process, peak / settled`,
        Object.entries(row.rssMiB)
          .map(([name, { peak, settled }]) => `${name} ${peak} / ${settled} MiB`)
          .join(', '),
      ],
      [`${label}: CPU during the apply`, formatCounts(row.apply.cpuSecondsByProcess, ' s')],
      [`${label}: CPU in the idle window`, row.idle ? formatCounts(row.idle.cpuSecondsByProcess, ' s') : 'not measured (not all Ready)'],
      [`${label}: CPU during the delete`, formatCounts(row.delete.cpuSecondsByProcess, ' s')],
      [`${label}: delete requests answered after`, formatSeconds(row.delete.requestsSeconds)],
    );
    for (const [phase, requests] of [
      ['apply', row.apply.apiRequestsPerObject],
      ['delete', row.delete.apiRequestsPerObject],
    ] as const) {
      if (!requests) continue;
      rows.push(
        [`${label}: control API requests per Object, ${phase}`, formatCounts(requests.control)],
        [`${label}: target API requests per Object, ${phase}`, formatCounts(requests.target)],
      );
    }
    if (row.workerSteps) rows.push([`${label}: worker steps during the apply`, formatLatencies(row.workerSteps)]);
    if (row.workerStepsInDelete) rows.push([`${label}: worker steps during the delete`, formatLatencies(row.workerStepsInDelete)]);
    if (row.temporalDatabase) {
      rows.push(
        [`${label}: Temporal's PostgreSQL, statement time in the apply`, formatStatementTimes(row.temporalDatabase.apply, r.count)],
        [`${label}: Temporal's PostgreSQL, statement time in the delete`, formatStatementTimes(row.temporalDatabase.delete, r.count)],
      );
    }
    if (row.watchEventToSignalMs) {
      const w = row.watchEventToSignalMs;
      rows.push([`${label}: watch event to signal p50 / p95 / p99`, `${w.p50} / ${w.p95} / ${w.p99} ms (${w.count} signals)`]);
    }
    if (row.eagerStarts) rows.push([`${label}: workflows started eagerly`, formatEagerStarts(row.eagerStarts)]);
    if (row.history) {
      const h = row.history;
      rows.push([
        `${label}: history per Object until settled (${h.sampled} sampled)`,
        `${h.eventsPerObject.toFixed(1)} events, ${(h.historyBytesPerObject / 1024).toFixed(1)} KiB over ${h.passesPerObject.toFixed(1)} passes`,
      ]);
    }
    if (row.startSeconds !== undefined)
      rows.push([`${label}: start (own kube-apiserver, CRDs, a probe Object)`, formatSeconds(row.startSeconds)]);
  }
  return rows;
}

const cpuPercent = (idle: NonNullable<ObjectRow['idle']>) => `${((idle.controllerCpuSeconds / idle.seconds) * 100).toFixed(1)}% of a core`;
