// The rules of the controller's own ClusterRole (the Helm chart's), generated from the CRD list so
// that a kind added to the registry is covered without another edit, and no wider than what the
// worker and its embedded watcher call. Each verb below names the code that needs it; a verb that
// no code uses does not belong here. Nothing is granted with `*`.
//
// A connection Secret's owner reference sets blockOwnerDeletion (activities/connection-secret.ts).
// Where the OwnerReferencesPermissionEnforcement admission plugin runs (it is off by default;
// OpenShift turns it on), that needs `update` on the owner's `<plural>/finalizers` as well; such
// a cluster adds it through the chart's `rbac.extraRules`.
//
// Not covered, by design: what an Object does in a cluster it reaches with the worker's own
// identity (InjectedIdentity from a ClusterProviderConfig or a legacy ProviderConfig), and the
// kinds that generic references (`fromObject`, `patchesFrom`, `dependsOn`) name outside
// Chronoplane's own. Both depend on what a cluster admin lets Objects manage; the chart takes
// them as `rbac.extraRules`.
import { allCrds } from '#providers/all-crds';
import { managedKinds } from '#providers/registry';
import { INJECTED_IDENTITY_SERVICE_ACCOUNT } from '#providers/kubernetes/cluster-connection';
import { kubernetesClusterApi } from '#providers/kubernetes/workload/cluster';
import { namespacedObjectKind, objectKind } from '#providers/kubernetes/object/index';
import { kubernetesApplicationResourceKind } from '#providers/kubernetes/workload/resource/index';
import type { KindApi } from '#core/managed-kind';

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/**
 * On every managed kind. get: KubeAccess.get (reads the object cache cannot answer, deletion
 * guards, references to managed objects). list and watch: the object cache's and the watcher's
 * informers (runtime/informers.ts), the sweeps (activities/sweep-list.ts), KubeAccess.list.
 * patch: KubeAccess.patch (external name, late-initialized spec, the referred-objects record, the
 * finalizer after a stale read), changeMetadataIfUnchanged (the finalizer from a cached read),
 * patchAnnotations (in-use marks).
 */
const MANAGED_VERBS = ['get', 'list', 'watch', 'patch'];
/**
 * update: KubeAccess.replace, only where an object is replaced whole: the strict write (and its
 * dry run) of resolved reference values (activities/references.ts) on kinds that have references,
 * declared or generic (`spec.references`); and a KubernetesApplication's update of its
 * KubernetesApplicationResources (providers/kubernetes/workload/application/client.ts).
 */
const REPLACE_VERBS = ['update'];
/** KubeAccess.patchStatus: a JSON patch of the status subresource. */
const STATUS_VERBS = ['patch'];

/**
 * Managed kinds whose objects other kinds create and delete on the control cluster, with who
 * does: ObservedObjectCollections apply (server-side; it creates) and delete their member
 * Objects (providers/kubernetes/collection/client.ts); a KubernetesApplication creates and
 * deletes its KubernetesApplicationResources (providers/kubernetes/workload/application/client.ts).
 */
const CREATED_BY_OTHER_KINDS: readonly KindApi[] = [objectKind.api, namespacedObjectKind.api, kubernetesApplicationResourceKind.api];
const CHILD_VERBS = ['create', 'delete'];

/**
 * CRDs without a controller that passes read through the shared control-cluster watches
 * (KubeAccess.readControlObject and listControlObjects), so they list and watch as well as get.
 */
const WATCHED_UNMANAGED: readonly KindApi[] = [kubernetesClusterApi];

const CORE_RULES: PolicyRule[] = [
  {
    // get: credentials and kubeconfigs that ProviderConfigs and KubernetesClusters name
    // (KubeAccess.getSecretValue), connection Secrets (readSecret). list and watch: a
    // KubernetesApplicationResource's source Secrets come from the shared watch
    // (KubeAccess.readControlObject). create and update: connection Secrets
    // (KubeAccess.createSecret, replaceSecret).
    apiGroups: [''],
    resources: ['secrets'],
    verbs: ['get', 'list', 'watch', 'create', 'update'],
  },
  {
    // Which namespaces a ClusterProviderConfig serves goes by their labels
    // (KubeAccess.getNamespaceLabels): a shared watch, and a get until it has synced.
    apiGroups: [''],
    resources: ['namespaces'],
    verbs: ['get', 'list', 'watch'],
  },
  {
    // KubeAccess.createEvent: core/v1 Events, each one new (never patched).
    apiGroups: [''],
    resources: ['events'],
    verbs: ['create'],
  },
  {
    // A namespaced ProviderConfig's InjectedIdentity acts as that namespace's ServiceAccount of
    // this name (providers/kubernetes/cluster-connection.ts), and as nothing else.
    apiGroups: [''],
    resources: ['serviceaccounts'],
    verbs: ['impersonate'],
    resourceNames: [INJECTED_IDENTITY_SERVICE_ACCOUNT],
  },
];

const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** One rule per group, for `resourcesOf(api)` of each of `apis`, groups and resources sorted so the YAML is stable. */
function rulesByGroup(apis: readonly KindApi[], resourcesOf: (api: KindApi) => string[], verbs: string[]): PolicyRule[] {
  const byGroup = new Map<string, string[]>();
  for (const api of apis) byGroup.set(api.group, [...(byGroup.get(api.group) ?? []), ...resourcesOf(api)]);
  return [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, resources]) => ({ apiGroups: [group], resources: sortedUnique(resources), verbs: [...verbs] }));
}

/** The CRDs that are not managed kinds: ProviderConfigs of every flavour, KubernetesClusters. */
function unmanagedCrdApis(): KindApi[] {
  const managed = new Set(managedKinds.map((k) => `${k.api.plural}.${k.api.group}`));
  return allCrds()
    .filter((crd) => !managed.has(crd.metadata.name))
    .map((crd) => ({ group: crd.spec.group, plural: crd.spec.names.plural }) as KindApi);
}

/** Whether resolving the kind's references can write values into its objects (a replace). */
function writesResolvedValues(kind: (typeof managedKinds)[number]): boolean {
  if ((kind.references ?? []).length > 0) return true;
  const crd = allCrds().find((c) => c.metadata.name === `${kind.api.plural}.${kind.api.group}`);
  return (crd?.spec.versions ?? []).some((version) => {
    const spec = (version.schema?.openAPIV3Schema?.properties as Record<string, any> | undefined)?.spec;
    return spec?.properties?.references !== undefined;
  });
}

const isWatchedUnmanaged = (api: KindApi) => WATCHED_UNMANAGED.some((w) => w.group === api.group && w.plural === api.plural);

/**
 * Grants that only a fallback uses, which a run may well never reach, each with the path that
 * needs it; least-privilege.test.ts accepts these unused and nothing else. Keep it short: every
 * entry is a verb no test proves.
 */
export const FALLBACK_ONLY_GRANTS: readonly { permission: string; usedBy: string }[] = [
  {
    // `group resource verb`, as test/integration/audit-log.ts names permissions.
    permission: 'compute.crossplane.io kubernetesclusters get',
    usedBy: 'KubeAccess.getReferenced: a KubernetesCluster read before the shared watch of its kind has synced',
  },
];

/** The controller's ClusterRole rules. */
export function controllerRules(): PolicyRule[] {
  const managed = managedKinds.map((k) => k.api);
  const unmanaged = unmanagedCrdApis();
  return [
    ...rulesByGroup(managed, (api) => [api.plural], MANAGED_VERBS),
    ...rulesByGroup(
      [...managedKinds.filter(writesResolvedValues).map((k) => k.api), kubernetesApplicationResourceKind.api],
      (api) => [api.plural],
      REPLACE_VERBS,
    ),
    ...rulesByGroup(managed, (api) => [`${api.plural}/status`], STATUS_VERBS),
    ...rulesByGroup(CREATED_BY_OTHER_KINDS, (api) => [api.plural], CHILD_VERBS),
    // ProviderConfigs are read by name when a pass connects (runtime/provider-config.ts).
    ...rulesByGroup(
      unmanaged.filter((api) => !isWatchedUnmanaged(api)),
      (api) => [api.plural],
      ['get'],
    ),
    ...rulesByGroup(unmanaged.filter(isWatchedUnmanaged), (api) => [api.plural], ['get', 'list', 'watch']),
    ...CORE_RULES.map((rule) => ({ ...rule, verbs: [...rule.verbs] })),
  ];
}

/**
 * The Role in the release namespace that leader election needs (watcher/leader-election.ts): the
 * watcher's Lease read, created and renewed or released (a replace: update), and watched so that
 * a candidate sees a renewal, or a release, within moments. Not narrowed by name: the Lease's
 * name follows the task queue and watch namespace (watcher/setup.ts leaseName), and `create`
 * cannot be narrowed by name anyway.
 */
export const LEADER_ELECTION_RULES: PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'watch', 'create', 'update'] },
];
