// Remote clusters: extra real kube-apiservers standing for the target clusters that Objects
// (kubernetes.crossplane.io) land in and KubernetesApplications (workload.crossplane.io) are
// scheduled to. Each is a whole cluster from startKubeCluster, with its own dir, ports and admin
// kubeconfig; the control cluster reaches it through a kubeconfig Secret, as a Crossplane
// ProviderConfig or KubernetesCluster would.
//
// Each keeps its kube-controller-manager (~1/4 of a cluster's memory, and some start-up time):
// a target cluster without it is not a real one. Deleting an Object that wraps a Namespace needs
// the namespace controller, or the Namespace stays Terminating forever; wrapped objects with
// ownerReferences need the garbage collector; and a new namespace has no `default`
// ServiceAccount without the service-account controller.
import { readFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { startKubeCluster, stopKubeCluster } from './kube';
import { kubectl } from './kubectl';
import type { ManagedProcess } from './processes';

export interface RemoteClusterSpec {
  /** e.g. "remote-1"; names its kubeconfig context and its Secret, `<name>-kubeconfig`. */
  name: string;
  /** Holds the cluster's pki/, etcd data, kubeconfig, logs/ and run/. */
  dir: string;
  apiserverPort: number;
  etcdClientPort: number;
  etcdPeerPort: number;
  /** Extra labels on its Secret in the control cluster, to select clusters by. */
  labels?: Record<string, string>;
}

export interface RemoteCluster {
  name: string;
  server: string;
  /** Admin kubeconfig file, to inspect the cluster from a test or a shell. */
  kubeconfigPath: string;
  /** The same kubeconfig as a string, for a Secret: certificates and key embedded, no file paths. */
  kubeconfig: string;
  labels: Record<string, string>;
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

/** Where the control cluster keeps each remote cluster's kubeconfig. */
export const REMOTE_CLUSTER_SECRET_NAMESPACE = 'crossplane-system';
export const REMOTE_CLUSTER_SECRET_KEY = 'kubeconfig';
/** Set on every such Secret, with the cluster's name as its value. */
const REMOTE_CLUSTER_LABEL = 'chronoplane.dev/remote-cluster';

export function remoteClusterSecretName(clusterName: string): string {
  return `${clusterName}-kubeconfig`;
}

export async function startRemoteCluster(spec: RemoteClusterSpec, detached: boolean): Promise<RemoteCluster> {
  const cluster = await startKubeCluster({
    dir: spec.dir,
    name: spec.name,
    apiserverPort: spec.apiserverPort,
    etcdClientPort: spec.etcdClientPort,
    etcdPeerPort: spec.etcdPeerPort,
    detached,
  });
  return {
    name: spec.name,
    server: cluster.server,
    kubeconfigPath: cluster.kubeconfigPath,
    kubeconfig: await remoteClusterKubeconfig(cluster.kubeconfigPath),
    labels: { ...spec.labels, [REMOTE_CLUSTER_LABEL]: spec.name },
    processes: cluster.processes,
    stop: cluster.stop,
  };
}

/**
 * Starts them side by side. When one fails, a test run's others are stopped (a detached start
 * leaves them for `status` and their logs) and the error names every failure.
 */
export async function startRemoteClusters(specs: RemoteClusterSpec[], detached: boolean): Promise<RemoteCluster[]> {
  const started = await Promise.allSettled(specs.map((spec) => startRemoteCluster(spec, detached)));
  const failures = started.flatMap((result, index) =>
    result.status === 'rejected' ? [`${specs[index]!.name}: ${String(result.reason)}`] : [],
  );
  const clusters = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failures.length > 0) {
    if (!detached) await Promise.allSettled(clusters.map((cluster) => cluster.stop()));
    throw new Error(`remote clusters did not start:\n${failures.join('\n')}`);
  }
  return clusters;
}

export function stopRemoteCluster(dir: string): Promise<void> {
  return stopKubeCluster(dir);
}

/**
 * The admin kubeconfig as a string fit for a Secret. writeKubeconfig embeds the CA, certificate
 * and key, and the server is https://127.0.0.1:<port>, which any process on this machine (the
 * worker, a peer provider) can reach. Checked, because a Secret cannot point at local files.
 */
async function remoteClusterKubeconfig(kubeconfigPath: string): Promise<string> {
  const kubeconfig = await readFile(kubeconfigPath, 'utf8');
  for (const field of ['certificate-authority-data', 'client-certificate-data', 'client-key-data']) {
    if (!kubeconfig.includes(`${field}:`)) throw new Error(`${kubeconfigPath} does not embed ${field}; it cannot go into a Secret`);
  }
  return kubeconfig;
}

/**
 * Stores each cluster's kubeconfig in the control cluster as Secret
 * crossplane-system/<name>-kubeconfig, key `kubeconfig`, creating the namespace if missing.
 * Server-side apply, so reruns (every `npm run up`) converge instead of failing. The manifest
 * goes on stdin, never on a command line or in a log: it holds client keys.
 */
export async function registerRemoteClusters(
  controlKubeconfigPath: string,
  clusters: readonly Pick<RemoteCluster, 'name' | 'kubeconfig' | 'labels'>[],
): Promise<void> {
  if (clusters.length === 0) return;
  const manifests = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: REMOTE_CLUSTER_SECRET_NAMESPACE } },
    ...clusters.map((cluster) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        namespace: REMOTE_CLUSTER_SECRET_NAMESPACE,
        name: remoteClusterSecretName(cluster.name),
        labels: cluster.labels,
      },
      type: 'Opaque',
      // `data`, not `stringData`: server-side apply tracks write-only stringData poorly.
      data: { [REMOTE_CLUSTER_SECRET_KEY]: Buffer.from(cluster.kubeconfig).toString('base64') },
    })),
  ];
  await kubectl(
    controlKubeconfigPath,
    ['apply', '--server-side', '--field-manager=chronoplane-stack', '--force-conflicts', '-f', '-'],
    manifests.map((manifest) => stringify(manifest)).join('---\n'),
  );
}

/** The seed's and provider-kubernetes' examples name this ProviderConfig; it points at the first remote cluster. */
const EXAMPLES_PROVIDER_CONFIG = 'kubernetes-provider';

/**
 * provider-kubernetes configs for the remote clusters, in both groups: a legacy ProviderConfig
 * (kubernetes.crossplane.io, for cluster-scoped Objects) and a ClusterProviderConfig
 * (kubernetes.m.crossplane.io, for namespaced Objects) named after each cluster, and `default`
 * and `kubernetes-provider` for the first, so an Object without providerConfigRef, and the
 * examples as written, land in a remote cluster. Needs the CRDs (bootstrapCluster) first.
 */
export async function applyRemoteProviderConfigs(
  controlKubeconfigPath: string,
  clusters: readonly Pick<RemoteCluster, 'name'>[],
): Promise<void> {
  if (clusters.length === 0) return;
  const providerConfigs = (name: string, cluster: string) =>
    [
      { apiVersion: 'kubernetes.crossplane.io/v1alpha1', kind: 'ProviderConfig' },
      { apiVersion: 'kubernetes.m.crossplane.io/v1alpha1', kind: 'ClusterProviderConfig' },
    ].map((type) => ({
      ...type,
      metadata: { name },
      spec: {
        credentials: {
          source: 'Secret',
          secretRef: { namespace: REMOTE_CLUSTER_SECRET_NAMESPACE, name: remoteClusterSecretName(cluster), key: REMOTE_CLUSTER_SECRET_KEY },
        },
      },
    }));
  const first = clusters[0]!.name;
  const manifests = [
    ...clusters.flatMap((cluster) => providerConfigs(cluster.name, cluster.name)),
    ...providerConfigs('default', first),
    ...providerConfigs(EXAMPLES_PROVIDER_CONFIG, first),
  ];
  await kubectl(controlKubeconfigPath, ['apply', '-f', '-'], manifests.map((manifest) => stringify(manifest)).join('---\n'));
}

/** A KubernetesCluster (compute.crossplane.io) to register for a remote cluster. */
interface KubernetesClusterRegistration {
  /** The KubernetesCluster's name; its connection Secret is `<name>-kubeconfig`. */
  name: string;
  /** What KubernetesApplications' clusterSelectors match. */
  labels: Record<string, string>;
  /** The remote cluster it stands for. */
  cluster: Pick<RemoteCluster, 'name' | 'kubeconfig'>;
}

function kubernetesClusterSecretName(kubernetesClusterName: string): string {
  return `${kubernetesClusterName}-kubeconfig`;
}

/**
 * Registers remote clusters as KubernetesClusters in `namespace` (created if missing), each with
 * its own connection Secret there, `<name>-kubeconfig`, key `kubeconfig`, as Crossplane's
 * KubernetesCluster claims had: workloads are scheduled to the clusters of their own namespace.
 * Server-side apply, so reruns converge; the manifests, which hold client keys, go on stdin.
 * Needs the KubernetesCluster CRD (bootstrapCluster) first. Integration tests register clusters
 * in their own namespace with their own labels this way.
 */
export async function applyKubernetesClusters(
  controlKubeconfigPath: string,
  namespace: string,
  registrations: readonly KubernetesClusterRegistration[],
): Promise<void> {
  if (registrations.length === 0) return;
  await kubectl(
    controlKubeconfigPath,
    ['apply', '--server-side', '--field-manager=chronoplane-stack', '--force-conflicts', '-f', '-'],
    kubernetesClusterManifests(namespace, registrations)
      .map((manifest) => stringify(manifest))
      .join('---\n'),
  );
}

/** What applyKubernetesClusters applies: the namespace, then a connection Secret and a KubernetesCluster per registration. */
export function kubernetesClusterManifests(namespace: string, registrations: readonly KubernetesClusterRegistration[]): object[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    ...registrations.flatMap((registration) => [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          namespace,
          name: kubernetesClusterSecretName(registration.name),
          labels: { [REMOTE_CLUSTER_LABEL]: registration.cluster.name },
        },
        type: 'Opaque',
        data: { [REMOTE_CLUSTER_SECRET_KEY]: Buffer.from(registration.cluster.kubeconfig).toString('base64') },
      },
      {
        apiVersion: 'compute.crossplane.io/v1alpha1',
        kind: 'KubernetesCluster',
        metadata: { namespace, name: registration.name, labels: registration.labels },
        spec: { writeConnectionSecretToRef: { name: kubernetesClusterSecretName(registration.name) } },
      },
    ]),
  ];
}

/** Where examples/workload/ expects its KubernetesClusters. */
export const EXAMPLES_WORKLOAD_NAMESPACE = 'complex';

/**
 * The KubernetesClusters examples/workload/ schedules to, in namespace `complex`: the first
 * remote cluster as `wordpress-demo-cluster` (label app: wordpress-demo, which the seed's
 * wordpress-demo application selects) and the second as `other-cluster` (label app: other,
 * which it does not).
 */
export function exampleKubernetesClusters(
  clusters: readonly Pick<RemoteCluster, 'name' | 'kubeconfig'>[],
): KubernetesClusterRegistration[] {
  const examples = [
    { name: 'wordpress-demo-cluster', labels: { app: 'wordpress-demo' } },
    { name: 'other-cluster', labels: { app: 'other' } },
  ];
  return clusters.slice(0, examples.length).map((cluster, index) => ({ ...examples[index]!, cluster }));
}

/** Registers exampleKubernetesClusters in namespace `complex`, so that `kubectl apply -f examples/workload/` works. */
export function applyExampleKubernetesClusters(
  controlKubeconfigPath: string,
  clusters: readonly Pick<RemoteCluster, 'name' | 'kubeconfig'>[],
): Promise<void> {
  return applyKubernetesClusters(controlKubeconfigPath, EXAMPLES_WORKLOAD_NAMESPACE, exampleKubernetesClusters(clusters));
}
