// Failed passes by kind and failure class, on the worker's Prometheus endpoint
// (chronoplane_reconcile_failures): the dashboard's "Failures by class" panel. Emitted through
// the workflow's metric meter, which the SDK keeps quiet during replay, so a replayed pass is
// not counted twice.
import * as wf from '@temporalio/workflow';
import type { ResourceRef } from '#core/managed-kind';
import type { PassObservation } from '#contract/observation';

export const RECONCILE_FAILURES = 'chronoplane_reconcile_failures';

/** A failure no activity classified: a bug, or an error outside the classes of core/errors.ts. */
const UNCLASSIFIED = 'Unclassified';

export function countFailedPass(ref: ResourceRef, failureClass: string | undefined): void {
  wf.metricMeter
    .createCounter(RECONCILE_FAILURES, '1', 'Failed reconcile passes by kind and failure class')
    .add(1, { kind: ref.kind, class: failureClass ?? UNCLASSIFIED });
}

/**
 * The class of a failure the decision itself reports (no step ran into it): the provider's
 * observe failed with a class, another object owns the external resource, or references cannot
 * resolve as written.
 */
export function decisionFailureClass(observation: Extract<PassObservation, { found: true }>): string {
  if (observation.externalError) return observation.externalError.failureClass;
  if (observation.external?.ownedByAnother !== undefined) return 'OwnedByAnother';
  return 'UnresolvedReferences';
}
