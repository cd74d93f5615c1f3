// KubernetesApplication (workload.crossplane.io/v1alpha1), served exactly as seed 003 shows it
// (see schema.ts): scheduled to a KubernetesCluster by its create, reconciled into its
// KubernetesApplicationResources by its update, and torn down in reverse waves by its delete.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { ApplicationObservation, KubernetesApplicationSpec, kubernetesApplicationApi } from './schema';
import { applicationStatus } from './status';

export const kubernetesApplicationKind: ManagedKind<unknown, ApplicationObservation> = {
  api: kubernetesApplicationApi,
  // A compatible kind has no forProvider: the CRD takes compatibleApi.spec, and the client reads the spec whole.
  forProvider: KubernetesApplicationSpec,
  atProvider: ApplicationObservation,
  connector: lazyConnector(async () => (await import('./client')).kubernetesApplicationConnector),
  // Its resources' changes (and, while Pending, a matching cluster's) wake it by watch, so both
  // polls are only a safety net: pending while resources are being submitted or deleted, steady
  // for a settled application, whose resources would wake it anyway if they were edited. The
  // pending one is not short for that reason: a resource that fails for long (its cluster
  // broken) backs off, and wakes the application when it changes; 10 s kept the application
  // passing six times a minute for as long as that lasted.
  poll: { steadySeconds: 600, pendingSeconds: 30 },
  // Its calls are to the control cluster's own API server, which answers in milliseconds.
  quickProviderCalls: true,
  compatibleApi: {
    spec: KubernetesApplicationSpec,
    // Upstream's columns, exactly: `kubectl get kubernetesapplication` reads as seed 003 shows.
    printerColumns: [
      { name: 'CLUSTER', type: 'string', jsonPath: '.status.clusterRef.name' },
      { name: 'STATUS', type: 'string', jsonPath: '.status.state' },
      { name: 'DESIRED', type: 'integer', jsonPath: '.status.desiredResources' },
      { name: 'SUBMITTED', type: 'integer', jsonPath: '.status.submittedResources' },
    ],
    status: applicationStatus,
  },
};
