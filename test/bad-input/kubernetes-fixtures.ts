// Builders for the Kubernetes cases of the bad-input corpus (kubernetes.cases.ts): Objects of
// both provider-kubernetes groups, their ProviderConfigs and kubeconfig Secrets, collections, and
// seed 003's workloads. Each builds what a user would write, correct but for what a case spoils,
// and puts whatever lands in a remote cluster in TARGET_NAMESPACE, named after its case, so the
// runner can tell that nothing is left behind.
import { inject } from 'vitest';
import { CORPUS_NAMESPACE, TARGET_NAMESPACE, type Manifest } from './case';

/** The remote cluster the cases' good configs point at; registered by the test stack. */
export const REMOTE = 'remote-1';
const LEGACY_GROUP = 'kubernetes.crossplane.io';
const MODERN_GROUP = 'kubernetes.m.crossplane.io';
const LEGACY_OBJECT = `${LEGACY_GROUP}/v1alpha2`;
export const LEGACY_OBJECT_V1 = `${LEGACY_GROUP}/v1alpha1`;
const MODERN_OBJECT = `${MODERN_GROUP}/v1alpha1`;
export const WORKLOAD = 'workload.crossplane.io/v1alpha1';
const COMPUTE = 'compute.crossplane.io/v1alpha1';

/** A label each case's own objects carry, so selectors of one case never match another's. */
export const CASE_LABEL = 'bad-input.chronoplane.dev/case';

type Fields = Record<string, unknown>;

/** A ConfigMap in the target namespace of a remote cluster, named `name`. */
export const configMap = (name: string, fields: Fields = { data: { key: 'value' } }, metadata: Fields = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: TARGET_NAMESPACE, ...metadata },
  ...fields,
});

/** provider-kubernetes' cluster-scoped Object (v1alpha2 unless said), landing in remote-1. */
export function legacyObject(
  name: string,
  options: { manifest?: Fields; spec?: Fields; apiVersion?: string; metadata?: Fields } = {},
): Manifest {
  return {
    apiVersion: options.apiVersion ?? LEGACY_OBJECT,
    kind: 'Object',
    metadata: { name, ...options.metadata },
    spec: { forProvider: { manifest: options.manifest ?? configMap(name) }, providerConfigRef: { name: REMOTE }, ...options.spec },
  };
}

/** Crossplane v2's namespaced Object (in the corpus namespace), landing in remote-1 through its ClusterProviderConfig. */
export function namespacedObject(
  name: string,
  options: { manifest?: Fields; spec?: Fields; forProvider?: Fields; providerConfigRef?: { kind: string; name: string } } = {},
): Manifest {
  return {
    apiVersion: MODERN_OBJECT,
    kind: 'Object',
    metadata: { name },
    spec: {
      forProvider: { manifest: options.manifest ?? configMap(name), ...options.forProvider },
      providerConfigRef: options.providerConfigRef ?? { kind: 'ClusterProviderConfig', name: REMOTE },
      ...options.spec,
    },
  };
}

/** A kubeconfig with one cluster, user and current context; `cluster` and `user` are their entries' bodies. */
export function kubeconfig(cluster: Fields, user: Fields): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });
}

/** Nothing listens on port 9 of this machine: a server that refuses every connection. */
export const UNREACHABLE_SERVER = 'https://127.0.0.1:9';

/** The run's remote clusters, as global-setup started them (their kubeconfigs embed credentials). */
function remoteCluster(name: string) {
  const found = inject('remoteClusters').find((cluster) => cluster.name === name);
  if (!found) throw new Error(`the test stack has no remote cluster ${name}`);
  return found;
}

/** remote-1's API server, for kubeconfigs that reach it with credentials of their own. */
export const remoteServer = (name = REMOTE): string => remoteCluster(name).server;

/** remote-1's admin kubeconfig, for KubernetesClusters that must work. */
export const remoteKubeconfig = (name = REMOTE): string => remoteCluster(name).kubeconfig;

/** A Secret in the corpus namespace holding `text` under `key`. */
export const kubeconfigSecret = (name: string, text: string, key = 'kubeconfig'): Manifest => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  type: 'Opaque',
  data: { [key]: Buffer.from(text).toString('base64') },
});

/** Where a config reads its kubeconfig: a key of a Secret in the corpus namespace. */
export const secretRef = (name: string, key = 'kubeconfig') => ({ namespace: CORPUS_NAMESPACE, name, key });

/** provider-kubernetes' cluster-scoped ProviderConfig (kubernetes.crossplane.io), for cluster-scoped Objects. */
export const legacyProviderConfig = (name: string, credentials: Fields): Manifest => ({
  apiVersion: `${LEGACY_GROUP}/v1alpha1`,
  kind: 'ProviderConfig',
  metadata: { name },
  spec: { credentials },
});

/** Crossplane v2's ProviderConfig (corpus namespace), usable only by that namespace's Objects. */
export const namespacedProviderConfig = (name: string, credentials: Fields): Manifest => ({
  apiVersion: `${MODERN_GROUP}/v1alpha1`,
  kind: 'ProviderConfig',
  metadata: { name },
  spec: { credentials },
});

/** Crossplane v2's ClusterProviderConfig, usable by the namespaces its namespaceSelector admits (all when absent). */
export const clusterProviderConfig = (name: string, spec: Fields): Manifest => ({
  apiVersion: `${MODERN_GROUP}/v1alpha1`,
  kind: 'ClusterProviderConfig',
  metadata: { name },
  spec,
});

/** Credentials from a kubeconfig in Secret `name` of the corpus namespace. */
export const fromSecret = (name: string, key = 'kubeconfig') => ({ source: 'Secret', secretRef: secretRef(name, key) });

/**
 * A legacy ProviderConfig `<caseName>-config` reading a Secret `<caseName>-kubeconfig` that holds
 * `text` (none when undefined), and an Object using it: what a broken kubeconfig case applies.
 */
export function objectWithKubeconfig(caseName: string, text: string | undefined): { setup: Manifest[]; apply: Manifest[] } {
  const secret = `${caseName}-kubeconfig`;
  const config = `${caseName}-config`;
  return {
    setup: [...(text === undefined ? [] : [kubeconfigSecret(secret, text)]), legacyProviderConfig(config, fromSecret(secret))],
    apply: [legacyObject(caseName, { spec: { providerConfigRef: { name: config } } })],
  };
}

/** A name of exactly `length` characters that starts with `prefix`, valid as a DNS subdomain. */
export function nameOfLength(prefix: string, length: number): string {
  const filler = 'abcdefghij'.repeat(Math.ceil(length / 10));
  const body = `${prefix}-${filler}`.slice(0, length);
  return body.endsWith('-') ? `${body.slice(0, -1)}a` : body;
}

/** An ObservedObjectCollection of either group watching ConfigMaps of the target namespace that carry the case's label. */
export function collection(name: string, options: { namespaced?: boolean; observeObjects?: Fields; spec?: Fields } = {}): Manifest {
  return {
    apiVersion: `${options.namespaced ? MODERN_GROUP : LEGACY_GROUP}/v1alpha1`,
    kind: 'ObservedObjectCollection',
    metadata: { name },
    spec: {
      observeObjects: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: TARGET_NAMESPACE,
        selector: { matchLabels: { [CASE_LABEL]: name } },
        ...options.observeObjects,
      },
      providerConfigRef: options.namespaced ? { kind: 'ClusterProviderConfig', name: REMOTE } : { name: REMOTE },
      ...options.spec,
    },
  };
}

/** A KubernetesCluster (corpus namespace) labelled for its case, its kubeconfig in Secret `secretName`. */
export const kubernetesCluster = (name: string, caseName: string, secretName = `${name}-kubeconfig`): Manifest => ({
  apiVersion: COMPUTE,
  kind: 'KubernetesCluster',
  metadata: { name, labels: { [CASE_LABEL]: caseName } },
  spec: { writeConnectionSecretToRef: { name: secretName } },
});

/** A ConfigMap template for the target namespace, its KubernetesApplicationResource named `name`. */
export const configMapTemplate = (name: string, template: Fields = configMap(name)) => ({
  metadata: { name, labels: { [CASE_LABEL]: name } },
  spec: { template },
});

/** A KubernetesApplication that picks the KubernetesClusters of its own case (or as `clusterSelector` says). */
export function application(
  name: string,
  resourceTemplates: unknown[],
  clusterSelector: Fields = { matchLabels: { [CASE_LABEL]: name } },
): Manifest {
  return {
    apiVersion: WORKLOAD,
    kind: 'KubernetesApplication',
    metadata: { name },
    spec: { clusterSelector, resourceTemplates },
  };
}

/**
 * A KubernetesApplication scheduled to a KubernetesCluster of its own whose Secret holds
 * `kubeconfigText` (no Secret when undefined): the setup and the application.
 */
export function applicationOnCluster(
  caseName: string,
  kubeconfigText: string | undefined,
  resourceTemplates: unknown[] = [configMapTemplate(`${caseName}-config`)],
): { setup: Manifest[]; apply: Manifest[] } {
  const cluster = `${caseName}-cluster`;
  const secret = `${cluster}-kubeconfig`;
  return {
    setup: [
      ...(kubeconfigText === undefined ? [] : [kubeconfigSecret(secret, kubeconfigText)]),
      kubernetesCluster(cluster, caseName, secret),
    ],
    apply: [application(caseName, resourceTemplates)],
  };
}
