// How a chaos run reads: a row per round, totals, every loss named with what explains it, and
// the verdict. Pure: it formats results and decides the exit, nothing else.
import { formatSeconds, table } from '#bench/measure';
import { addInterruptions, noInterruptions, type Interruptions } from './interruptions';
import { lossesOf, type ObjectFinding, type RoundResult } from './rounds';

type Losses = ReturnType<typeof lossesOf>;

const LOSS_NAMES: Record<keyof Losses, string> = {
  notReady: 'not ready',
  duplicates: 'duplicates',
  missing: 'missing at EC2',
  leaks: 'leaks',
  stuck: 'stuck',
  dependencyViolations: 'DependencyViolation',
};

export function totalLosses(rounds: readonly RoundResult[]): Losses {
  const total: Losses = { notReady: 0, duplicates: 0, missing: 0, leaks: 0, stuck: 0, dependencyViolations: 0 };
  for (const round of rounds) {
    const losses = lossesOf(round);
    for (const key of Object.keys(total) as (keyof Losses)[]) total[key] += losses[key];
  }
  return total;
}

const kills = (r: RoundResult) => `${r.apply.killsMade}+${r.delete.killsMade}`;
const converge = (seconds: number | undefined) => (seconds === undefined ? 'never' : formatSeconds(seconds));

export function roundsTable(rounds: readonly RoundResult[]): string {
  const header = [
    'round',
    'fault',
    'kills',
    'Ready after last kill',
    'not ready',
    'dup',
    'missing',
    'gone after last kill',
    'stuck',
    'leaks',
    'DV',
    'crashes',
    'round took',
  ];
  const rows = rounds.map((r) => {
    const l = lossesOf(r);
    return [
      String(r.index),
      r.fault,
      kills(r),
      converge(r.apply.convergeSeconds),
      String(l.notReady),
      String(l.duplicates),
      String(l.missing),
      converge(r.delete.convergeSeconds),
      String(l.stuck),
      String(l.leaks),
      String(l.dependencyViolations),
      String(r.unexpectedExits.length),
      formatSeconds(r.seconds),
    ];
  });
  return table([header, ...rows]);
}

/** Kills made by fault kind, and convergence after the last kill over all rounds: median and max. */
export function totalsTable(rounds: readonly RoundResult[]): string {
  const byFault = new Map<string, number>();
  for (const r of rounds) byFault.set(r.fault, (byFault.get(r.fault) ?? 0) + r.apply.killsMade + r.delete.killsMade);
  const spread = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);
    const never = values.length - known.length;
    const median = known.length === 0 ? undefined : known[Math.floor((known.length - 1) / 2)];
    return `median ${formatSeconds(median)}, max ${formatSeconds(known.at(-1))}${never > 0 ? `, never in ${never}` : ''}`;
  };
  const losses = totalLosses(rounds);
  const restarts = rounds.flatMap((r) => [...r.apply.restartSeconds, ...r.delete.restartSeconds]);
  return table([
    ['rounds', String(rounds.length)],
    ['kills', [...byFault].map(([fault, n]) => `${fault} ${n}`).join(', ') || 'none'],
    ['restart (kill to serving again)', spread(restarts)],
    ['apply: last kill to all Ready', spread(rounds.map((r) => r.apply.convergeSeconds))],
    ['delete: last kill to all gone', spread(rounds.map((r) => r.delete.convergeSeconds))],
    ...(Object.keys(losses) as (keyof Losses)[]).map((key) => [LOSS_NAMES[key], String(losses[key])]),
    ...interruptedRows(rounds),
    ['controllers that exited unkilled', String(rounds.reduce((sum, r) => sum + r.unexpectedExits.length, 0))],
    ['EC2 errors (all rounds)', formatErrors(rounds)],
  ]);
}

/** By fault kind: the provider calls its kills cut short (run again after a timeout), and the workflow tasks that timed out. */
function interruptedRows(rounds: readonly RoundResult[]): string[][] {
  const byFault = new Map<string, Interruptions>();
  for (const r of rounds) byFault.set(r.fault, addInterruptions(byFault.get(r.fault) ?? noInterruptions(), r.interrupted));
  return [...byFault].map(([fault, i]) => {
    const calls = Object.entries(i.retriedAfterTimeout).sort((a, b) => b[1] - a[1]);
    return [
      `interrupted by ${fault} kills`,
      `${calls.length === 0 ? 'no provider call' : calls.map(([type, n]) => `${type} ${n}`).join(', ')}; ${i.workflowTasksTimedOut} workflow tasks timed out`,
    ];
  });
}

function formatErrors(rounds: readonly RoundResult[]): string {
  const errors: Record<string, number> = {};
  for (const r of rounds) for (const [key, n] of Object.entries(r.ec2Calls.errorsByAction)) errors[key] = (errors[key] ?? 0) + n;
  const entries = Object.entries(errors).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? 'none' : entries.map(([key, n]) => `${key} ${n}`).join(', ');
}

/**
 * Past this, a phase's convergence after its last kill is named below the tables with the objects
 * it waited for last: no loss, but longer than a restart and a retry take, so something waited
 * for a timer rather than being woken.
 */
const SLOW_CONVERGE_SECONDS = 30;

/** Every loss, every unkilled exit and every slow convergence, one line each, naming the round, the object and why. */
export function findingLines(rounds: readonly RoundResult[]): string[] {
  const lines: string[] = [];
  for (const r of rounds) {
    const at = `round ${r.index} (${r.fault}, namespace ${r.namespace})`;
    const object = (what: string, f: ObjectFinding) =>
      `${at}: ${what} ${f.object}: ${f.conditions}; workflow ${f.workflowId}: ${f.workflow}`;
    lines.push(...r.notReady.map((f) => object('not ready', f)));
    lines.push(...r.external.duplicates.map((d) => `${at}: duplicate: ${d.object} has ${d.found.length} at EC2: ${d.found.join(', ')}`));
    lines.push(...r.external.strays.map((s) => `${at}: duplicate: ${s.kind} ${s.id} at EC2 belongs to no object`));
    lines.push(
      ...r.external.missing.map((m) =>
        m.unresolved
          ? `${at}: missing: ${m.object} is Ready but its spec.forProvider names no table, subnet or group to look in`
          : `${at}: missing: ${m.object} is Ready but EC2 holds nothing for it`,
      ),
    );
    lines.push(...r.stuck.map((f) => object('stuck', f)));
    lines.push(...Object.entries(r.leaks).map(([kind, ids]) => `${at}: leak: ${kind} ${ids.join(', ')} still at EC2 after the delete`));
    if (r.ec2Calls.dependencyViolations > 0) {
      const calls = Object.entries(r.ec2Calls.errorsByAction).filter(([key]) => key.endsWith(': DependencyViolation'));
      lines.push(`${at}: DependencyViolation ${r.ec2Calls.dependencyViolations}: ${calls.map(([key, n]) => `${key} ${n}`).join(', ')}`);
    }
    for (const [phase, outcome, goal] of [
      ['apply', r.apply, 'Ready'],
      ['delete', r.delete, 'gone'],
    ] as const) {
      if (outcome.convergeSeconds !== undefined && outcome.convergeSeconds > SLOW_CONVERGE_SECONDS) {
        lines.push(
          `${at}: slow: all ${goal} ${outcome.convergeSeconds.toFixed(1)} s after the ${phase}'s last kill; the last to get there: ${r.lastToConverge[phase].join(', ')}`,
        );
      }
    }
    lines.push(
      ...r.unexpectedExits.map(
        (e) => `${at}: the ${e.controller} exited without being killed, ${e.atSecond.toFixed(1)} s into the round (see ${e.logFile})`,
      ),
    );
  }
  return lines;
}

/** "" when nothing was lost, else the losses that make the run fail, named. */
export function verdict(rounds: readonly RoundResult[]): string {
  const losses = totalLosses(rounds);
  const lost = (Object.keys(losses) as (keyof Losses)[]).filter((key) => losses[key] > 0);
  return lost.map((key) => `${losses[key]} ${LOSS_NAMES[key]}`).join(', ');
}
