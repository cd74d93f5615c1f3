// The minimal-controller-work limit for Objects: what any controller must do for N Objects that
// each wrap a ConfigMap, done directly from one process, 32 at a time, with none of a control
// plane's machinery (no watch, no queue, no workflow, no read before writing). Per Object, to
// Ready: create the Object (the user's part), add the finalizer, server-side apply the ConfigMap
// in the target cluster, write a Ready status. To gone: delete the Object (the user's part),
// delete the ConfigMap, remove the finalizer. On a control cluster that serves the Object CRD
// and a target cluster of its own, it says how far from the floor the two controllers are.
//
// Also here: the Objects every row of the scenario creates (bench/scenarios/object-scale.ts), so
// that the limit, Chronoplane and provider-kubernetes are given the same N objects.
import {
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { FINALIZER } from '#core/annotations';
import { available, mergeConditions, reconcileSuccess } from '#core/conditions';
import { objectApi } from '#providers/kubernetes/object/schema';
import { KeepAliveKubeConfig } from '#runtime/kube-config';
import { apiVersionOf } from '#core/managed-kind';
import { PlainObjectApi } from '#runtime/plain-object-api';
import { mapWithConcurrency } from '../parallel';

/** The definition of the limit, and the concurrency of every row's creates and deletes. */
export const OBJECT_CONCURRENCY = 32;
/** Where every wrapped ConfigMap lands in its target cluster. */
export const TARGET_NAMESPACE = 'default';
/** On each Object and each ConfigMap: the run they belong to, for watches and counts. */
export const OBJECT_RUN_LABEL = 'chronoplane.dev/bench-run';
/** The limit's server-side applies own their fields under this name. */
const FIELD_MANAGER = 'limit';
/** No controller reads it: the limit's Objects only need to look like everyone else's. */
const LIMIT_PROVIDER_CONFIG = 'default';

/** `obj-00042`; another prefix keeps a warm-up's names apart from the measured ones. */
export const benchObjectName = (index: number, prefix = 'obj'): string => `${prefix}-${String(index).padStart(5, '0')}`;

/** Object `<prefix>-NNNNN` wrapping ConfigMap default/<same name> with two data keys, in the cluster `providerConfig` names. */
export function benchObject(index: number, providerConfig: string, run: string, prefix?: string) {
  const name = benchObjectName(index, prefix);
  const labels = { [OBJECT_RUN_LABEL]: run };
  return {
    apiVersion: apiVersionOf(objectApi),
    kind: objectApi.kind,
    metadata: { name, labels },
    spec: {
      forProvider: { manifest: benchConfigMap(name, labels, index) },
      providerConfigRef: { name: providerConfig },
    },
  };
}

function benchConfigMap(name: string, labels: Record<string, string>, index: number) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: TARGET_NAMESPACE, labels },
    data: { index: String(index), scenario: 'object-scale' },
  };
}

export interface ObjectLimitTarget {
  /** A cluster that serves objects.kubernetes.crossplane.io, with no controller for it. */
  controlKubeconfigPath: string;
  targetKubeconfigPath: string;
}

interface ObjectLimitRun {
  seconds: number;
  /** Seconds each object took, from its first request to its last, in index order. */
  perObjectSeconds: number[];
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const objectAt = { group: objectApi.group, version: objectApi.version, plural: objectApi.plural };

/** Create, finalizer, apply the ConfigMap, Ready status: for N Objects, 32 at a time. */
export async function minimalObjectApply(target: ObjectLimitTarget, count: number, run: string): Promise<ObjectLimitRun> {
  const { custom, targetObjects } = connect(target);
  return timed(count, async (index) => {
    const object = benchObject(index, LIMIT_PROVIDER_CONFIG, run);
    const { name } = object.metadata;
    const created = (await custom.createClusterCustomObject({ ...objectAt, body: object })) as KubernetesObject;
    await custom.patchClusterCustomObject({ ...objectAt, name, body: { metadata: { finalizers: [FINALIZER] } } }, mergePatch);
    await applyConfigMap(targetObjects, object.spec.forProvider.manifest);
    const conditions = mergeConditions([], [available(), reconcileSuccess()], new Date().toISOString());
    const status = { conditions, observedGeneration: created.metadata?.generation };
    await custom.patchClusterCustomObjectStatus({ ...objectAt, name, body: { status } }, mergePatch);
  });
}

/** Delete the Object, delete its ConfigMap, remove the finalizer: for N Objects, 32 at a time. */
export async function minimalObjectDelete(target: ObjectLimitTarget, count: number): Promise<ObjectLimitRun> {
  const { custom, configMaps } = connect(target);
  const deleted = await timed(count, async (index) => {
    const name = benchObjectName(index);
    await custom.deleteClusterCustomObject({ ...objectAt, name });
    await configMaps.deleteNamespacedConfigMap({ name, namespace: TARGET_NAMESPACE });
    // null removes the list, so the API server lets the object go.
    await custom.patchClusterCustomObject({ ...objectAt, name, body: { metadata: { finalizers: null } } }, mergePatch);
  });
  const left = (await custom.listClusterCustomObject({ ...objectAt })) as { items: unknown[] };
  if (left.items.length > 0) throw new Error(`the limit's delete left ${left.items.length} Objects`);
  return deleted;
}

/**
 * The ConfigMaps alone, server-side applied and then deleted, 32 at a time: the part of the
 * limit no control cluster is involved in, so how much of it the Object's own writes add.
 */
export async function rawConfigMapApplyAndDelete(
  target: ObjectLimitTarget,
  count: number,
  run: string,
): Promise<{ apply: ObjectLimitRun; delete: ObjectLimitRun }> {
  const { targetObjects, configMaps } = connect(target);
  const apply = await timed(count, (index) =>
    applyConfigMap(targetObjects, benchObject(index, LIMIT_PROVIDER_CONFIG, run).spec.forProvider.manifest),
  );
  const deleted = await timed(count, async (index) => {
    await configMaps.deleteNamespacedConfigMap({ name: benchObjectName(index), namespace: TARGET_NAMESPACE });
  });
  return { apply, delete: deleted };
}

async function applyConfigMap(targetObjects: PlainObjectApi, manifest: KubernetesObject): Promise<void> {
  await targetObjects.patch(manifest, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
}

/** Runs `work` for indices 0…count-1, 32 at a time: the whole run's seconds and each one's. */
async function timed(count: number, work: (index: number) => Promise<void>): Promise<ObjectLimitRun> {
  const started = Date.now();
  const perObjectSeconds = await mapWithConcurrency(
    Array.from({ length: count }, (_, i) => i),
    OBJECT_CONCURRENCY,
    async (index) => {
      const at = Date.now();
      await work(index);
      return (Date.now() - at) / 1000;
    },
  );
  return { seconds: (Date.now() - started) / 1000, perObjectSeconds };
}

function connect(target: ObjectLimitTarget) {
  const control = keepAliveKubeConfig(target.controlKubeconfigPath);
  const remote = keepAliveKubeConfig(target.targetKubeconfigPath);
  return {
    custom: control.makeApiClient(CustomObjectsApi),
    targetObjects: PlainObjectApi.forConfig(remote),
    configMaps: remote.makeApiClient(CoreV1Api),
  };
}

/**
 * A kubeconfig file whose clients reuse their TLS connections, as our worker's and any Go
 * controller's do: client-node's own opens a new one, a full handshake, for every request,
 * which would slow the limit down and load the API servers every row shares the CPU with.
 */
export function keepAliveKubeConfig(path: string): KubeConfig {
  const kubeConfig = new KeepAliveKubeConfig();
  kubeConfig.loadFromFile(path);
  return kubeConfig;
}
