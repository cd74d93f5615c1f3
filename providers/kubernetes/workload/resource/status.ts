// A KubernetesApplicationResource's status in upstream's shape (CompatibleStatus): the engine
// keeps atProvider (the cluster and the remote object's status) and the conditions, and this
// maps them to `clusterRef`, `remote` and the derived `state` that `kubectl get` shows. Pure.
import type { Condition } from '../../../../apis/conditions';
import type { CompatibleStatus } from '../../../../runtime/managed-kind';
import { pendingOrFailed } from '../states';
import { resourceStatusFields, type ClusterReference, type ResourceObservation, type ResourceState } from './schema';

/**
 * Pending until a cluster is known; Failed while the last pass failed (a pause is no failure);
 * Submitted once the object and its Secrets are in the cluster as specified; Scheduled between.
 */
export function stateOf(atProvider: ResourceObservation | undefined, conditions: readonly Condition[]): ResourceState {
  const first = pendingOrFailed(atProvider?.clusterRef !== undefined, conditions);
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
