// What one phase of a run (apply, delete) cost, measured at the EC2 endpoint and the processes:
// EC2 calls by action, how busy moto was, how long requests queued on moto's journal lock, and
// the CPU each process used. Read once before and once after the phase; the figures are the
// difference, so a probe can be shared by phases and by control planes signing with other keys.
import { MOTO_COUNT_REQUESTS_ENV, readEc2CallCounts, summarizeEc2Calls, type Ec2CallCount, type Ec2CallSummary } from './ec2-call-counter';
import { formatCounts } from './measure';
import { cpuBetween, cpuSecondsOf } from './process-cpu';
import { formatStatementTimes, statementTimes, statementTimesBetween, type StatementTimes } from './temporal-database';
import type { PostgresServer } from '#stack/postgres';

const LOCK_TIMES_PATH = '/chronoplane/lock-times';

/**
 * Makes every moto this process starts from now on count and time requests and its journal
 * lock (stack/moto_request_stats.py). startMoto hands moto this process's environment.
 */
export function instrumentMoto(): void {
  process.env[MOTO_COUNT_REQUESTS_ENV] = '1';
}

export interface ProbeTarget {
  ec2Endpoint: string;
  /** The control plane's EC2 calls are told apart by the access key they are signed with. */
  accessKeyId: string;
  /** Processes whose CPU time is measured, by name; `moto` is moto's. */
  processes: Record<string, number>;
  /** Temporal's PostgreSQL, when the run is on Temporal's own server: where its statement time went. */
  temporalDatabase?: PostgresServer;
}

/** Totals kept by stack/moto_request_stats.py since moto started. */
export interface MotoLockTimes {
  requests: number;
  acquisitions: number;
  waitSeconds: number;
  heldSeconds: number;
  journalWrites: number;
  journalSeconds: number;
  over10ms: number;
  over100ms: number;
  over1s: number;
}

interface ProbeReading {
  at: number;
  ec2Calls: Ec2CallCount[];
  cpuSeconds: Record<string, number>;
  lock: MotoLockTimes & { maxWaitSeconds: number };
  temporalDatabase?: StatementTimes;
}

export interface PhaseFigures {
  seconds: number;
  /** The control plane's own calls. */
  ec2Calls: Ec2CallSummary;
  /** Every client's requests, the benchmark's own reads included. */
  motoRequests: number;
  /** Seconds moto spent on every client's requests, by action. */
  motoSecondsByAction: Record<string, number>;
  cpuSeconds: Record<string, number>;
  /** moto's CPU seconds per wall-clock second of the phase (1 = one core all the time). */
  motoCpuShare: number;
  /** maxWaitSeconds is since moto started. */
  motoLock: MotoLockTimes & { maxWaitSeconds: number };
  /** On Temporal's own server only. */
  temporalDatabase?: StatementTimes;
}

export async function readProbe(target: ProbeTarget): Promise<ProbeReading> {
  const [ec2Calls, cpuSeconds, lock, temporalDatabase] = await Promise.all([
    readEc2CallCounts(target.ec2Endpoint),
    cpuSecondsOf(target.processes),
    readLockTimes(target.ec2Endpoint),
    target.temporalDatabase ? statementTimes(target.temporalDatabase) : undefined,
  ]);
  return { at: Date.now(), ec2Calls, cpuSeconds, lock, ...(temporalDatabase ? { temporalDatabase } : {}) };
}

export function phaseBetween(target: ProbeTarget, before: ProbeReading, after: ProbeReading): PhaseFigures {
  const seconds = (after.at - before.at) / 1000;
  const cpuSeconds = cpuBetween(before.cpuSeconds, after.cpuSeconds);
  const difference = (name: keyof MotoLockTimes) => round(after.lock[name] - before.lock[name]);
  const everyClient = summarizeEc2Calls(before.ec2Calls, after.ec2Calls);
  return {
    seconds,
    ec2Calls: summarizeEc2Calls(before.ec2Calls, after.ec2Calls, { accessKeyId: target.accessKeyId }),
    motoRequests: everyClient.total,
    motoSecondsByAction: everyClient.motoSecondsByAction,
    cpuSeconds,
    motoCpuShare: round((cpuSeconds.moto ?? NaN) / seconds),
    motoLock: {
      requests: difference('requests'),
      acquisitions: difference('acquisitions'),
      waitSeconds: difference('waitSeconds'),
      heldSeconds: difference('heldSeconds'),
      journalWrites: difference('journalWrites'),
      journalSeconds: difference('journalSeconds'),
      over10ms: difference('over10ms'),
      over100ms: difference('over100ms'),
      over1s: difference('over1s'),
      maxWaitSeconds: round(after.lock.maxWaitSeconds),
    },
    ...(before.temporalDatabase && after.temporalDatabase
      ? { temporalDatabase: statementTimesBetween(before.temporalDatabase, after.temporalDatabase) }
      : {}),
  };
}

/** Table rows for one phase (of `resources`, when the caller knows), indented under a heading row the caller writes. */
export function phaseRows(figures: PhaseFigures, resources?: number): string[][] {
  const { ec2Calls, motoLock } = figures;
  const rows = [
    ['  EC2 calls', `${ec2Calls.total}: ${formatCounts(ec2Calls.byAction)}`],
    ['  failed EC2 calls', formatCounts(ec2Calls.errorsByAction)],
    ['  DependencyViolation', String(ec2Calls.dependencyViolations)],
    [
      '  moto: requests, CPU',
      `${figures.motoRequests} requests, ${figures.cpuSeconds.moto?.toFixed(2)} s CPU over ${figures.seconds.toFixed(1)} s (${Math.round(figures.motoCpuShare * 100)}% of a core)`,
    ],
  ];
  rows.push(
    [
      '  moto lock: held, waited',
      `held ${motoLock.heldSeconds.toFixed(2)} s (journal fsync ${motoLock.journalSeconds.toFixed(2)} s), ` +
        `waited ${motoLock.waitSeconds.toFixed(2)} s in all over ${motoLock.acquisitions} requests; ` +
        `${motoLock.over1s} waits > 1 s, ${motoLock.over100ms} > 100 ms, ${motoLock.over10ms} > 10 ms`,
    ],
    ['  moto time by action (all clients)', formatCounts(figures.motoSecondsByAction, ' s')],
    ['  CPU by process', formatCounts(figures.cpuSeconds, ' s')],
  );
  if (figures.temporalDatabase) {
    rows.push(["  Temporal's PostgreSQL, statement time", formatStatementTimes(figures.temporalDatabase, resources)]);
  }
  return rows;
}

async function readLockTimes(ec2Endpoint: string): Promise<ProbeReading['lock']> {
  const response = await fetch(new URL(LOCK_TIMES_PATH, ec2Endpoint));
  if (!response.ok) throw new Error(`moto at ${ec2Endpoint} does not time its lock (GET ${LOCK_TIMES_PATH} answered ${response.status})`);
  return (await response.json()) as ProbeReading['lock'];
}

const round = (value: number) => Math.round(value * 1000) / 1000;
