// Registering the run's remote clusters (remote-1, remote-2) as KubernetesClusters in a test's
// own namespace, with the test's own labels, the way `npm run up` registers them in `complex`
// (stack/remote-clusters.ts applyKubernetesClusters): a connection Secret `<name>-kubeconfig`
// and a KubernetesCluster naming it, per cluster.
import { inject } from 'vitest';
import { applyKubernetesClusters } from '#stack/remote-clusters';
import { remoteCluster } from './harness';

interface TestKubernetesCluster {
  /** The KubernetesCluster's name. */
  name: string;
  /** Which of the run's remote clusters it stands for: 'remote-1' or 'remote-2'. */
  remote: string;
  labels: Record<string, string>;
}

export async function registerKubernetesClusters(namespace: string, clusters: readonly TestKubernetesCluster[]): Promise<void> {
  await applyKubernetesClusters(
    inject('kubeconfigPath'),
    namespace,
    clusters.map((cluster) => ({ name: cluster.name, labels: cluster.labels, cluster: remoteCluster(cluster.remote) })),
  );
}
