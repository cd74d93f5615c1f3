// A KubernetesApplication of N templates (default 50; `--templates`): from apply to Submitted
// N/N, an update of all N templates at once, and the delete, on a bench stack
// (bench/chronoplane-stack.ts) and one target cluster (kube-apiserver, etcd,
// kube-controller-manager; no nodes) apart:
//
//   1. the target is registered as KubernetesCluster bench-app/bench-target, labelled bench: app,
//      with its kubeconfig in Secret bench-app/bench-target-kubeconfig, key `kubeconfig`
//      (stack/remote-clusters.ts applyKubernetesClusters);
//   2. warm-up: a 1-template application (a ConfigMap) through and back, so that loading the
//      clients and opening the target's watches is not measured;
//   3. apply: one create of the application through the API (clusterSelector matchLabels bench:
//      app), its templates round-robin ConfigMaps, Services (ClusterIP, one port) and Deployments
//      (one replica of a pause image: the target has no nodes, so no pod ever runs, and Submitted
//      means created in the target), all in the target's namespace `default`; with
//      `--namespace-template`, the first template is a Namespace that holds all the others, so the
//      ordering waves (a Namespace before what lives in it) are measured too. Done when the
//      application, polled through the API every 100 ms, states Submitted with
//      submittedResources == N at its generation. Per resource: when the watch of the run's
//      KubernetesApplicationResources first saw it, and first saw it Submitted (status.state);
//   4. update: one merge patch of the application replaces all N templates with a new revision (a
//      label on every object, and a ConfigMap data value). Done when every object in the target
//      shows it (a list per kind every 250 ms) and the application is polled Submitted N/N at the
//      patched generation; per object, when a list first showed it changed (so to 250 ms), and per
//      resource, when the watch first saw it Submitted at its new generation;
//   5. delete: one delete of the application, until the application, its resources and the
//      objects in the target are all gone (ReplicaSets the target's controllers made from the
//      Deployments are left to its garbage collector and not waited for).
//
// Before the update and again after it: history events, bytes and passes of each resource's
// workflow (all of them up to 50, an even sample above) and of the application's. Per phase: CPU
// by process (the stack's and the target's), the worker's steps, worker and watcher RSS (sampled
// every 100 ms). Prints a table and writes JSON to bench/results/application-<N>-<date>.json.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiException, AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { kubernetesApplicationApi, MAX_TEMPLATES } from '#providers/kubernetes/workload/application/schema';
import { kubernetesApplicationResourceApi } from '#providers/kubernetes/workload/resource/schema';
import { refFor, type ResourceRef } from '#core/managed-kind';
import { applyKubernetesClusters } from '#stack/remote-clusters';
import { startBenchStack, type BenchStack } from '../chronoplane-stack';
import { historyCost } from '../history-cost';
import { keepAliveKubeConfig } from '../limits/minimal-object-controller';
import { RssSampler, summarizeLatency } from '../measure';
import { cpuBetween, cpuSecondsOf, processesUnder } from '../process-cpu';
import { loadAverage, machine, newRunLabel, writeResult } from '../results';
import { prefixed, withTargetCluster } from '../target-cluster';
import { watchObjects, type WatchedObjects } from '../watch-objects';
import { latenciesBetween, readWorkerLatencies } from '../worker-latencies';
import {
  applicationSubmitted,
  benchApplication,
  benchTemplates,
  FirstTimes,
  keyOfTarget,
  kindCounts,
  ResourceTracker,
  RUN_LABEL,
  showsRevision,
  StateTimeline,
  targetNamespaceOf,
  type ApplicationShape,
  type Observed,
  type TargetItem,
} from './application-model';
import {
  costsBetween,
  printApplicationTable,
  spread,
  summarizeCosts,
  type ApplicationScaleResult,
  type ApplyFigures,
  type DeleteFigures,
  type PhaseCost,
  type UpdateFigures,
  type WorkflowCost,
} from './application-table';

interface ApplicationScaleOptions {
  /** Templates in the application (default 50). */
  templates: number;
  /** The first template is a Namespace holding the others, instead of all in `default`. */
  namespaceTemplate: boolean;
  /** Seconds to wait for each phase (apply, update, delete); past it, the figures so far are reported. */
  timeoutSeconds: number;
  /** Leave the state directories (logs, kubeconfigs) behind. */
  keep: boolean;
}

/** Where the application, its resources and the KubernetesCluster live in the control cluster. */
const CONTROL_NAMESPACE = 'bench-app';
const CLUSTER_NAME = 'bench-target';
const CLUSTER_LABELS = { bench: 'app' };
const APPLICATION_NAME = 'bench-app';
/** The revisions of the templates: as applied, and after the update. */
const APPLIED = 1;
const UPDATED = 2;
const APPLICATION_POLL_MS = 100;
const TARGET_POLL_MS = 250;
const RSS_SAMPLE_MS = 100;
/** Resource workflows whose history is read: all up to this, an even sample above. */
const HISTORY_SAMPLE = 50;
/** Once the application is done, how long the watch of its resources may take to show the same. */
const WATCH_CATCH_UP_MS = 10_000;
const WARM_UP_TIMEOUT_MS = 300_000;

const applicationAt = {
  group: kubernetesApplicationApi.group,
  version: kubernetesApplicationApi.version,
  plural: kubernetesApplicationApi.plural,
};
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** The stack, the target, and clients of both. */
interface Env {
  bench: BenchStack;
  /** Of the control cluster. */
  custom: CustomObjectsApi;
  /** Of the target cluster. */
  core: CoreV1Api;
  apps: AppsV1Api;
  /** Every process of the stack and the target, by name, for the CPU each phase cost each. */
  processes: Record<string, number>;
}

/** One application under a run label of its own, and the watch of its resources. */
interface Round {
  env: Env;
  shape: ApplicationShape;
  resources: WatchedObjects;
  tracker: ResourceTracker;
  close(): Promise<void>;
}

export async function runApplicationScale(options: ApplicationScaleOptions): Promise<ApplicationScaleResult> {
  const { templates, namespaceTemplate } = options;
  if (!Number.isInteger(templates) || templates < (namespaceTemplate ? 2 : 1) || templates > MAX_TEMPLATES) {
    throw new Error(`--templates must be a whole number from ${namespaceTemplate ? 2 : 1} to ${MAX_TEMPLATES}, not ${templates}`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-bench-application-'));
  const shape = measuredShape(options);
  const result: ApplicationScaleResult = {
    date: new Date().toISOString(),
    templates,
    kinds: kindCounts(shape),
    targetNamespace: targetNamespaceOf(shape),
    namespaceTemplate,
    machine: await machine(),
    loadAverage: { atStart: loadAverage() },
  };
  try {
    await withTargetCluster(join(dir, 'target'), CLUSTER_NAME, async (target) => {
      const targetDir = target.dir;
      const bench = await startBenchStack({ keep: options.keep });
      if (options.keep) console.log(`Chronoplane's stack: ${bench.dir} (worker and watcher logs under logs/)`);
      try {
        await applyKubernetesClusters(bench.servers.kubeconfigPath, CONTROL_NAMESPACE, [
          { name: CLUSTER_NAME, labels: CLUSTER_LABELS, cluster: target },
        ]);
        const targetConfig = keepAliveKubeConfig(target.kubeconfigPath);
        const env: Env = {
          bench,
          custom: keepAliveKubeConfig(bench.servers.kubeconfigPath).makeApiClient(CustomObjectsApi),
          core: targetConfig.makeApiClient(CoreV1Api),
          apps: targetConfig.makeApiClient(AppsV1Api),
          processes: { ...(await processesUnder(bench.dir)), ...prefixed('target', await processesUnder(targetDir)) },
        };
        result.warmUpSeconds = await warmUp(env);
        await measure(env, shape, options, result);
        result.watchEventToSignalMs = summarizeLatency(await (await fetch(`http://127.0.0.1:${bench.watcherMetricsPort}/metrics`)).text());
      } finally {
        await bench.stop();
      }
    });
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  try {
    result.loadAverage.atEnd = loadAverage();
    printApplicationTable(result);
    console.log(`\nwrote ${await writeResult(`application-${templates}`, result)}`);
    if (options.keep) console.log(`kept ${dir} (the target cluster and its logs)`);
    return result;
  } finally {
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}

function measuredShape(options: ApplicationScaleOptions): ApplicationShape {
  const run = newRunLabel();
  return {
    name: APPLICATION_NAME,
    namespace: CONTROL_NAMESPACE,
    run,
    templates: options.templates,
    prefix: 'tmpl',
    clusterSelector: CLUSTER_LABELS,
    ...(options.namespaceTemplate ? { namespaceTemplate: `bench-app-${run}` } : {}),
  };
}

/** A 1-template application through and back; its seconds. */
async function warmUp(env: Env): Promise<number> {
  const shape: ApplicationShape = {
    name: 'warm-up',
    namespace: CONTROL_NAMESPACE,
    run: newRunLabel(),
    templates: 1,
    prefix: 'warm-up',
    clusterSelector: CLUSTER_LABELS,
  };
  const startedAt = Date.now();
  const round = await openRound(env, shape);
  try {
    const applied = await applyPhase(round, WARM_UP_TIMEOUT_MS);
    if (applied.submittedSeconds === undefined) {
      throw new Error(`the warm-up application was not Submitted: ${JSON.stringify(applied.app)}; ${round.resources.describe()}`);
    }
    const deleted = await deletePhase(round, WARM_UP_TIMEOUT_MS);
    if (deleted.toGoneSeconds === undefined) throw new Error(`the warm-up application was not deleted: ${JSON.stringify(deleted.left)}`);
    return (Date.now() - startedAt) / 1000;
  } finally {
    await round.close();
  }
}

/** Apply, update, delete, with the history read after the apply and after the update. Fills `result` as it goes. */
async function measure(env: Env, shape: ApplicationShape, options: ApplicationScaleOptions, result: ApplicationScaleResult): Promise<void> {
  const timeoutMs = options.timeoutSeconds * 1000;
  const round = await openRound(env, shape);
  try {
    result.apply = await withPhaseCost(env, () => applyPhase(round, timeoutMs));
    if (result.apply.submittedSeconds === undefined) {
      console.log(`\nthe application was not Submitted after ${options.timeoutSeconds} s: no update, straight to the delete`);
    } else {
      const afterApply = await historyOf(env.bench, shape);
      result.history = {
        afterApply: { resources: summarizeCosts(afterApply.resources), application: summarizeCosts([afterApply.application]) },
      };
      result.update = await withPhaseCost(env, () => updatePhase(round, timeoutMs));
      if (result.update.toDoneSeconds !== undefined) {
        const afterUpdate = await historyOf(env.bench, shape);
        result.history.update = {
          resources: costsBetween(afterApply.resources, afterUpdate.resources),
          application: costsBetween([afterApply.application], [afterUpdate.application]),
        };
      }
    }
    result.delete = await withPhaseCost(env, () => deletePhase(round, timeoutMs));
  } finally {
    await round.close();
  }
}

async function openRound(env: Env, shape: ApplicationShape): Promise<Round> {
  const resources = await watchObjects(env.bench.servers.kubeconfigPath, [kubernetesApplicationResourceApi], {
    namespace: shape.namespace,
    labelSelector: `${RUN_LABEL}=${shape.run}`,
  });
  const tracker = new ResourceTracker();
  // A wait that never ends (its timer does not hold the process): its check runs on every watch
  // event, before any later wait's, and that is when the tracker looks at the resources.
  resources
    .waitFor(() => {
      const now = Date.now();
      for (const resource of resources.current.values()) tracker.observe(resource as Observed, now);
      return false;
    }, 24 * 3_600_000)
    .catch(() => {});
  return { env, shape, resources, tracker, close: () => resources.stop() };
}

type Figures<T extends PhaseCost> = Omit<T, keyof PhaseCost>;

async function applyPhase(round: Round, timeoutMs: number): Promise<Figures<ApplyFigures>> {
  const { env, shape, tracker } = round;
  const count = shape.templates;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const created = (await env.custom.createNamespacedCustomObject({
    ...applicationAt,
    namespace: shape.namespace,
    body: benchApplication(shape, APPLIED),
  })) as Observed;
  const createSeconds = (Date.now() - startedAt) / 1000;
  const generation = created.metadata?.generation ?? 1;
  const states = new StateTimeline(startedAt, generation);
  const polled = await pollApplication(round, states, (app) => applicationSubmitted(app, count, generation), deadline);
  if (polled.at !== undefined) await caughtUp(round, () => tracker.submittedAfter().size >= count);
  const since = (at: number) => (at - startedAt) / 1000;
  return {
    createSeconds,
    submittedSeconds: polled.at === undefined ? undefined : since(polled.at),
    appStates: states.seconds(),
    app: statusOf(polled.app),
    resourcesCreated: spread(tracker.seen.secondsSince(startedAt)),
    resourcesSubmitted: spread([...tracker.submittedAfter().values()].map(since)),
    targetObjects: (await listTarget(round)).length,
  };
}

async function updatePhase(round: Round, timeoutMs: number): Promise<Figures<UpdateFigures>> {
  const { env, shape, tracker } = round;
  const count = shape.templates;
  const before = tracker.submittedGenerations();
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const patched = (await env.custom.patchNamespacedCustomObject(
    {
      ...applicationAt,
      namespace: shape.namespace,
      name: shape.name,
      body: { spec: { resourceTemplates: benchTemplates(shape, UPDATED) } },
    },
    mergePatch,
  )) as Observed;
  const patchSeconds = (Date.now() - startedAt) / 1000;
  const generation = patched.metadata?.generation;
  if (generation === undefined) throw new Error('the patched application has no metadata.generation');
  const states = new StateTimeline(startedAt, generation);
  const changes = new FirstTimes();
  const [app, targets] = await Promise.all([
    pollApplication(round, states, (polled) => applicationSubmitted(polled, count, generation), deadline),
    pollTarget(
      round,
      (items, now) => {
        for (const item of items) if (showsRevision(item, UPDATED)) changes.mark(keyOfTarget(item), now);
        return changes.size >= count;
      },
      deadline,
    ),
  ]);
  if (app.at !== undefined) await caughtUp(round, () => tracker.submittedAfter(before).size >= count);
  const since = (at: number) => (at - startedAt) / 1000;
  return {
    patchSeconds,
    targetsChangedSeconds: targets.at === undefined ? undefined : since(targets.at),
    targetsChanged: changes.size,
    targetChanges: spread(changes.secondsSince(startedAt)),
    appSubmittedSeconds: app.at === undefined ? undefined : since(app.at),
    appStates: states.seconds(),
    resourcesResubmitted: spread([...tracker.submittedAfter(before).values()].map(since)),
    toDoneSeconds: app.at === undefined || targets.at === undefined ? undefined : since(Math.max(app.at, targets.at)),
  };
}

async function deletePhase(round: Round, timeoutMs: number): Promise<Figures<DeleteFigures>> {
  const { env, shape, resources } = round;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  await env.custom.deleteNamespacedCustomObject({ ...applicationAt, namespace: shape.namespace, name: shape.name });
  const requestSeconds = (Date.now() - startedAt) / 1000;
  const [app, resourcesGoneAt, target] = await Promise.all([
    pollApplication(round, undefined, (polled) => polled === undefined, deadline),
    resources
      .waitFor(() => resources.current.size === 0, Math.max(0, deadline - Date.now()))
      .then(
        () => Date.now(),
        () => undefined,
      ),
    pollTarget(round, (items) => items.length === 0, deadline),
  ]);
  const since = (at: number | undefined) => (at === undefined ? undefined : (at - startedAt) / 1000);
  const gone = [app.at, resourcesGoneAt, target.at];
  return {
    requestSeconds,
    applicationGoneSeconds: since(app.at),
    resourcesGoneSeconds: since(resourcesGoneAt),
    targetGoneSeconds: since(target.at),
    toGoneSeconds: gone.every((at) => at !== undefined) ? since(Math.max(...(gone as number[]))) : undefined,
    left: { application: app.at === undefined, resources: resources.current.size, targetObjects: target.items.length },
  };
}

/** CPU by process, the worker's steps and RSS over one phase. */
async function withPhaseCost<T extends object>(env: Env, work: () => Promise<T>): Promise<T & PhaseCost> {
  const cpuBefore = await cpuSecondsOf(env.processes);
  const stepsBefore = await readWorkerLatencies(env.bench.workerMetricsPort);
  const rss = new RssSampler<string>(env.bench.pids);
  rss.start(RSS_SAMPLE_MS);
  try {
    const figures = await work();
    const cpuSecondsByProcess = cpuBetween(cpuBefore, await cpuSecondsOf(env.processes));
    const workerSteps = latenciesBetween(stepsBefore, await readWorkerLatencies(env.bench.workerMetricsPort));
    const rssMiB = Object.fromEntries(
      Object.entries(rss.summary()).flatMap(([name, figures]) => (figures ? [[name, figures]] : [])),
    ) as PhaseCost['rssMiB'];
    return { ...figures, cpuSecondsByProcess, workerSteps, rssMiB };
  } finally {
    rss.stop();
  }
}

/**
 * Reads the application every 100 ms until `done` holds of it (undefined once it is gone), or
 * until the deadline: when it held (ms since the epoch; absent past the deadline), and what was
 * read last.
 */
async function pollApplication(
  round: Round,
  states: StateTimeline | undefined,
  done: (app: Observed | undefined) => boolean,
  deadline: number,
): Promise<{ at?: number; app?: Observed }> {
  for (;;) {
    const app = await readApplication(round);
    const now = Date.now();
    states?.observe(app, now);
    if (done(app)) return { at: now, app };
    if (now >= deadline) return { app };
    await sleep(APPLICATION_POLL_MS);
  }
}

async function readApplication({ env, shape }: Round): Promise<Observed | undefined> {
  try {
    return (await env.custom.getNamespacedCustomObject({ ...applicationAt, namespace: shape.namespace, name: shape.name })) as Observed;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return undefined;
    throw error;
  }
}

/** Lists the run's objects in the target every 250 ms until `done` holds of them, or until the deadline. */
async function pollTarget(
  round: Round,
  done: (items: TargetItem[], now: number) => boolean,
  deadline: number,
): Promise<{ at?: number; items: TargetItem[] }> {
  for (;;) {
    const items = await listTarget(round);
    const now = Date.now();
    if (done(items, now)) return { at: now, items };
    if (now >= deadline) return { items };
    await sleep(TARGET_POLL_MS);
  }
}

/** The run's objects in the target: one list per kind the templates make. */
async function listTarget({ env, shape }: Round): Promise<TargetItem[]> {
  const namespace = targetNamespaceOf(shape);
  const labelSelector = `${RUN_LABEL}=${shape.run}`;
  const [configMaps, services, deployments, namespaces] = await Promise.all([
    env.core.listNamespacedConfigMap({ namespace, labelSelector }),
    env.core.listNamespacedService({ namespace, labelSelector }),
    env.apps.listNamespacedDeployment({ namespace, labelSelector }),
    shape.namespaceTemplate === undefined ? undefined : env.core.listNamespace({ labelSelector }),
  ]);
  const items = <K extends TargetItem['kind']>(
    kind: K,
    list: { items: { metadata?: { name?: string; labels?: Record<string, string> } }[] } | undefined,
  ) => (list?.items ?? []).map((item): TargetItem => ({ kind, name: item.metadata?.name ?? '', labels: item.metadata?.labels }));
  return [
    ...items('Namespace', namespaces),
    ...items('ConfigMap', configMaps),
    ...items('Service', services),
    ...items('Deployment', deployments),
  ];
}

/** Gives the watch of the resources a little time to show what the application already states. */
async function caughtUp(round: Round, done: () => boolean): Promise<void> {
  await round.resources.waitFor(done, WATCH_CATCH_UP_MS).catch(() => {});
}

/** Each resource workflow's history (an even sample above 50) and the application's. */
async function historyOf(bench: BenchStack, shape: ApplicationShape): Promise<{ resources: WorkflowCost[]; application: WorkflowCost }> {
  const names = benchTemplates(shape, APPLIED).map((template) => template.metadata.name);
  const step = Math.max(1, names.length / HISTORY_SAMPLE);
  const sampled = Array.from({ length: Math.min(HISTORY_SAMPLE, names.length) }, (_, i) => names[Math.floor(i * step)]!);
  const costOf = async (ref: ResourceRef): Promise<WorkflowCost> => {
    const { events, historyBytes, passes } = await historyCost(bench.temporal, [ref]);
    return { events, historyBytes, passes };
  };
  const resources: WorkflowCost[] = [];
  for (const name of sampled) resources.push(await costOf(refFor(kubernetesApplicationResourceApi, shape.namespace, name)));
  return { resources, application: await costOf(refFor(kubernetesApplicationApi, shape.namespace, shape.name)) };
}

const statusOf = (app: Observed | undefined): ApplyFigures['app'] => ({
  state: app?.status?.state,
  desiredResources: app?.status?.desiredResources,
  submittedResources: app?.status?.submittedResources,
});
