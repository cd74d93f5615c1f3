// The ClusterRoles that let a namespace's own users manage Chronoplane's kinds there, generated
// from the CRD list so that a kind added to the registry is covered without another edit.
// They aggregate into Kubernetes' built-in `admin`, `edit` and `view` (the clusterrole-
// aggregation controller of kube-controller-manager copies their rules in), so a RoleBinding to
// `admin` or `edit` in one namespace grants them there and nowhere else. Cluster-scoped kinds
// (ClusterProviderConfigs, the legacy cluster-scoped Object and ProviderConfigs) are in neither:
// whoever creates one acts for the whole cluster, which is a cluster admin's decision.
import { allCrds } from '#providers/all-crds';

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

export const EDIT_ROLE = 'chronoplane-aggregate-to-edit';
export const VIEW_ROLE = 'chronoplane-aggregate-to-view';

/** Kubernetes' own `view` verbs. */
const VIEW_VERBS = ['get', 'list', 'watch'];
/**
 * Kubernetes' own `edit` verbs for an object's main resource. Never on `/status`: as in
 * Kubernetes' and Crossplane's roles, a user may read the status the controller writes, not
 * forge it (a Ready=True the controller did not decide would mislead whoever depends on it).
 */
const EDIT_VERBS = ['create', 'delete', 'deletecollection', 'patch', 'update', ...VIEW_VERBS];

export interface ClusterRole {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole';
  metadata: { name: string; labels: Record<string, string> };
  rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
}

/** Group → plurals of every namespaced CRD Chronoplane installs, both sorted, so the YAML is stable. */
function namespacedResourcesByGroup(): [string, string[]][] {
  const byGroup = new Map<string, string[]>();
  for (const crd of allCrds()) {
    if (crd.spec.scope !== 'Namespaced') continue;
    byGroup.set(crd.spec.group, [...(byGroup.get(crd.spec.group) ?? []), crd.spec.names.plural]);
  }
  return [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([group, plurals]) => [group, plurals.sort()]);
}

function clusterRole(name: string, aggregateTo: string[], rules: ClusterRole['rules']): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { 'app.kubernetes.io/part-of': 'chronoplane', ...Object.fromEntries(aggregateTo.map((label) => [label, 'true'])) },
    },
    rules,
  };
}

/** The two aggregated roles: edit (into `admin` and `edit`) and view (into `admin`, `edit` and `view`). */
export function aggregatedRoles(): ClusterRole[] {
  const groups = namespacedResourcesByGroup();
  return [
    clusterRole(
      EDIT_ROLE,
      [AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT],
      groups.map(([group, plurals]) => ({ apiGroups: [group], resources: plurals, verbs: [...EDIT_VERBS] })),
    ),
    clusterRole(
      VIEW_ROLE,
      [AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW],
      groups.map(([group, plurals]) => ({
        apiGroups: [group],
        resources: plurals.flatMap((plural) => [plural, `${plural}/status`]),
        verbs: [...VIEW_VERBS],
      })),
    ),
  ];
}
