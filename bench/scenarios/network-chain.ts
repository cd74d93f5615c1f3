// The dependency chain: examples/aws-network/ (18 managed resources and a Secret) applied
// verbatim with `kubectl apply -f` into a fresh namespace, then deleted with `kubectl delete -f`.
//
// What our ordering costs is the gap between two figures: the time from apply to all Ready,
// and its limit, the sum of the create latencies along the heaviest dependency chain (no control
// plane can beat it, since each object there needs its predecessor Ready before it can be
// created). Per dependency edge, the wake-up gap says where that time goes: from the target
// seen Ready to the dependent's create being scheduled. Then each phase's EC2 calls, the
// DependencyViolations (goal 0), and whether moto itself, with its one journal lock, is the
// bottleneck rather than us. Last, the same files applied one at a time, each once the ones
// before it are Ready (bench/one-at-a-time.ts): the chain brought up step by step, kubectl and
// all, against which applying everything at once shows what its ordering and its contention
// for the machine cost a user.
import { join } from 'node:path';
import { repoRoot } from '../../stack/paths';
import { startBenchStack, type BenchStack } from '../chronoplane-stack';
import { ec2Inventory, formatLeftovers, inventoryAdded } from '../ec2-inventory';
import { formatCounts, formatSeconds, percentile, table } from '../measure';
import { chainTiming, type ChainTiming, type EdgeFigures } from '../chain-timing';
import { readNetworkGraph } from '../network-graph';
import { instrumentMoto, phaseBetween, phaseRows, readProbe, type PhaseFigures, type ProbeTarget } from '../phase-probe';
import { processesUnder } from '../process-cpu';
import { formatLatencies, latenciesBetween, readWorkerLatencies } from '../worker-latencies';
import { applyOneAtATime, type OneAtATime } from '../one-at-a-time';
import { machine, writeResult } from '../results';
import { watchObjects } from '../watch-objects';
import { warmUp } from '../warm-up';
import { reconcileTimeline, type ReconcileTimeline } from '../workflow-timeline';

export const NETWORK_DIR = join(repoRoot, 'examples', 'aws-network');
const namespace = 'bench-network';
/** The files name no providerConfigRef, so ClusterProviderConfig default signs; stack/cluster-bootstrap.ts gives it this key. */
const DEFAULT_PROVIDER_CONFIG_ACCESS_KEY_ID = 'testing';
/** Like the VPC scenario and the peer's --poll, so that polls would show if wake-ups failed. */
const steadyPollSeconds = 10;
/** The goal for each wake-up gap. */
const WAKE_UP_GOAL_SECONDS = 1;
const TIMEOUT_MS = 300_000;

export interface NetworkChainResult extends ChainTiming {
  date: string;
  resources: number;
  applyCommandSeconds: number;
  applyToAllReadySeconds: number;
  /** Seconds from the apply until each object was first seen Ready, by Kind/name. */
  readyAfterSeconds: Record<string, number>;
  deleteToGoneSeconds: number;
  /** Seconds from the delete until each object was gone from the API server, by Kind/name. */
  goneAfterSeconds: Record<string, number>;
  /** Ids present after the delete that were not there before the apply; {} means nothing leaked. */
  leftAtEc2: Record<string, string[]>;
  phases: { apply: PhaseFigures; delete: PhaseFigures };
  /** Count and mean duration of each workflow step (local activities, activities, workflow tasks) while applying. */
  workerStepsDuringApply: Record<string, { count: number; meanMs: number }>;
  /** The same files applied one at a time in dependency order, each once the ones before are Ready. */
  oneAtATime: OneAtATime;
}

export async function runNetworkChain(options: { keep: boolean; embeddedWatcher?: boolean }): Promise<NetworkChainResult> {
  instrumentMoto();
  const bench = await startBenchStack({ steadyPollSeconds, keep: options.keep, embeddedWatcher: options.embeddedWatcher });
  try {
    return await measureNetwork(bench);
  } finally {
    await bench.stop();
  }
}

async function measureNetwork(bench: BenchStack): Promise<NetworkChainResult> {
  const { ec2Endpoint, kubeconfigPath } = bench.servers;
  await bench.kubectl(['create', 'namespace', 'bench-warm-up']);
  await warmUp(bench, 'bench-warm-up');
  await bench.kubectl(['create', 'namespace', namespace]);
  const graph = await readNetworkGraph(NETWORK_DIR, namespace);
  const keys = graph.objects.map((o) => o.key);
  const apis = [...new Map(graph.objects.map((o) => [o.api.kind, o.api])).values()];
  const probe: ProbeTarget = {
    ec2Endpoint,
    accessKeyId: DEFAULT_PROVIDER_CONFIG_ACCESS_KEY_ID,
    processes: await processesUnder(bench.dir),
  };
  const inventoryBefore = await ec2Inventory(ec2Endpoint);
  const objects = await watchObjects(kubeconfigPath, apis, { namespace });
  try {
    const [beforeApply, workerBeforeApply] = await Promise.all([readProbe(probe), readWorkerLatencies(bench.workerMetricsPort)]);
    const allReady = objects.waitFor(() => keys.every((key) => objects.readyAt.has(key)), TIMEOUT_MS);
    allReady.catch(() => {}); // awaited below, unless the apply fails first
    const appliedAt = Date.now();
    await bench.kubectl(['apply', '-n', namespace, '-f', NETWORK_DIR]);
    const applyReturnedAt = Date.now();
    await allReady.catch((error: Error) => {
      throw new Error(`${error.message}: not all Ready. ${objects.describe()}`);
    });
    const allReadyAt = Date.now();
    const [afterApply, workerAfterApply] = await Promise.all([readProbe(probe), readWorkerLatencies(bench.workerMetricsPort)]);
    const seen = { seenAt: new Map(objects.seenAt), readyAt: new Map(objects.readyAt) };

    const timelines = new Map<string, ReconcileTimeline>();
    for (const { key, api, name } of graph.objects) timelines.set(key, await reconcileTimeline(bench.temporal, api, namespace, name));

    const beforeDelete = await readProbe(probe);
    const allGone = objects.waitFor(() => !keys.some((key) => objects.current.has(key)), TIMEOUT_MS);
    allGone.catch(() => {}); // awaited below, unless the delete fails first
    const deleteStart = Date.now();
    await bench.kubectl(['delete', '-n', namespace, '-f', NETWORK_DIR, '--wait=false']);
    await allGone.catch((error: Error) => {
      throw new Error(`${error.message}: not all gone. ${objects.describe()}`);
    });
    const allGoneAt = Date.now();
    const afterDelete = await readProbe(probe);
    const oneAtATime = await applyOneAtATime(bench, graph, NETWORK_DIR, `${namespace}-one-at-a-time`, TIMEOUT_MS);

    const result: NetworkChainResult = {
      date: new Date().toISOString(),
      resources: keys.length,
      applyCommandSeconds: (applyReturnedAt - appliedAt) / 1000,
      applyToAllReadySeconds: (allReadyAt - appliedAt) / 1000,
      readyAfterSeconds: secondsAfter(appliedAt, seen.readyAt),
      ...chainTiming(graph, appliedAt, seen, timelines),
      deleteToGoneSeconds: (allGoneAt - deleteStart) / 1000,
      goneAfterSeconds: secondsAfter(deleteStart, objects.goneAt),
      leftAtEc2: inventoryAdded(inventoryBefore, await ec2Inventory(ec2Endpoint)),
      phases: { apply: phaseBetween(probe, beforeApply, afterApply), delete: phaseBetween(probe, beforeDelete, afterDelete) },
      workerStepsDuringApply: latenciesBetween(workerBeforeApply, workerAfterApply),
      oneAtATime,
    };
    printNetworkTable(result);
    console.log(`\nwrote ${await writeResult('network-chain', { ...result, machine: await machine() })}`);
    return result;
  } finally {
    await objects.stop();
  }
}

function printNetworkTable(result: NetworkChainResult): void {
  const lastEdges = result.edges.filter((e) => e.last).map((e) => e.gapSeconds);
  const allEdges = result.edges.map((e) => e.gapSeconds);
  const slow = result.edges.filter((e) => e.last && e.gapSeconds > WAKE_UP_GOAL_SECONDS);
  const timeline = result.chainTimeline;
  const oneByOne = result.oneAtATime;
  console.log(`\n== examples/aws-network/: ${result.resources} resources, kubectl apply -f / delete -f ==`);
  console.log(
    table([
      ['kubectl apply returned after', formatSeconds(result.applyCommandSeconds)],
      ['apply to all Ready', formatSeconds(result.applyToAllReadySeconds)],
      [
        'limit: create latencies along the heaviest chain',
        `${formatSeconds(result.chainLimitSeconds)} (${result.chain.join(' → ')}; ${ratio(result.applyToAllReadySeconds, result.chainLimitSeconds)})`,
      ],
      [
        'the heaviest chain applied one file at a time, kubectl apply → Ready each',
        `${formatSeconds(oneByOne.chainSeconds)} (${oneByOne.chain.join(' → ')}; ${ratio(result.applyToAllReadySeconds, oneByOne.chainSeconds)})`,
      ],
      [
        '  each object alone, kubectl apply → Ready, p50 / max',
        `${quantiles(Object.values(oneByOne.applyToReadySeconds))}; all ${result.resources} one after another ${formatSeconds(oneByOne.totalSeconds)}`,
      ],
      [
        '  the chain: kubectl + first pass + create latencies + wake-up gaps',
        [timeline.toFirstObjectSeconds, timeline.firstPassSeconds, timeline.createLatenciesSeconds, timeline.wakeUpGapsSeconds]
          .map(formatSeconds)
          .join(' + ') + ` = ${formatSeconds(timeline.totalSeconds)} after the apply`,
      ],
      ['create latency (createExternal scheduled → Ready) p50 / max', quantiles(Object.values(result.createLatencySeconds))],
      [
        'wake-up gap, last dependency → create scheduled, p50 / max',
        `${quantiles(lastEdges)} over ${lastEdges.length} edges; ${slow.length === 0 ? 'none' : slow.length} over ${WAKE_UP_GOAL_SECONDS} s`,
      ],
      [
        'wake-up gap, every edge, p50 / max',
        `${quantiles(allEdges)} over ${allEdges.length} edges (an earlier dependency's includes the wait for a later one)`,
      ],
      ...result.edges.map((edge) => [`  ${edge.target} → ${edge.dependent}`, describeEdge(edge)]),
      ...(Object.keys(result.repeatedCreates).length > 0
        ? [['createExternal scheduled more than once', JSON.stringify(result.repeatedCreates)]]
        : []),
      ['apply phase', ''],
      ['  worker steps (count × mean)', formatLatencies(result.workerStepsDuringApply)],
      ...phaseRows(result.phases.apply),
      ['delete to all gone', formatSeconds(result.deleteToGoneSeconds)],
      ['  gone after, in order', formatCounts(result.goneAfterSeconds, ' s', 'ascending')],
      ...phaseRows(result.phases.delete),
      ['left at the EC2 endpoint', formatLeftovers(result.leftAtEc2)],
    ]),
  );
}

function describeEdge(edge: EdgeFigures): string {
  const over = edge.last && edge.gapSeconds > WAKE_UP_GOAL_SECONDS ? `  OVER ${WAKE_UP_GOAL_SECONDS} s` : '';
  const pass = edge.creatingPass;
  return [
    `${formatSeconds(edge.gapSeconds)}${over}`,
    edge.last ? undefined : 'not its last dependency: includes the wait for the other',
    pass &&
      `creating pass started by ${pass.startedBy} at ${formatSigned(pass.startedAfterSeconds)}, create scheduled ${formatSeconds(pass.secondsToCreate)} later`,
  ]
    .filter(Boolean)
    .join('; ');
}

/** Seconds from `start` to each time, by key, rounded to milliseconds. */
const secondsAfter = (start: number, times: ReadonlyMap<string, number>) =>
  Object.fromEntries([...times].map(([key, at]) => [key, Math.round(at - start) / 1000]));

/** Apply to all Ready against a chain's time: what applying everything at once costs beyond it. */
const ratio = (total: number, chain: number) => `all at once is ${(total / chain).toFixed(2)}× of it, goal ≤ 1.2×`;
const quantiles = (values: number[]) => `${formatSeconds(percentile(values, 0.5))} / ${formatSeconds(Math.max(...values))}`;
const formatSigned = (seconds: number) => `${seconds >= 0 ? '+' : ''}${seconds.toFixed(2)} s`;
