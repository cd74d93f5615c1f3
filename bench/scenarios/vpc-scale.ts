// Scale: N VPCs (default 1,000) on one fresh stack, measured against the floor, then left alone.
//
//   1. the limit: the minimal work any controller must do for N VPCs, done directly by
//      bench/limits/minimal-vpc-controller.ts in a namespace our watcher does not watch;
//      then its delete to empty;
//   2. ours: the same N VPCs created 32 at a time through the API, as the limit creates its
//      own (or with one `kubectl apply`, --kubectl), until all are Ready; the ratio to the limit;
//   3. settled: after a pause, an idle window at the kinds' default poll intervals: CPU of
//      every process, EC2 calls, history written per pass, memory;
//   4. drift: 1% of the VPCs lose their tag out of band; how long until EC2 has it back;
//   5. the delete of all of them (32 at a time, or `kubectl delete --all`) until none is left,
//      next to the limit's delete.
//
// The worker runs at the default poll interval throughout: a short poll would make the idle
// window measure polling that no user runs.
import { setTimeout as sleep } from 'node:timers/promises';
import { EXTERNAL_NAME } from '#core/annotations';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { kindFor } from '#providers/registry';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { reconcileNowUpdate } from '#contract/reconcile-workflow';
import { MOTO_PLAIN_LOOKUPS_ENV } from '#stack/moto';
import { applyBenchVpcs, benchVpcName, deleteBenchVpcs, type UserPart } from '../bench-vpcs';
import { startBenchStack, TEMPORAL_LABELS, type BenchStack, type BenchTemporal } from '../chronoplane-stack';
import { measureDriftCorrection } from '../drift';
import { ec2Inventory, inventoryAdded } from '../ec2-inventory';
import { historyCost, perPassBetween, perWorkflow } from '../history-cost';
import { LIMIT_ACCESS_KEY_ID, minimalVpcApply, minimalVpcDelete, type LimitTarget } from '../limits/minimal-vpc-controller';
import { percentile, RssSampler, summarizeEagerStarts, summarizeLatency } from '../measure';
import { instrumentMoto, phaseBetween, readProbe, type ProbeTarget } from '../phase-probe';
import { processesUnder } from '../process-cpu';
import { loadAverage, machine, writeResult } from '../results';
import { keyOfObject, watchObjects, type WatchedObjects } from '../watch-objects';
import { latenciesBetween, readWorkerLatencies } from '../worker-latencies';
import { warmUp } from '../warm-up';
import { printVpcScaleTable, type VpcScaleResult } from './vpc-scale-table';

interface VpcScaleOptions {
  count: number;
  /** Seconds of the idle measurement (CPU, EC2 calls, history per pass). */
  idleWindowSeconds: number;
  /** Seconds to wait after all Ready before the idle window opens. */
  settleSeconds: number;
  /** Seconds to wait for all Ready (and for all gone); past it, the figures so far are reported. */
  timeoutSeconds: number;
  /** false skips the limit, e.g. when moto is too slow to finish its deletes. */
  limit: boolean;
  keep: boolean;
  /** The watcher inside the worker process rather than beside it. */
  embeddedWatcher: boolean;
  /** The Temporal the controllers run on. */
  temporal: BenchTemporal;
  /** How the VPCs are created and deleted (bench-vpcs.ts); `api` as the limit does. */
  userPart: UserPart;
}

const namespace = 'bench';
const limitNamespace = 'bench-limit';
/** The key stack/cluster-bootstrap.ts gives the default ClusterProviderConfig: our control plane's calls. */
const OUR_ACCESS_KEY_ID = 'testing';
const HISTORY_SAMPLE = 20;
const DRIFT_SHARE = 0.01;

export async function runVpcScale(options: VpcScaleOptions): Promise<VpcScaleResult> {
  instrumentMoto();
  const bench = await startBenchStack({
    watchNamespace: namespace,
    keep: options.keep,
    embeddedWatcher: options.embeddedWatcher,
    temporal: options.temporal,
  });
  const rss = new RssSampler<'worker' | 'watcher'>(bench.pids);
  try {
    const result = await measureScale(bench, rss, options);
    printVpcScaleTable(result);
    console.log(`\nwrote ${await writeResult(`vpc-scale-${options.count}`, result)}`);
    return result;
  } finally {
    rss.stop();
    await bench.stop();
  }
}

async function measureScale(bench: BenchStack, rss: RssSampler<'worker' | 'watcher'>, options: VpcScaleOptions): Promise<VpcScaleResult> {
  const { count } = options;
  const { ec2Endpoint, kubeconfigPath } = bench.servers;
  const timeoutMs = options.timeoutSeconds * 1000;
  const pollSeconds = kindFor(vpcApi.group, vpcApi.kind).poll.steadySeconds;
  const processes = await processesUnder(bench.dir);
  const limitProbe: ProbeTarget = { ec2Endpoint, accessKeyId: LIMIT_ACCESS_KEY_ID, processes };
  const ours: ProbeTarget = { ...limitProbe, accessKeyId: OUR_ACCESS_KEY_ID, temporalDatabase: bench.temporalDatabase };
  const result: VpcScaleResult = {
    date: new Date().toISOString(),
    count,
    userPart: options.userPart,
    temporal: TEMPORAL_LABELS[options.temporal],
    machine: await machine(),
    loadAverage: { atStart: loadAverage() },
    motoLookups: process.env[MOTO_PLAIN_LOOKUPS_ENV] === '1' ? 'as moto ships them' : 'shortcuts (stack/moto_lookup_shortcuts.py)',
    pollSteadySeconds: pollSeconds,
  };

  // 1. The limit, while our controllers have nothing to do.
  if (options.limit)
    result.limit = await measureLimit({ kubeconfigPath, ec2Endpoint, namespace: limitNamespace }, bench, limitProbe, count);

  // 2. Ours.
  await bench.kubectl(['create', 'namespace', namespace]);
  await warmUp(bench, namespace);
  const inventoryBefore = await ec2Inventory(ec2Endpoint);
  const vpcs = await watchObjects(kubeconfigPath, [vpcApi], { namespace });
  try {
    rss.start();
    const [beforeApply, workerBefore] = await Promise.all([readProbe(ours), readWorkerLatencies(bench.workerMetricsPort)]);
    const user = { kubectl: bench.kubectl, kubeconfigPath };
    const { appliedAt, userSeconds, completed } = await applyBenchVpcs(user, vpcs, { namespace, count, timeoutMs, via: options.userPart });
    const [afterApply, workerAfter] = await Promise.all([readProbe(ours), readWorkerLatencies(bench.workerMetricsPort)]);
    const readyAfter = [...vpcs.readyAt.values()].map((at) => (at - appliedAt) / 1000);
    result.apply = {
      userSeconds,
      allReadySeconds: completed ? Math.max(...readyAfter) : undefined,
      ready: vpcs.readyAt.size,
      p50Seconds: percentile(readyAfter, 0.5),
      p95Seconds: percentile(readyAfter, 0.95),
      phase: phaseBetween(ours, beforeApply, afterApply),
      workerSteps: latenciesBetween(workerBefore, workerAfter),
    };
    const watcherMetrics = await (await fetch(`http://127.0.0.1:${bench.watcherMetricsPort}/metrics`)).text();
    result.watchEventToSignalMs = summarizeLatency(watcherMetrics);
    result.eagerStarts = summarizeEagerStarts(watcherMetrics);
    result.loadAverage.afterApply = loadAverage();

    if (completed) await measureSettled(bench, rss, vpcs, ours, options, pollSeconds, result);
    else
      console.log(`\nonly ${vpcs.readyAt.size} of ${count} VPCs were Ready after ${options.timeoutSeconds} s: skipping the settled phases`);

    // 5. Delete to empty.
    const [beforeDelete, workerBeforeDelete] = await Promise.all([readProbe(ours), readWorkerLatencies(bench.workerMetricsPort)]);
    const deleteStart = Date.now();
    const allGone = vpcs.waitFor(() => vpcs.current.size === 0, timeoutMs);
    allGone.catch(() => {}); // awaited below, unless the delete fails first
    const deleteUserSeconds = await deleteBenchVpcs(user, { namespace, count, via: options.userPart });
    const gone = await allGone.then(
      () => true,
      () => false,
    );
    result.delete = {
      userSeconds: deleteUserSeconds,
      toEmptySeconds: gone ? (Date.now() - deleteStart) / 1000 : undefined,
      left: vpcs.current.size,
      phase: phaseBetween(ours, beforeDelete, await readProbe(ours)),
      workerSteps: latenciesBetween(workerBeforeDelete, await readWorkerLatencies(bench.workerMetricsPort)),
    };
    result.leftAtEc2 = gone ? inventoryAdded(inventoryBefore, await ec2Inventory(ec2Endpoint)) : undefined;
    rss.stop();
    const { worker, watcher } = rss.summary();
    result.rssPeakMiB = { worker: worker?.peak ?? NaN, watcher: watcher?.peak };
    result.loadAverage.atEnd = loadAverage();
    return result;
  } finally {
    await vpcs.stop();
  }
}

async function measureLimit(target: LimitTarget, bench: BenchStack, probe: ProbeTarget, count: number): Promise<VpcScaleResult['limit']> {
  await bench.kubectl(['create', 'namespace', target.namespace]);
  let reading = await readProbe(probe);
  const apply = await minimalVpcApply(target, count);
  const applyPhase = phaseBetween(probe, reading, (reading = await readProbe(probe)));
  const deleted = await minimalVpcDelete(target, apply.vpcs);
  return {
    applySeconds: apply.seconds,
    applyP50Seconds: percentile(apply.doneAfterSeconds, 0.5),
    deleteSeconds: deleted.seconds,
    phases: { apply: applyPhase, delete: phaseBetween(probe, reading, await readProbe(probe)) },
  };
}

/** Phases 3 and 4: the idle window, then drift. */
async function measureSettled(
  bench: BenchStack,
  rss: RssSampler<'worker' | 'watcher'>,
  vpcs: WatchedObjects,
  ours: ProbeTarget,
  options: VpcScaleOptions,
  pollSeconds: number,
  result: VpcScaleResult,
): Promise<void> {
  const { count } = options;
  const step = Math.max(1, Math.floor(count / HISTORY_SAMPLE));
  const sample = Array.from({ length: Math.min(HISTORY_SAMPLE, count) }, (_, i) => refFor(vpcApi, namespace, benchVpcName(i * step)));
  await sleep(options.settleSeconds * 1000);
  const historyBefore = await historyCost(bench.temporal, sample);
  const beforeIdle = await readProbe(ours);
  await sleep(options.idleWindowSeconds * 1000);
  const idle = phaseBetween(ours, beforeIdle, await readProbe(ours));
  const historyAfter = await historyCost(bench.temporal, sample);
  const { worker, watcher } = rss.summary();
  // Settled workflows run no pass of their own; one pass each on request is what a sweep's
  // wake-up or the safety net costs a settled resource.
  await Promise.all(sample.map((ref) => bench.temporal.workflow.getHandle(workflowIdFor(ref)).executeUpdate(reconcileNowUpdate)));
  const historyForced = await historyCost(bench.temporal, sample);
  result.idle = {
    ...idle,
    cpuPercentOfACorePer1000: Object.fromEntries(
      Object.entries(idle.cpuSeconds).map(([name, seconds]) => [name, ((seconds / idle.seconds) * 100 * 1000) / count]),
    ),
    ec2CallsPerResourcePerHour: ((idle.ec2Calls.total / count) * 3600) / idle.seconds,
  };
  result.history = {
    sampled: sample.length,
    perWorkflowUntilSettled: perWorkflow(historyBefore),
    passesInIdleWindow: historyAfter.passes - historyBefore.passes,
    perSettledPass: perPassBetween(historyAfter, historyForced),
  };
  result.rssSettledMiB = { worker: worker?.last ?? NaN, watcher: watcher?.last };
  result.loadAverage.afterIdle = loadAverage();

  const drifted = Array.from({ length: Math.max(1, Math.round(count * DRIFT_SHARE)) }, (_, i) => i * Math.floor(1 / DRIFT_SHARE))
    .filter((index) => index < count)
    .map((index) => vpcs.current.get(keyOfObject(vpcApi.kind, benchVpcName(index)))?.metadata?.annotations?.[EXTERNAL_NAME])
    .filter((id): id is string => id !== undefined);
  const drift = await measureDriftCorrection(bench.servers.ec2Endpoint, drifted, (3 * pollSeconds + 60) * 1000);
  result.drift = {
    changed: drift.changed,
    p50Seconds: percentile(drift.correctedAfterSeconds, 0.5),
    maxSeconds: Math.max(...drift.correctedAfterSeconds),
    uncorrected: drift.uncorrected.length,
  };
}
