// A KubernetesApplication's status in upstream's shape (CompatibleStatus): the engine keeps
// atProvider (the cluster and the two counts) and the conditions; this maps them to the fields
// `kubectl get kubernetesapplication` shows, with `state` derived from them. Pure.
import type { Condition } from '#core/conditions';
import type { CompatibleStatus } from '#core/managed-kind';
import { pendingOrFailed } from '../states';
import { applicationStatusFields, type ApplicationObservation, type ApplicationState } from './schema';

/**
 * Pending until a cluster is chosen (a failed scheduling included: it waits for a cluster);
 * Failed while the last pass failed (a pause is no failure); then by how many of its resources
 * are Submitted: all, some, or none yet.
 */
export function applicationStateOf(atProvider: ApplicationObservation | undefined, conditions: readonly Condition[]): ApplicationState {
  const first = pendingOrFailed(atProvider?.clusterRef !== undefined, conditions);
  if (first) return first;
  const submitted = atProvider?.submittedResources ?? 0;
  if (submitted === (atProvider?.desiredResources ?? 0)) return 'Submitted';
  return submitted > 0 ? 'PartiallySubmitted' : 'Scheduled';
}

export const applicationStatus: CompatibleStatus<ApplicationObservation> = {
  fields: applicationStatusFields,
  write: (atProvider, conditions) => ({
    state: applicationStateOf(atProvider, conditions),
    clusterRef: atProvider?.clusterRef,
    desiredResources: atProvider?.desiredResources,
    submittedResources: atProvider?.submittedResources,
  }),
  read: (status) => {
    const observed = Object.fromEntries(
      (['clusterRef', 'desiredResources', 'submittedResources'] as const)
        .filter((field) => status[field] !== undefined && status[field] !== null)
        .map((field) => [field, status[field]]),
    ) as ApplicationObservation;
    return Object.keys(observed).length > 0 ? observed : undefined;
  },
};
