// Seed 003's KubernetesApplicationResource, served as upstream's (see schema.ts): one object of a
// KubernetesApplication, submitted to the KubernetesCluster the application is scheduled to.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { KubernetesApplicationResourceSpec, ResourceObservation, kubernetesApplicationResourceApi } from './schema';
import { resourceStatus } from './status';

export const kubernetesApplicationResourceKind: ManagedKind<unknown, ResourceObservation> = {
  api: kubernetesApplicationResourceApi,
  // The spec is upstream's own (compatibleApi); the engine hands the client the whole of it.
  forProvider: KubernetesApplicationResourceSpec,
  atProvider: ResourceObservation,
  connector: lazyConnector(async () => (await import('./client')).kubernetesApplicationResourceConnector),
  // As Object's: the remote object is watched, so its changes wake the resource at once; the
  // polls are a safety net, and the pending one waits out a Namespace that is still emptying.
  poll: { steadySeconds: 600, pendingSeconds: 10 },
  // Server-side applies and deletes on an API server answer in milliseconds.
  quickProviderCalls: true,
  compatibleApi: {
    spec: KubernetesApplicationResourceSpec,
    status: resourceStatus,
    // Upstream's columns, as the seed's `kubectl get kubernetesapplicationresource` shows them.
    printerColumns: [
      { name: 'TEMPLATE-KIND', type: 'string', jsonPath: '.spec.template.kind' },
      { name: 'TEMPLATE-NAME', type: 'string', jsonPath: '.spec.template.metadata.name' },
      { name: 'CLUSTER', type: 'string', jsonPath: '.status.clusterRef.name' },
      { name: 'STATUS', type: 'string', jsonPath: '.status.state' },
    ],
  },
};
