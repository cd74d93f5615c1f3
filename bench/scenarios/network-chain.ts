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
//
// With realistic latencies (--realistic-latency), the control plane calls EC2 through
// bench/ec2-latency-proxy.ts: each call takes a realistic while and a NAT gateway stays pending
// for a minute. The limit is then the sum of the modeled latencies along the heaviest chain
// (bench/ec2-latencies.ts), which only waking each dependent the moment its targets are Ready
// can approach.
import { join } from 'node:path';
import { applyDefaultProviderConfig } from '#stack/cluster-bootstrap';
import { repoRoot } from '#stack/paths';
import { startBenchStack, type BenchStack } from '../chronoplane-stack';
import { ec2Inventory, formatLeftovers, inventoryAdded } from '../ec2-inventory';
import { formatCounts, formatSeconds, percentile, table } from '../measure';
import { chainTiming, type ChainTiming, type EdgeFigures } from '../chain-timing';
import { modeledChainLimit, REALISTIC_EC2_LATENCIES, type Ec2Latencies, type ModeledChain } from '../ec2-latencies';
import { startEc2LatencyProxy, type Ec2LatencyProxy } from '../ec2-latency-proxy';
import { readNetworkGraph, type NetworkGraph } from '../network-graph';
import { instrumentMoto, phaseBetween, phaseRows, readProbe, type PhaseFigures, type ProbeTarget } from '../phase-probe';
import { processesUnder } from '../process-cpu';
import { formatLatencies, latenciesBetween, readWorkerLatencies } from '../worker-latencies';
import { applyOneAtATime, type OneAtATime } from '../one-at-a-time';
import { machine, writeResult } from '../results';
import { watchObjects } from '../watch-objects';
import { warmUp } from '../warm-up';
import { reconcileTimeline, type ReconcileTimeline } from '../workflow-timeline';

const NETWORK_DIR = join(repoRoot, 'examples', 'aws-network');
const namespace = 'bench-network';
/** The files name no providerConfigRef, so ClusterProviderConfig default signs; stack/cluster-bootstrap.ts gives it this key. */
const DEFAULT_PROVIDER_CONFIG_ACCESS_KEY_ID = 'testing';
/** Like the VPC scenario and the peer's --poll, so that polls would show if wake-ups failed. */
const steadyPollSeconds = 10;
/** The goal for each wake-up gap. */
const WAKE_UP_GOAL_SECONDS = 1;
/** The goal for apply to all Ready against the heaviest chain's modeled latencies. */
const REALISTIC_GOAL_RATIO = 1.1;
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
  /** With --realistic-latency: the modeled limit, and apply to all Ready against it. */
  realisticLatency?: RealisticLatencyFigures;
}

export interface RealisticLatencyFigures extends ModeledChain {
  latencies: Ec2Latencies;
  /** Apply to all Ready ÷ the modeled chain's seconds. */
  ratio: number;
  /** EC2 calls the control plane made through the proxy while applying. */
  callsThroughProxy: number;
}

interface NetworkChainOptions {
  keep: boolean;
  embeddedWatcher?: boolean;
  /** Call EC2 through the realistic-latency proxy (bench/ec2-latency-proxy.ts). */
  realisticLatency?: boolean;
}

export async function runNetworkChain(options: NetworkChainOptions): Promise<NetworkChainResult> {
  instrumentMoto();
  const bench = await startBenchStack({ steadyPollSeconds, keep: options.keep, embeddedWatcher: options.embeddedWatcher });
  let proxy: Ec2LatencyProxy | undefined;
  try {
    if (options.realisticLatency) {
      proxy = await startEc2LatencyProxy({ upstream: bench.servers.ec2Endpoint, latencies: REALISTIC_EC2_LATENCIES });
      // Before the warm-up, so that it warms the client the measured apply uses.
      await applyDefaultProviderConfig(bench.servers.kubeconfigPath, proxy.endpoint);
    }
    return await measureNetwork(bench, proxy);
  } finally {
    await proxy?.stop();
    await bench.stop();
  }
}

/** With `proxy`, the control plane calls EC2 through it; counts and inventory still come from moto itself. */
async function measureNetwork(bench: BenchStack, proxy?: Ec2LatencyProxy): Promise<NetworkChainResult> {
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
    const proxyCallsBefore = proxy?.calls() ?? 0;
    const appliedAt = Date.now();
    await bench.kubectl(['apply', '-n', namespace, '-f', NETWORK_DIR]);
    const applyReturnedAt = Date.now();
    await allReady.catch((error: Error) => {
      throw new Error(`${error.message}: not all Ready. ${objects.describe()}`);
    });
    const allReadyAt = Date.now();
    const proxyCallsWhileApplying = (proxy?.calls() ?? 0) - proxyCallsBefore;
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
      ...(proxy && { realisticLatency: realisticFigures(graph, (allReadyAt - appliedAt) / 1000, proxyCallsWhileApplying) }),
    };
    printNetworkTable(result);
    const name = proxy ? 'network-chain-realistic-latency' : 'network-chain';
    console.log(`\nwrote ${await writeResult(name, { ...result, machine: await machine() })}`);
    return result;
  } finally {
    await objects.stop();
  }
}

function realisticFigures(graph: NetworkGraph, applySeconds: number, callsThroughProxy: number): RealisticLatencyFigures {
  if (callsThroughProxy === 0)
    throw new Error('no EC2 call went through the latency proxy while applying: the control plane was not pointed at it');
  const modeled = modeledChainLimit(graph, REALISTIC_EC2_LATENCIES);
  return { ...modeled, latencies: REALISTIC_EC2_LATENCIES, ratio: applySeconds / modeled.seconds, callsThroughProxy };
}

/** The realistic mode's rows: the modeled limit, and each modeled latency along its chain against what was measured. */
function realisticRows(result: NetworkChainResult): string[][] {
  const realistic = result.realisticLatency;
  if (!realistic) return [];
  // In seconds too: at three decimals a ratio just over the goal would read as on it.
  const over = result.applyToAllReadySeconds - realistic.seconds;
  const allowed = realistic.seconds * (REALISTIC_GOAL_RATIO - 1);
  const verdict = realistic.ratio <= REALISTIC_GOAL_RATIO ? 'met' : 'NOT met';
  return [
    ['realistic EC2 latencies: their sum along the heaviest chain', `${formatSeconds(realistic.seconds)} (${realistic.chain.join(' → ')})`],
    [
      '  apply to all Ready against it',
      `${realistic.ratio.toFixed(3)}×, ${formatSeconds(over)} over it (goal ≤ ${REALISTIC_GOAL_RATIO}×, ${formatSeconds(allowed)} over: ${verdict})`,
    ],
    ...realistic.chain.map((key) => [
      `  ${key}: modeled / measured create latency`,
      `${formatSeconds(realistic.createSeconds[key] ?? NaN)} / ${formatSeconds(result.createLatencySeconds[key] ?? NaN)}`,
    ]),
    ['  EC2 calls through the latency proxy while applying', String(realistic.callsThroughProxy)],
  ];
}

function printNetworkTable(result: NetworkChainResult): void {
  const lastEdges = result.edges.filter((e) => e.last).map((e) => e.gapSeconds);
  const allEdges = result.edges.map((e) => e.gapSeconds);
  const slow = result.edges.filter((e) => e.last && e.gapSeconds > WAKE_UP_GOAL_SECONDS);
  const timeline = result.chainTimeline;
  const oneByOne = result.oneAtATime;
  const mode = result.realisticLatency ? ', realistic EC2 latencies' : '';
  console.log(`\n== examples/aws-network/: ${result.resources} resources, kubectl apply -f / delete -f${mode} ==`);
  console.log(
    table([
      ['kubectl apply returned after', formatSeconds(result.applyCommandSeconds)],
      ['apply to all Ready', formatSeconds(result.applyToAllReadySeconds)],
      ...realisticRows(result),
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
