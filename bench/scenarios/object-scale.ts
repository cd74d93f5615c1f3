// Objects at scale: N provider-kubernetes Objects (default 1,000), each wrapping a ConfigMap for
// a remote cluster, through Chronoplane's Object kind, through Crossplane's provider-kubernetes
// v1.2.1, and done by the minimal-work limit. Every row has a control cluster and a target
// cluster apart, and no two rows run at once (2 cores):
//
//   1. Chronoplane: a bench stack (bench/chronoplane-stack.ts) and a target cluster `remote-1`
//      registered as the stack's ProviderConfig of that name; one Object through and back to
//      warm the worker up, then the run below; then all of it is stopped;
//   2. the limit (bench/limits/minimal-object-controller.ts): a fresh control cluster with our
//      CRDs and no controller, against a fresh target, which it leaves empty;
//   3. provider-kubernetes (bench/peers/provider-kubernetes-objects.ts), against that target.
//
// The run of each controller row: 32 creates at a time through the API (kubectl apply of a List
// would create them one by one), a watch until all are Ready, a settle pause, an idle window (CPU
// of the controller's processes), then 32 deletes at a time until no Object is left in the
// control cluster and no ConfigMap in the target. RSS of the controller's processes is sampled
// throughout. Ready times are when the watch delivered the status, so they trail the write a
// little; the limit's times are its own requests', so it is not held back by any watch.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { objectApi } from '#providers/kubernetes/object/schema';
import { refFor } from '#core/managed-kind';
import { applyCrds } from '#stack/cluster-bootstrap';
import { startKubeCluster } from '#stack/kube';
import { applyRemoteProviderConfigs, registerRemoteClusters } from '#stack/remote-clusters';
import { startBenchStack, TEMPORAL_LABELS, type BenchStack, type BenchTemporal } from '../chronoplane-stack';
import { historyCost, perWorkflow } from '../history-cost';
import { statementTimes, statementTimesBetween, type StatementTimes } from '../temporal-database';
import {
  benchObject,
  benchObjectName,
  keepAliveKubeConfig,
  minimalObjectApply,
  minimalObjectDelete,
  OBJECT_CONCURRENCY,
  OBJECT_RUN_LABEL,
  rawConfigMapApplyAndDelete,
  TARGET_NAMESPACE,
  type ObjectLimitTarget,
} from '../limits/minimal-object-controller';
import { percentile, RssSampler, summarizeEagerStarts, summarizeLatency } from '../measure';
import { mapWithConcurrency } from '../parallel';
import { startProviderKubernetesObjects } from '../peers/provider-kubernetes-objects';
import { cpuBetween, cpuSecondsOf, processesUnder } from '../process-cpu';
import { readApiRequests, requestsBetween } from '../apiserver-requests';
import { loadAverage, machine, newRunLabel, writeResult } from '../results';
import { clusterPorts, prefixed, withTargetCluster, type TargetCluster } from '../target-cluster';
import { keyOfObject, watchObjects, type WatchedObjects } from '../watch-objects';
import { latenciesBetween, readWorkerLatencies } from '../worker-latencies';
import { printObjectScaleTable, type ApiRequests, type ObjectLimit, type ObjectRow, type ObjectScaleResult } from './object-scale-table';

interface ObjectScaleOptions {
  count: number;
  /** Seconds of the idle measurement (CPU of the controller's processes). */
  idleWindowSeconds: number;
  /** Seconds between all Ready and the idle window. */
  settleSeconds: number;
  /** Seconds to wait for all Ready, and for all gone; past it, the figures so far are reported. */
  timeoutSeconds: number;
  /** false skips the minimal-controller-work row. */
  limit: boolean;
  /** false skips provider-kubernetes' row. */
  peer: boolean;
  /** Leave the state directories (logs, kubeconfigs) behind. */
  keep: boolean;
  /** Run the watcher inside the worker (one process; our own writes are not signalled back). */
  embeddedWatcher?: boolean;
  /** The Temporal Chronoplane's row runs on. */
  temporal: BenchTemporal;
}

/** Where a row runs: Objects are created in the control cluster and land in the target. */
interface RowServers {
  controlKubeconfigPath: string;
  targetKubeconfigPath: string;
  providerConfig: string;
  /** The controller's processes (worker and watcher, or the provider): their RSS and idle CPU are the row's. */
  controller: Record<string, number>;
  /** Every process the row started, by name, for the CPU each phase cost each of them. */
  processes: Record<string, number>;
}

/** One batch of Objects under a run label of its own, and what watches and counts them. */
interface Round {
  servers: RowServers;
  run: string;
  /** Of the names: `obj`, or `warm-up` for the warm-up's. */
  prefix: string;
  names: string[];
  objects: WatchedObjects;
  custom: CustomObjectsApi;
  configMaps: CoreV1Api;
  rss: RssSampler<string>;
  close(): Promise<void>;
}

/** What a row does between its phases; Chronoplane's reads its worker's and Temporal's figures. */
interface RowHooks {
  afterApply?(): Promise<void>;
  beforeDelete?(): Promise<void>;
}

const objectAt = { group: objectApi.group, version: objectApi.version, plural: objectApi.plural };
const TARGET_NAME = 'remote-1';
const HISTORY_SAMPLE = 20;
/** How often the target is asked whether any of the run's ConfigMaps is left. */
const CONFIG_MAP_POLL_MS = 250;

export async function runObjectScale(options: ObjectScaleOptions): Promise<ObjectScaleResult> {
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-bench-object-'));
  const result: ObjectScaleResult = {
    date: new Date().toISOString(),
    count: options.count,
    concurrency: OBJECT_CONCURRENCY,
    embeddedWatcher: options.embeddedWatcher === true,
    temporal: TEMPORAL_LABELS[options.temporal],
    machine: await machine(),
    loadAverage: { atStart: loadAverage() },
    errors: {},
  };
  const row = async <T>(name: string, measure: () => Promise<T>): Promise<T | undefined> =>
    measure().catch((error: unknown) => {
      result.errors[name] = error instanceof Error ? error.message : String(error);
      return undefined;
    });
  try {
    result.chronoplane = await row('Chronoplane', () => chronoplaneRow(join(dir, TARGET_NAME), options));
    if (options.limit || options.peer) {
      await withTargetCluster(join(dir, 'target'), 'target', async (target) => {
        if (options.limit) result.limit = await row('limit', () => limitRow(join(dir, 'limit-control'), target, options));
        if (options.peer) result.peer = await row('provider-kubernetes', () => peerRow(join(dir, 'provider-kubernetes'), target, options));
      });
    }
    result.loadAverage.atEnd = loadAverage();
    printObjectScaleTable(result);
    console.log(`\nwrote ${await writeResult(`object-scale-${options.count}`, result)}`);
    if (options.keep) console.log(`kept ${dir} (targets, the limit's control cluster, provider-kubernetes and its log)`);
    return result;
  } finally {
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}

async function chronoplaneRow(targetDir: string, options: ObjectScaleOptions): Promise<ObjectRow> {
  // The target first and stopped last: a worker outliving it would only log failed watches.
  return withTargetCluster(targetDir, TARGET_NAME, async (target) => {
    const bench = await startBenchStack({ keep: options.keep, embeddedWatcher: options.embeddedWatcher, temporal: options.temporal });
    if (options.keep) console.log(`Chronoplane's stack: ${bench.dir} (worker and watcher logs under logs/)`);
    try {
      const control = bench.servers.kubeconfigPath;
      // As the test stack does for its remote clusters: a Secret with the kubeconfig, and a ProviderConfig named after it.
      await registerRemoteClusters(control, [target]);
      await applyRemoteProviderConfigs(control, [target]);
      const servers: RowServers = {
        controlKubeconfigPath: control,
        targetKubeconfigPath: target.kubeconfigPath,
        providerConfig: target.name,
        controller: bench.pids,
        processes: { ...(await processesUnder(bench.dir)), ...prefixed('target', await processesUnder(targetDir)) },
      };
      await warmUp(servers, options);
      return await measureChronoplane(bench, servers, options);
    } finally {
      await bench.stop();
    }
  });
}

/**
 * One Object through and back before measuring: the first one loads the Object client and opens
 * the target cluster's shared watch, seconds that no running control plane pays again. The peer
 * is warmed up the same way (startProviderKubernetes waits for a probe Object).
 */
async function warmUp(servers: RowServers, options: ObjectScaleOptions): Promise<void> {
  const round = await openRound(servers, 1, 'warm-up');
  try {
    const apply = await applyPhase(round, options.timeoutSeconds * 1000);
    if (apply.allReadySeconds === undefined) throw new Error(`the warm-up Object did not turn Ready: ${round.objects.describe()}`);
    const gone = await deletePhase(round, options.timeoutSeconds * 1000);
    if (gone.toGoneSeconds === undefined) throw new Error(`the warm-up Object was not deleted: ${round.objects.describe()}`);
  } finally {
    await round.close();
  }
}

async function measureChronoplane(bench: BenchStack, servers: RowServers, options: ObjectScaleOptions): Promise<ObjectRow> {
  const workerBefore = await readWorkerLatencies(bench.workerMetricsPort);
  const database = bench.temporalDatabase;
  const readDatabase = () => (database ? statementTimes(database) : Promise.resolve(undefined));
  const databaseBefore = await readDatabase();
  let workerSteps: ObjectRow['workerSteps'];
  let workerBeforeDelete: Awaited<ReturnType<typeof readWorkerLatencies>> | undefined;
  let databaseAfterApply: StatementTimes | undefined;
  let databaseBeforeDelete: StatementTimes | undefined;
  let history: ObjectRow['history'];
  const row = await measureRow('Chronoplane', servers, options, {
    async afterApply() {
      workerSteps = latenciesBetween(workerBefore, await readWorkerLatencies(bench.workerMetricsPort));
      databaseAfterApply = await readDatabase();
    },
    async beforeDelete() {
      history = await objectHistory(bench, options.count);
      workerBeforeDelete = await readWorkerLatencies(bench.workerMetricsPort);
      databaseBeforeDelete = await readDatabase();
    },
  });
  const workerStepsInDelete =
    workerBeforeDelete && latenciesBetween(workerBeforeDelete, await readWorkerLatencies(bench.workerMetricsPort));
  const databaseAfterDelete = await readDatabase();
  const temporalDatabase =
    databaseBefore && databaseAfterApply && databaseBeforeDelete && databaseAfterDelete
      ? {
          apply: statementTimesBetween(databaseBefore, databaseAfterApply),
          delete: statementTimesBetween(databaseBeforeDelete, databaseAfterDelete),
        }
      : undefined;
  const watcherMetrics = await (await fetch(`http://127.0.0.1:${bench.watcherMetricsPort}/metrics`)).text();
  const watchEventToSignalMs = summarizeLatency(watcherMetrics);
  const eagerStarts = summarizeEagerStarts(watcherMetrics);
  return { ...row, workerSteps, workerStepsInDelete, temporalDatabase, history, watchEventToSignalMs, eagerStarts };
}

/** What a sample of the Objects' workflows wrote to Temporal, from their start until settled. */
async function objectHistory(bench: BenchStack, count: number): Promise<ObjectRow['history']> {
  const step = Math.max(1, Math.floor(count / HISTORY_SAMPLE));
  const sample = Array.from({ length: Math.min(HISTORY_SAMPLE, count) }, (_, i) => refFor(objectApi, '', benchObjectName(i * step)));
  const perObject = perWorkflow(await historyCost(bench.temporal, sample));
  return {
    sampled: sample.length,
    eventsPerObject: perObject.events,
    historyBytesPerObject: perObject.historyBytes,
    passesPerObject: perObject.passes,
  };
}

async function limitRow(controlDir: string, target: TargetCluster, options: ObjectScaleOptions): Promise<ObjectLimit> {
  const control = await startKubeCluster({ dir: controlDir, name: 'limit-control', ...(await clusterPorts()), detached: false });
  try {
    // Our CRDs: the Object the limit writes is validated as Chronoplane's is.
    await applyCrds(control.kubeconfigPath);
    const limitTarget: ObjectLimitTarget = { controlKubeconfigPath: control.kubeconfigPath, targetKubeconfigPath: target.kubeconfigPath };
    const run = newRunLabel();
    const raw = await rawConfigMapApplyAndDelete(limitTarget, options.count, run);
    const apply = await minimalObjectApply(limitTarget, options.count, run);
    const deleted = await minimalObjectDelete(limitTarget, options.count);
    return {
      applySeconds: apply.seconds,
      p50Seconds: percentile(apply.perObjectSeconds, 0.5),
      p95Seconds: percentile(apply.perObjectSeconds, 0.95),
      deleteSeconds: deleted.seconds,
      rawApplySeconds: raw.apply.seconds,
      rawDeleteSeconds: raw.delete.seconds,
    };
  } finally {
    await control.stop();
  }
}

async function peerRow(dir: string, target: TargetCluster, options: ObjectScaleOptions): Promise<ObjectRow> {
  const peer = await startProviderKubernetesObjects(dir, target.kubeconfig);
  if (options.keep) console.log(`provider-kubernetes' log: ${peer.logFile}`);
  try {
    const servers: RowServers = {
      controlKubeconfigPath: peer.kubeconfigPath,
      targetKubeconfigPath: target.kubeconfigPath,
      providerConfig: peer.providerConfig,
      controller: peer.controller,
      processes: { ...(await processesUnder(dir)), ...prefixed('target', await processesUnder(target.dir)) },
    };
    return { ...(await measureRow(peer.peer, servers, options)), startSeconds: peer.startSeconds };
  } finally {
    await peer.stop();
  }
}

/** Apply, settle and idle (when all were Ready), delete: one controller's row. */
async function measureRow(name: string, servers: RowServers, options: ObjectScaleOptions, hooks: RowHooks = {}): Promise<ObjectRow> {
  const timeoutMs = options.timeoutSeconds * 1000;
  const round = await openRound(servers, options.count);
  try {
    round.rss.start();
    const apply = await applyPhase(round, timeoutMs);
    await hooks.afterApply?.();
    if (apply.allReadySeconds === undefined) {
      console.log(
        `\n${name}: only ${apply.ready} of ${options.count} Objects were Ready after ${options.timeoutSeconds} s: no idle window`,
      );
    }
    const idle = apply.allReadySeconds === undefined ? undefined : await idlePhase(round, options);
    const settled = round.rss.summary();
    await hooks.beforeDelete?.();
    const deleted = await deletePhase(round, timeoutMs);
    round.rss.stop();
    const rssMiB = Object.fromEntries(
      Object.entries(round.rss.summary()).map(([process, rss]) => [process, { peak: rss!.peak, settled: settled[process]!.last }]),
    );
    return { name, apply, idle, delete: deleted, rssMiB };
  } finally {
    await round.close();
  }
}

async function openRound(servers: RowServers, count: number, prefix = 'obj'): Promise<Round> {
  const run = newRunLabel();
  const objects = await watchObjects(servers.controlKubeconfigPath, [objectApi], { labelSelector: `${OBJECT_RUN_LABEL}=${run}` });
  const rss = new RssSampler<string>(servers.controller);
  return {
    servers,
    run,
    prefix,
    names: Array.from({ length: count }, (_, i) => benchObjectName(i, prefix)),
    objects,
    custom: keepAliveKubeConfig(servers.controlKubeconfigPath).makeApiClient(CustomObjectsApi),
    configMaps: keepAliveKubeConfig(servers.targetKubeconfigPath).makeApiClient(CoreV1Api),
    rss,
    async close() {
      rss.stop();
      await objects.stop();
    },
  };
}

async function applyPhase(round: Round, timeoutMs: number): Promise<ObjectRow['apply']> {
  const { objects, names, servers } = round;
  const requestsBefore = await apiRequestsOf(servers);
  const cpuBefore = await cpuSecondsOf(servers.processes);
  const allReady = objects.waitFor(() => objects.readyAt.size >= names.length, timeoutMs);
  allReady.catch(() => {}); // awaited below, unless a create fails first
  const startedAt = Date.now();
  const sentAt = await mapWithConcurrency(names, OBJECT_CONCURRENCY, async (_, index) => {
    const at = Date.now();
    await round.custom.createClusterCustomObject({
      ...objectAt,
      body: benchObject(index, servers.providerConfig, round.run, round.prefix),
    });
    return at;
  });
  const createsSeconds = (Date.now() - startedAt) / 1000;
  const complete = await allReady.then(
    () => true,
    () => false,
  );
  const cpuSecondsByProcess = cpuBetween(cpuBefore, await cpuSecondsOf(servers.processes));
  const apiRequestsPerObject = apiRequestsBetween(requestsBefore, await apiRequestsOf(servers), names.length);
  const readyAt = names.map((name) => objects.readyAt.get(keyOfObject(objectApi.kind, name)));
  const readyAfter = readyAt.flatMap((at, index) => (at === undefined ? [] : [(at - sentAt[index]!) / 1000]));
  return {
    createsSeconds,
    allReadySeconds: complete ? (Math.max(...(readyAt as number[])) - startedAt) / 1000 : undefined,
    ready: objects.readyAt.size,
    p50Seconds: percentile(readyAfter, 0.5),
    p95Seconds: percentile(readyAfter, 0.95),
    configMapsInTarget: await countConfigMaps(round),
    cpuSecondsByProcess,
    apiRequestsPerObject,
  };
}

async function idlePhase(round: Round, options: ObjectScaleOptions): Promise<ObjectRow['idle']> {
  const { processes, controller } = round.servers;
  await sleep(options.settleSeconds * 1000);
  const before = await cpuSecondsOf(processes);
  const startedAt = Date.now();
  await sleep(options.idleWindowSeconds * 1000);
  const cpuSecondsByProcess = cpuBetween(before, await cpuSecondsOf(processes));
  return {
    settleSeconds: options.settleSeconds,
    seconds: (Date.now() - startedAt) / 1000,
    controllerCpuSeconds: Object.keys(controller).reduce((sum, name) => sum + (cpuSecondsByProcess[name] ?? NaN), 0),
    cpuSecondsByProcess,
  };
}

async function deletePhase(round: Round, timeoutMs: number): Promise<ObjectRow['delete']> {
  const { objects, names, servers } = round;
  const requestsBefore = await apiRequestsOf(servers);
  const cpuBefore = await cpuSecondsOf(servers.processes);
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const objectsGone = objects
    .waitFor(() => names.every((name) => !objects.current.has(keyOfObject(objectApi.kind, name))), timeoutMs)
    .then(
      () => Date.now(),
      () => undefined,
    );
  await mapWithConcurrency(names, OBJECT_CONCURRENCY, (name) => round.custom.deleteClusterCustomObject({ ...objectAt, name }));
  const requestsSeconds = (Date.now() - startedAt) / 1000;
  const [objectsGoneAt, configMapsGoneAt] = await Promise.all([objectsGone, configMapsGone(round, deadline)]);
  return {
    requestsSeconds,
    toGoneSeconds:
      objectsGoneAt === undefined || configMapsGoneAt === undefined
        ? undefined
        : (Math.max(objectsGoneAt, configMapsGoneAt) - startedAt) / 1000,
    objectsLeft: names.filter((name) => objects.current.has(keyOfObject(objectApi.kind, name))).length,
    configMapsLeft: await countConfigMaps(round),
    cpuSecondsByProcess: cpuBetween(cpuBefore, await cpuSecondsOf(servers.processes)),
    apiRequestsPerObject: apiRequestsBetween(requestsBefore, await apiRequestsOf(servers), names.length),
  };
}

/** Both API servers' request counters, read outside the phase's CPU window: reading them is not the controller's cost. */
async function apiRequestsOf(servers: RowServers): Promise<ApiRequests> {
  const [control, target] = await Promise.all([
    readApiRequests(servers.controlKubeconfigPath),
    readApiRequests(servers.targetKubeconfigPath),
  ]);
  return { control, target };
}

function apiRequestsBetween(before: ApiRequests, after: ApiRequests, objects: number): ApiRequests {
  return {
    control: requestsBetween(before.control, after.control, objects),
    target: requestsBetween(before.target, after.target, objects),
  };
}

/**
 * When none of the run's ConfigMaps was left in the target (ms since the epoch), or undefined
 * past the deadline. Asks for one at a time: a full list of 1,000 every poll would load the
 * target's API server, and this process, more than what is measured.
 */
async function configMapsGone(round: Round, deadline: number): Promise<number | undefined> {
  while (Date.now() < deadline) {
    const page = await round.configMaps.listNamespacedConfigMap({
      namespace: TARGET_NAMESPACE,
      labelSelector: runSelector(round),
      limit: 1,
    });
    if (page.items.length === 0) return Date.now();
    await sleep(CONFIG_MAP_POLL_MS);
  }
  return undefined;
}

async function countConfigMaps(round: Round): Promise<number> {
  return (await round.configMaps.listNamespacedConfigMap({ namespace: TARGET_NAMESPACE, labelSelector: runSelector(round) })).items.length;
}

const runSelector = (round: Round) => `${OBJECT_RUN_LABEL}=${round.run}`;
