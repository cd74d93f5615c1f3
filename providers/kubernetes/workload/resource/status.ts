// A KubernetesApplicationResource's status in upstream's shape (CompatibleStatus): the engine
// keeps atProvider (the cluster and the remote object's status) and the conditions, and this
// maps them to `clusterRef`, `remote` and the derived `state` that `kubectl get` shows. Pure.
import type { Condition } from '#core/conditions';
import type { CompatibleStatus } from '#core/managed-kind';
import { pendingOrFailed } from '../states';
import { resourceStatusFields, type ClusterReference, type ResourceObservation, type ResourceState } from './schema';

/**
 * Pending until a cluster is known; Failed while the last pass failed (a pause is no failure);
 * Submitted once the object and its Secrets are in the cluster as specified; Scheduled between.
 */
/** How a NotScheduled error's message starts (scheduling.ts): the one failure that leaves a resource Pending. */
export const NOT_SCHEDULED = 'not scheduled: ';

export function stateOf(atProvider: ResourceObservation | undefined, conditions: readonly Condition[]): ResourceState {
  // The cluster is recorded by a pass that reached it. A pass that found the cluster but could
  // not connect to it (its Secret missing, its kubeconfig refused) records nothing, yet the
  // resource is scheduled, and failing: Failed, so its application reports it as such, not as
  // a resource on its way.
  const synced = conditions.find((c) => c.type === 'Synced');
  const failedWhileScheduled = synced?.status === 'False' && !(synced.message ?? '').startsWith(NOT_SCHEDULED);
  const first = pendingOrFailed(atProvider?.clusterRef !== undefined || failedWhileScheduled, conditions);
  if (first) return first;
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Submitted' : 'Scheduled';
}

export const resourceStatus: CompatibleStatus<ResourceObservation> = {
  fields: resourceStatusFields,
  write: (atProvider, conditions) => ({
    state: stateOf(atProvider, conditions),
    clusterRef: atProvider?.clusterRef,
    remote: atProvider?.remote,
  }),
  read: (status) => {
    const clusterRef = status.clusterRef as ClusterReference | undefined;
    const remote = status.remote as Record<string, unknown> | undefined;
    return clusterRef || remote ? { ...(clusterRef ? { clusterRef } : {}), ...(remote ? { remote } : {}) } : undefined;
  },
};
