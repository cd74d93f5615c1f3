// The scale scenario's figures (written to bench/results/ as they are) and the table printed
// from them, each figure next to the issue's goal for it.
import type { UserPart } from '../bench-vpcs';
import type { Ec2Inventory } from '../ec2-inventory';
import { formatLeftovers } from '../ec2-inventory';
import { formatCounts, formatEagerStarts, formatSeconds, table, type EagerStarts } from '../measure';
import { phaseRows, type PhaseFigures } from '../phase-probe';
import { formatLatencies } from '../worker-latencies';

interface PerUnit {
  events: number;
  historyBytes: number;
  payloadBytes: number;
  passes: number;
}

/** Filled in phase by phase; a phase that did not run leaves its field out. */
export interface VpcScaleResult {
  date: string;
  count: number;
  /** How the VPCs were created and deleted (bench/bench-vpcs.ts). */
  userPart: UserPart;
  /** The Temporal the controllers ran on (absent from results older than the field: those ran on the dev server). */
  temporal?: string;
  machine: { cores: number | undefined; node: string };
  loadAverage: Partial<Record<'atStart' | 'afterApply' | 'afterIdle' | 'atEnd', number[]>>;
  motoLookups: string;
  pollSteadySeconds: number;
  limit?: { applySeconds: number; applyP50Seconds: number; deleteSeconds: number; phases: { apply: PhaseFigures; delete: PhaseFigures } };
  apply?: {
    /** Until the last create was answered (kubectl returned). */
    userSeconds: number;
    /** Absent when not all were Ready in time. */
    allReadySeconds?: number;
    ready: number;
    p50Seconds: number;
    p95Seconds: number;
    phase: PhaseFigures;
    workerSteps: Record<string, { count: number; meanMs: number }>;
  };
  watchEventToSignalMs?: { p50: number; p95: number; p99: number; count: number };
  /** Chronoplane with the watcher in the worker: the workflows it started eagerly, in the apply. */
  eagerStarts?: EagerStarts;
  idle?: PhaseFigures & { cpuPercentOfACorePer1000: Record<string, number>; ec2CallsPerResourcePerHour: number };
  history?: { sampled: number; perWorkflowUntilSettled: PerUnit; passesInIdleWindow: number; perSettledPass: PerUnit };
  /** watcher is absent when it ran inside the worker. */
  rssSettledMiB?: { worker: number; watcher?: number };
  rssPeakMiB?: { worker: number; watcher?: number };
  drift?: { changed: number; p50Seconds: number; maxSeconds: number; uncorrected: number };
  delete?: {
    userSeconds: number;
    toEmptySeconds?: number;
    left: number;
    phase: PhaseFigures;
    /** Absent from results written before it was measured. */
    workerSteps?: Record<string, { count: number; meanMs: number }>;
  };
  leftAtEc2?: Ec2Inventory;
}

export function printVpcScaleTable(r: VpcScaleResult): void {
  const { count } = r;
  const ratio = (ours: number | undefined, limit: number | undefined) =>
    ours === undefined || limit === undefined ? '—' : `${(ours / limit).toFixed(2)}×`;
  const perResource = (n: number) => `${(n / count).toFixed(2)} per resource`;
  const rows: string[][] = [
    ['resources', String(count)],
    ['load average (1/5/15 min) at start → end', `${r.loadAverage.atStart?.join(' ')} → ${r.loadAverage.atEnd?.join(' ')} (2 cores)`],
    ['moto lookups', r.motoLookups],
  ];
  if (r.limit) {
    rows.push(
      ['limit: minimal controller work, 32 in parallel', formatSeconds(r.limit.applySeconds)],
      ['  limit: moto time by action', formatCounts(r.limit.phases.apply.motoSecondsByAction, ' s')],
    );
  }
  if (r.apply) {
    const { apply } = r;
    rows.push(
      [
        r.userPart === 'kubectl' ? 'kubectl apply returned after' : 'creates, 32 at a time, answered after',
        formatSeconds(apply.userSeconds),
      ],
      [
        'apply to all Ready',
        apply.allReadySeconds === undefined
          ? `not all Ready: ${apply.ready} of ${count} after ${formatSeconds(apply.phase.seconds)}`
          : `${formatSeconds(apply.allReadySeconds)} = ${ratio(apply.allReadySeconds, r.limit?.applySeconds)} the limit (goal ≤ 1.5×)`,
      ],
      ['apply to Ready p50 / p95', `${formatSeconds(apply.p50Seconds)} / ${formatSeconds(apply.p95Seconds)}`],
      ['apply phase', ''],
      ['  EC2 calls per resource', perResource(apply.phase.ec2Calls.total)],
      ['  worker steps (count × mean)', formatLatencies(apply.workerSteps)],
      ...phaseRows(apply.phase, count),
    );
  }
  if (r.idle) {
    const { idle } = r;
    const per1000 = idle.cpuPercentOfACorePer1000;
    const total = Object.values(per1000).reduce((sum, share) => sum + share, 0);
    rows.push(
      [`idle window (${idle.seconds.toFixed(0)} s, poll ${r.pollSteadySeconds} s)`, ''],
      ['  CPU, % of a core per 1,000 resources', `${total.toFixed(1)}% in all (goal ≤ 5%): ${formatCounts(round(per1000, 1), '%')}`],
      [
        '  EC2 calls per settled resource per hour',
        `${idle.ec2CallsPerResourcePerHour.toFixed(1)} (goal ≤ 1): ${formatCounts(idle.ec2Calls.byAction)} in the window`,
      ],
      ['  moto time by action', formatCounts(idle.motoSecondsByAction, ' s')],
    );
  }
  if (r.history) {
    const { perWorkflowUntilSettled: create, perSettledPass: pass } = r.history;
    rows.push(
      [
        `history per workflow until settled (${r.history.sampled} sampled)`,
        `${create.events.toFixed(1)} events, ${bytes(create.historyBytes)} (payloads ${bytes(create.payloadBytes)}) over ${create.passes.toFixed(1)} passes`,
      ],
      [`passes of the sampled workflows in the idle window`, `${r.history.passesInIdleWindow}`],
      [
        'history per settled pass (one reconcileNow each)',
        `${pass.events.toFixed(1)} events, ${bytes(pass.historyBytes)} (payloads ${bytes(pass.payloadBytes)}); ${pass.passes} passes`,
      ],
    );
  }
  if (r.rssPeakMiB) {
    const settled = r.rssSettledMiB;
    const both = settled ? `; settled worker + watcher ${settled.worker + (settled.watcher ?? 0)} MiB (goal ≤ 300 MiB at 10,000)` : '';
    const embedded = r.rssPeakMiB.watcher === undefined;
    rows.push(
      [`worker RSS peak / settled${embedded ? ' (watcher embedded)' : ''}`, `${r.rssPeakMiB.worker} / ${settled?.worker ?? '—'} MiB`],
      embedded
        ? ['watcher', `in the worker process${both}`]
        : ['watcher RSS peak / settled', `${r.rssPeakMiB.watcher} / ${settled?.watcher ?? '—'} MiB${both}`],
    );
  }
  if (r.drift) {
    rows.push([
      `drift: ${r.drift.changed} VPCs (1%) lose a tag out of band`,
      `corrected after p50 ${formatSeconds(r.drift.p50Seconds)}, max ${formatSeconds(r.drift.maxSeconds)} (poll interval ${r.pollSteadySeconds} s)` +
        (r.drift.uncorrected > 0 ? `; ${r.drift.uncorrected} NOT corrected` : ''),
    ]);
  }
  if (r.watchEventToSignalMs) {
    const w = r.watchEventToSignalMs;
    rows.push(['watch event to signal p50 / p95 / p99', `${w.p50} / ${w.p95} / ${w.p99} ms (${w.count} signals)`]);
  }
  if (r.eagerStarts) rows.push(['workflows started eagerly', formatEagerStarts(r.eagerStarts)]);
  if (r.delete) {
    const { delete: del } = r;
    rows.push(
      ['limit: delete to empty (DeleteVpc, remove finalizer)', formatSeconds(r.limit?.deleteSeconds)],
      [
        r.userPart === 'kubectl' ? 'kubectl delete returned after' : 'deletes, 32 at a time, answered after',
        formatSeconds(del.userSeconds),
      ],
      [
        'delete to empty',
        del.toEmptySeconds === undefined
          ? `${del.left} left after ${formatSeconds(del.phase.seconds)}`
          : `${formatSeconds(del.toEmptySeconds)} = ${ratio(del.toEmptySeconds, r.limit?.deleteSeconds)} the limit (goal ≤ 2×)`,
      ],
      ['delete phase', ''],
      ['  EC2 calls per resource', perResource(del.phase.ec2Calls.total)],
      ...(del.workerSteps ? [['  worker steps (count × mean)', formatLatencies(del.workerSteps)]] : []),
      ...phaseRows(del.phase, count),
      ['left at the EC2 endpoint', r.leftAtEc2 ? formatLeftovers(r.leftAtEc2) : 'not checked'],
    );
  }
  console.log(`\n== ${count} VPCs: against the limit, settled, drifted, deleted${r.temporal ? `, Temporal: ${r.temporal}` : ''} ==`);
  console.log(table(rows));
}

const bytes = (n: number) => (Number.isNaN(n) ? '—' : n >= 10_000 ? `${(n / 1024).toFixed(1)} KiB` : `${Math.round(n)} B`);

const round = (values: Record<string, number>, digits: number) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Number(value.toFixed(digits))]));
