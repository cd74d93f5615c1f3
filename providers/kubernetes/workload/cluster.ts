// KubernetesCluster (compute.crossplane.io/v1alpha1, the seed's era): a cluster that
// KubernetesApplications in the same namespace can be scheduled to. A plain CRD, no controller:
// its labels are what an application's clusterSelector matches, and its connection Secret
// (Crossplane's `writeConnectionSecretToRef`, key `kubeconfig`) is how Chronoplane reaches it
// (providers/kubernetes/cluster-connection.ts, shared with provider-kubernetes' ProviderConfig).
import type { Static } from '@sinclair/typebox';
import { crd } from '#apis/crd';
import { Doc, DocString } from '#core/schema';
import type { ControlObjectKey } from '#core/external-client';
import type { KindApi } from '#core/managed-kind';

export const kubernetesClusterApi: KindApi = {
  group: 'compute.crossplane.io',
  version: 'v1alpha1',
  kind: 'KubernetesCluster',
  plural: 'kubernetesclusters',
  singular: 'kubernetescluster',
  shortNames: ['kcluster'],
  categories: ['crossplane', 'claim', 'compute'],
  description:
    'A Kubernetes cluster that KubernetesApplications in this namespace can be scheduled to. ' +
    'Its labels are what an application\u2019s clusterSelector matches; its connection Secret holds the kubeconfig to reach it.',
  scope: 'Namespaced',
};

export const KUBERNETES_CLUSTER_API_VERSION = `${kubernetesClusterApi.group}/${kubernetesClusterApi.version}`;

/** The key of the connection Secret that holds the kubeconfig (Crossplane's connection-secret key for clusters). */
export const KUBECONFIG_SECRET_KEY = 'kubeconfig';

export const KubernetesClusterSpec = Doc('How to reach the cluster.', {
  writeConnectionSecretToRef: Doc(
    'The Secret, in the namespace of this KubernetesCluster, that holds the cluster\u2019s connection details. ' +
      `Its key "${KUBECONFIG_SECRET_KEY}" holds a kubeconfig whose current context names the cluster\u2019s server and ` +
      'embeds its credentials (no file paths).',
    { name: DocString('Name of the Secret.', { minLength: 1 }) },
  ),
});
export type KubernetesClusterSpec = Static<typeof KubernetesClusterSpec>;

const KubernetesClusterStatus = Doc(
  'Observed state of the KubernetesCluster. None yet: no controller runs for KubernetesClusters; Chronoplane reads them ' +
    'when it schedules a KubernetesApplication and when it connects to the cluster.',
  {},
);

/** A KubernetesCluster as read from the control cluster. */
export interface KubernetesCluster {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string>; uid?: string };
  spec: KubernetesClusterSpec;
}

/** Which KubernetesCluster: always one in the namespace of what refers to it. */
export interface KubernetesClusterRef {
  namespace: string;
  name: string;
}

/** The key ConnectContext's readControlObject takes for this KubernetesCluster. */
export function kubernetesClusterKey(ref: KubernetesClusterRef): ControlObjectKey {
  return { apiVersion: KUBERNETES_CLUSTER_API_VERSION, kind: kubernetesClusterApi.kind, namespace: ref.namespace, name: ref.name };
}

/** The scope ConnectContext's listControlObjects takes for every KubernetesCluster of a namespace (scheduling). */
export function kubernetesClusterScope(namespace: string): Omit<ControlObjectKey, 'name'> {
  return { apiVersion: KUBERNETES_CLUSTER_API_VERSION, kind: kubernetesClusterApi.kind, namespace };
}

export function kubernetesClusterCrd() {
  return crd({
    api: kubernetesClusterApi,
    scope: 'Namespaced',
    spec: KubernetesClusterSpec,
    status: KubernetesClusterStatus,
    printerColumns: [
      { name: 'CONNECTION-SECRET', type: 'string', jsonPath: '.spec.writeConnectionSecretToRef.name' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
}
