// provider-kubernetes' Object, served exactly as upstream's in both of its groups: the legacy
// cluster-scoped kubernetes.crossplane.io (schema.ts) and Crossplane v2's namespaced
// kubernetes.m.crossplane.io (namespaced-schema.ts). Any Kubernetes object in the cluster its
// provider config names, applied server-side with a field manager of its own; one client
// serves both groups.
import { lazyConnector, type ManagedKind, type PrinterColumn } from '#core/managed-kind';
import { OBJECT_OLDER_VERSIONS, OBJECT_PATCH_ROOT, ObjectObservation, ObjectParameters, ObjectSpec, objectApi } from './schema';
import { NamespacedObjectParameters, NamespacedObjectSpec, namespacedObjectApi } from './namespaced-schema';
import { desiredObject } from './target';

// provider-kubernetes' own columns (the same in both groups), so `kubectl get objects` reads the same.
const printerColumns: readonly PrinterColumn[] = [
  { name: 'KIND', type: 'string', jsonPath: '.spec.forProvider.manifest.kind' },
  { name: 'APIVERSION', type: 'string', jsonPath: '.spec.forProvider.manifest.apiVersion', priority: 1 },
  { name: 'METANAME', type: 'string', jsonPath: '.spec.forProvider.manifest.metadata.name', priority: 1 },
  { name: 'METANAMESPACE', type: 'string', jsonPath: '.spec.forProvider.manifest.metadata.namespace', priority: 1 },
  { name: 'PROVIDERCONFIG', type: 'string', jsonPath: '.spec.providerConfigRef.name' },
  { name: 'SYNCED', type: 'string', jsonPath: ".status.conditions[?(@.type=='Synced')].status" },
  { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

const connector = lazyConnector(async () => (await import('./client')).objectConnector);

// The target objects are watched (one watch per cluster and kind), so changes there wake the
// Object at once; both polls are only a safety net: for a target not Ready yet (a Deployment
// rolling out) and one still being deleted (a Namespace emptying), the watch wakes it sooner.
const poll = { steadySeconds: 600, pendingSeconds: 10 };

// The external name is the target's name, which the manifest (or else the Object's name) gives.
const externalNameBeforeCreate: ManagedKind<ObjectParameters, ObjectObservation>['externalNameBeforeCreate'] = (mr) =>
  mr.spec.forProvider?.manifest ? desiredObject(mr).metadata.name : undefined;

export const objectKind: ManagedKind<ObjectParameters, ObjectObservation> = {
  api: objectApi,
  forProvider: ObjectParameters,
  atProvider: ObjectObservation,
  connector,
  poll,
  // Server-side applies and deletes on an API server answer in milliseconds.
  quickProviderCalls: true,
  externalNameBeforeCreate,
  compatibleApi: { spec: ObjectSpec, olderVersions: OBJECT_OLDER_VERSIONS, patchRoot: OBJECT_PATCH_ROOT, printerColumns },
};

export const namespacedObjectKind: ManagedKind<ObjectParameters, ObjectObservation> = {
  api: namespacedObjectApi,
  forProvider: NamespacedObjectParameters,
  atProvider: ObjectObservation,
  connector,
  poll,
  quickProviderCalls: true,
  externalNameBeforeCreate,
  compatibleApi: { spec: NamespacedObjectSpec, patchRoot: OBJECT_PATCH_ROOT, printerColumns },
};
