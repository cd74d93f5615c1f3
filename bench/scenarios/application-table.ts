// The application scenario's figures (written to bench/results/ as they are) and the table
// printed from them: apply to Submitted N/N, the update of all N templates, the delete, and what
// each workflow wrote to Temporal.
import { formatCounts, formatSeconds, percentile, table } from '../measure';
import { formatLatencies } from '../worker-latencies';
import type { TargetKind } from './application-model';

/** p50 / p95 / max of per-resource times, in seconds from the start of the phase. */
export interface Spread {
  count: number;
  p50Seconds: number;
  p95Seconds: number;
  maxSeconds: number;
}

/** What every phase costs the processes: CPU by process, the worker's steps, worker and watcher RSS. */
export interface PhaseCost {
  cpuSecondsByProcess: Record<string, number>;
  workerSteps: Record<string, { count: number; meanMs: number }>;
  /** Sampled every 100 ms during the phase: peak, and the last sample. */
  rssMiB: Record<string, { peak: number; last: number }>;
}

export interface ApplyFigures extends PhaseCost {
  /** The create request, answered. */
  createSeconds: number;
  /** Until the application was polled Submitted with submittedResources == N; absent past the timeout. */
  submittedSeconds?: number;
  /** The application's states, each at the first poll that showed it. */
  appStates: Record<string, number>;
  /** As last polled. */
  app: { state?: string; desiredResources?: number; submittedResources?: number };
  /** When each KubernetesApplicationResource was first seen by the watch. */
  resourcesCreated: Spread;
  /** When each was first seen Submitted (status.state) by the watch. */
  resourcesSubmitted: Spread;
  /** The run's objects in the target once the application was Submitted (or at the timeout). */
  targetObjects: number;
}

export interface UpdateFigures extends PhaseCost {
  /** The patch of all N templates, answered. */
  patchSeconds: number;
  /** Until every object in the target showed the new revision (lists every 250 ms); absent past the timeout. */
  targetsChangedSeconds?: number;
  targetsChanged: number;
  /** When each object in the target was first listed with the new revision. */
  targetChanges: Spread;
  /** Until the application was polled Submitted N/N at the patched generation; absent past the timeout. */
  appSubmittedSeconds?: number;
  /** The application's states from its first poll at the patched generation. */
  appStates: Record<string, number>;
  /** When each KubernetesApplicationResource was first seen Submitted at its new generation. */
  resourcesResubmitted: Spread;
  /** Both of the above; absent when either is. */
  toDoneSeconds?: number;
}

export interface DeleteFigures extends PhaseCost {
  /** The delete request, answered. */
  requestSeconds: number;
  applicationGoneSeconds?: number;
  resourcesGoneSeconds?: number;
  targetGoneSeconds?: number;
  /** All three; absent when any is past the timeout. */
  toGoneSeconds?: number;
  left: { application: boolean; resources: number; targetObjects: number };
}

/** What workflows wrote to Temporal: mean and max over them. */
interface WorkflowCosts {
  workflows: number;
  events: { mean: number; max: number };
  historyBytes: { mean: number; max: number };
  passes: { mean: number; max: number };
  /** Workflows whose run changed in between (continue-as-new): left out of a difference. */
  continuedAsNew?: number;
}

export interface ApplicationHistory {
  /** From each workflow's start until the application was Submitted. */
  afterApply: { resources: WorkflowCosts; application: WorkflowCosts };
  /** What the update added, from Submitted to Submitted again. */
  update?: { resources: WorkflowCosts; application: WorkflowCosts };
}

export interface ApplicationScaleResult {
  date: string;
  templates: number;
  kinds: Partial<Record<TargetKind, number>>;
  /** Where the templated objects go in the target. */
  targetNamespace: string;
  namespaceTemplate: boolean;
  machine: { cores: number | undefined; node: string };
  loadAverage: Partial<Record<'atStart' | 'atEnd', number[]>>;
  /** The 1-template application through and back before measuring. */
  warmUpSeconds?: number;
  apply?: ApplyFigures;
  update?: UpdateFigures;
  delete?: DeleteFigures;
  history?: ApplicationHistory;
  /** From a watch event to the workflow's signal, in the watcher, over the whole run (ms). */
  watchEventToSignalMs?: { p50: number; p95: number; p99: number; count: number };
  /** Why the run stopped short, if it did. */
  error?: string;
}

/** p50, p95 and max of seconds; NaN figures when there are none. */
export function spread(seconds: readonly number[]): Spread {
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    count: seconds.length,
    p50Seconds: round(percentile([...seconds], 0.5)),
    p95Seconds: round(percentile([...seconds], 0.95)),
    maxSeconds: seconds.length === 0 ? NaN : round(Math.max(...seconds)),
  };
}

/** One workflow's history: events, bytes as the server counts them, passes run. */
export interface WorkflowCost {
  events: number;
  historyBytes: number;
  passes: number;
}

export function summarizeCosts(costs: readonly WorkflowCost[]): WorkflowCosts {
  const of = (field: keyof WorkflowCost) => {
    const values = costs.map((cost) => cost[field]);
    return values.length === 0
      ? { mean: NaN, max: NaN }
      : { mean: values.reduce((sum, value) => sum + value, 0) / values.length, max: Math.max(...values) };
  };
  return { workflows: costs.length, events: of('events'), historyBytes: of('historyBytes'), passes: of('passes') };
}

/**
 * What each workflow added between two readings, in the same order. A workflow whose history
 * shrank has continued as new in between: it is left out, and counted.
 */
export function costsBetween(before: readonly WorkflowCost[], after: readonly WorkflowCost[]): WorkflowCosts {
  const added: WorkflowCost[] = [];
  let continuedAsNew = 0;
  after.forEach((cost, index) => {
    const earlier = before[index];
    if (!earlier) return;
    if (cost.events < earlier.events) continuedAsNew++;
    else {
      added.push({
        events: cost.events - earlier.events,
        historyBytes: cost.historyBytes - earlier.historyBytes,
        passes: cost.passes - earlier.passes,
      });
    }
  });
  return { ...summarizeCosts(added), continuedAsNew };
}

/** "12.0 events (max 14), 4.1 KiB, 2.0 passes". */
export function formatCosts(costs: WorkflowCosts): string {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const moved = costs.continuedAsNew ? `; ${costs.continuedAsNew} continued as new, left out` : '';
  return (
    `${costs.events.mean.toFixed(1)} events (max ${costs.events.max}), ${kib(costs.historyBytes.mean)} KiB (max ${kib(costs.historyBytes.max)}), ` +
    `${costs.passes.mean.toFixed(1)} passes${moved}`
  );
}

export const formatSpread = (s: Spread): string =>
  s.count === 0 ? '—' : `${formatSeconds(s.p50Seconds)} / ${formatSeconds(s.p95Seconds)} / ${formatSeconds(s.maxSeconds)} (${s.count})`;

/** "Scheduled 0.41 s → PartiallySubmitted 1.20 s → Submitted 5.30 s". */
export const formatStates = (states: Record<string, number>): string =>
  Object.keys(states).length === 0
    ? 'none seen'
    : Object.entries(states)
        .map(([state, seconds]) => `${state} ${formatSeconds(seconds)}`)
        .join(' → ');

const rss = (cost: PhaseCost) =>
  Object.entries(cost.rssMiB)
    .map(([name, { peak, last }]) => `${name} ${peak} / ${last} MiB`)
    .join(', ') || '—';

export function printApplicationTable(r: ApplicationScaleResult): void {
  const kinds = formatCounts(r.kinds as Record<string, number>, '', 'descending');
  console.log(`\n== A KubernetesApplication of ${r.templates} templates (${kinds}) in the target's namespace ${r.targetNamespace} ==`);
  const { apply, update, delete: deleted } = r;
  const rows: string[][] = [['', 'time', 'per resource p50 / p95 / max', 'history per workflow']];
  if (apply) {
    rows.push([
      `apply to Submitted ${r.templates}/${r.templates}`,
      apply.submittedSeconds === undefined
        ? `not in time (${apply.app.state ?? 'no state'}, ${apply.app.submittedResources ?? 0} submitted)`
        : formatSeconds(apply.submittedSeconds),
      `${formatSpread(apply.resourcesSubmitted)} Submitted`,
      r.history ? `${r.history.afterApply.resources.events.mean.toFixed(1)} events per resource` : '—',
    ]);
  }
  if (update) {
    rows.push([
      `update of all ${r.templates}`,
      update.toDoneSeconds === undefined
        ? `not in time (${update.targetsChanged} of ${r.templates} changed in the target)`
        : formatSeconds(update.toDoneSeconds),
      `${formatSpread(update.targetChanges)} in the target`,
      r.history?.update ? `+${r.history.update.resources.events.mean.toFixed(1)} events per resource` : '—',
    ]);
  }
  if (deleted) {
    rows.push([
      'delete to all gone',
      deleted.toGoneSeconds === undefined
        ? `not in time (left: application ${deleted.left.application ? 'yes' : 'no'}, ${deleted.left.resources} resources, ` +
          `${deleted.left.targetObjects} target objects)`
        : formatSeconds(deleted.toGoneSeconds),
      '',
      '',
    ]);
  }
  console.log(table(rows));
  if (r.error) console.log(`FAILED: ${r.error}`);
  console.log(`\n${table(detailRows(r))}`);
}

function detailRows(r: ApplicationScaleResult): string[][] {
  const rows: string[][] = [
    [
      'load average (1/5/15 min) at start → end',
      `${r.loadAverage.atStart?.join(' ')} → ${r.loadAverage.atEnd?.join(' ')} (${r.machine.cores} cores)`,
    ],
    ['warm-up (1 template through and back)', formatSeconds(r.warmUpSeconds)],
  ];
  const costRows = (label: string, cost: PhaseCost) => [
    [`${label}: CPU by process`, formatCounts(cost.cpuSecondsByProcess, ' s')],
    [`${label}: RSS peak / last`, rss(cost)],
    [`${label}: worker steps`, formatLatencies(cost.workerSteps) || 'none'],
  ];
  const { apply, update, delete: deleted, history } = r;
  if (apply) {
    rows.push(
      ['apply: create answered after', formatSeconds(apply.createSeconds)],
      ['apply: application states', formatStates(apply.appStates)],
      ['apply: resources created p50 / p95 / last', formatSpread(apply.resourcesCreated)],
      ['apply: resources Submitted p50 / p95 / last', formatSpread(apply.resourcesSubmitted)],
      ['apply: the run’s objects in the target', `${apply.targetObjects} of ${r.templates}`],
      ...costRows('apply', apply),
    );
  }
  if (update) {
    rows.push(
      ['update: patch answered after', formatSeconds(update.patchSeconds)],
      ['update: all objects changed in the target', formatSeconds(update.targetsChangedSeconds)],
      ['update: application Submitted again', formatSeconds(update.appSubmittedSeconds)],
      ['update: application states (new generation)', formatStates(update.appStates)],
      ['update: resources Submitted again p50 / p95 / last', formatSpread(update.resourcesResubmitted)],
      ...costRows('update', update),
    );
  }
  if (deleted) {
    rows.push(
      ['delete: request answered after', formatSeconds(deleted.requestSeconds)],
      [
        'delete: application / resources / target objects gone',
        `${formatSeconds(deleted.applicationGoneSeconds)} / ${formatSeconds(deleted.resourcesGoneSeconds)} / ${formatSeconds(deleted.targetGoneSeconds)}`,
      ],
      ...costRows('delete', deleted),
    );
  }
  if (history) {
    rows.push(
      [
        `history per resource workflow until Submitted (${history.afterApply.resources.workflows})`,
        formatCosts(history.afterApply.resources),
      ],
      ['history of the application workflow until Submitted', formatCosts(history.afterApply.application)],
    );
    if (history.update) {
      rows.push(
        ['history added per resource workflow by the update', formatCosts(history.update.resources)],
        ['history added to the application workflow by the update', formatCosts(history.update.application)],
      );
    }
  }
  if (r.watchEventToSignalMs) {
    const w = r.watchEventToSignalMs;
    rows.push(['watch event to signal p50 / p95 / p99', `${w.p50} / ${w.p95} / ${w.p99} ms (${w.count} signals)`]);
  }
  return rows;
}
