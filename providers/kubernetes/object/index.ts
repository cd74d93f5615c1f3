// provider-kubernetes' Object, served exactly as upstream's (see schema.ts): any Kubernetes
// object in the cluster a ProviderConfig names, applied server-side with a field manager of its own.
import { lazyConnector, type ManagedKind } from '../../../runtime/managed-kind';
import { OBJECT_OLDER_VERSIONS, OBJECT_PATCH_ROOT, ObjectObservation, ObjectParameters, ObjectSpec, objectApi } from './schema';

export const objectKind: ManagedKind<ObjectParameters, ObjectObservation> = {
  api: objectApi,
  forProvider: ObjectParameters,
  atProvider: ObjectObservation,
  connector: lazyConnector(async () => (await import('./client')).objectConnector),
  // The target objects are watched (one watch per cluster and kind), so changes there wake the
  // Object at once; both polls are only a safety net: for a target not Ready yet (a Deployment
  // rolling out) and one still being deleted (a Namespace emptying), the watch wakes it sooner.
  poll: { steadySeconds: 600, pendingSeconds: 10 },
  // Server-side applies and deletes on an API server answer in milliseconds.
  quickProviderCalls: true,
  compatibleApi: {
    spec: ObjectSpec,
    olderVersions: OBJECT_OLDER_VERSIONS,
    patchRoot: OBJECT_PATCH_ROOT,
    // provider-kubernetes' own columns, so `kubectl get objects` reads the same.
    printerColumns: [
      { name: 'KIND', type: 'string', jsonPath: '.spec.forProvider.manifest.kind' },
      { name: 'APIVERSION', type: 'string', jsonPath: '.spec.forProvider.manifest.apiVersion', priority: 1 },
      { name: 'METANAME', type: 'string', jsonPath: '.spec.forProvider.manifest.metadata.name', priority: 1 },
      { name: 'METANAMESPACE', type: 'string', jsonPath: '.spec.forProvider.manifest.metadata.namespace', priority: 1 },
      { name: 'PROVIDERCONFIG', type: 'string', jsonPath: '.spec.providerConfigRef.name' },
      { name: 'SYNCED', type: 'string', jsonPath: ".status.conditions[?(@.type=='Synced')].status" },
      { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  },
};
