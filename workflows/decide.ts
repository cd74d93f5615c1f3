// One reconcile pass as a pure decision, following seed 004's flow: paused? → finalizer →
// deleting? → exists? → create / late-initialize / update / nothing. Given what the observe
// activity saw, it says which side effects to run, what the conditions become if they succeed,
// and when to look again. No I/O and no clock: easy to unit test, safe to replay.
import {
  available,
  creating,
  deleting,
  reconcileError,
  reconcilePaused,
  reconcileSuccess,
  unavailable,
  type ConditionUpdate,
} from '../apis/conditions';
import type { ManagementAction } from '../apis/managed';
import type { ExternalSnapshot, ObjectSnapshot } from './observation';

export type Step =
  | { kind: 'addFinalizer' }
  | { kind: 'create' }
  | { kind: 'lateInitialize'; fields: Record<string, unknown> }
  | { kind: 'update'; diff?: string }
  | { kind: 'delete' }
  | { kind: 'removeFinalizer' };

/** When to run the next pass, absent a signal: the "when to requeue" table of seed 004. */
export type NextPass =
  | 'steady' // settled: poll for drift at the kind's steady interval
  | 'pending' // something is in flight: re-observe soon
  | 'backoff' // an error: wait longer after each consecutive failure
  | 'signal'; // nothing to poll (paused): wait for the object to change

export interface Plan {
  steps: Step[];
  conditions: ConditionUpdate[];
  next: NextPass;
  /** The object is gone or released: the workflow ends after the steps. */
  complete: boolean;
}

export function allows(policies: readonly ManagementAction[], action: ManagementAction): boolean {
  return policies.includes('*') || policies.includes(action);
}

export function decide(object: ObjectSnapshot, external: ExternalSnapshot | undefined, providerError?: string): Plan {
  if (object.paused) return { steps: [], conditions: [reconcilePaused()], next: 'signal', complete: false };

  const steps: Step[] = [];
  if (!object.deleting && !object.hasFinalizer) steps.push({ kind: 'addFinalizer' });

  if (providerError !== undefined || external === undefined) {
    return {
      steps,
      conditions: [reconcileError(providerError ?? 'the external resource could not be observed')],
      next: 'backoff',
      complete: false,
    };
  }

  const policies = object.managementPolicies;
  if (object.deleting) {
    const deleteExternal = object.deletionPolicy === 'Delete' && allows(policies, 'Delete');
    if (external.resourceExists && deleteExternal) {
      return { steps: [{ kind: 'delete' }], conditions: [deleting(), reconcileSuccess()], next: 'pending', complete: false };
    }
    // Gone, orphaned, or not ours to delete: release the object.
    const release: Step[] = object.hasFinalizer ? [{ kind: 'removeFinalizer' }] : [];
    return { steps: release, conditions: [], next: 'signal', complete: true };
  }

  if (!external.resourceExists) {
    if (!allows(policies, 'Create')) {
      const message = object.externalName
        ? `external resource ${object.externalName} does not exist, and the management policies do not allow Create`
        : 'no external resource is named by crossplane.io/external-name, and the management policies do not allow Create';
      return { steps, conditions: [unavailable(), reconcileError(message)], next: 'steady', complete: false };
    }
    return { steps: [...steps, { kind: 'create' }], conditions: [creating(), reconcileSuccess()], next: 'pending', complete: false };
  }

  if (external.lateInitialized && allows(policies, 'LateInitialize')) {
    steps.push({ kind: 'lateInitialize', fields: external.lateInitialized });
  }
  const update = !external.resourceUpToDate && allows(policies, 'Update');
  if (update) steps.push({ kind: 'update', diff: external.diff });

  const ready = readinessCondition(external);
  const settled = external.readiness === 'Available' && !update;
  return { steps, conditions: [ready, reconcileSuccess()], next: settled ? 'steady' : 'pending', complete: false };
}

function readinessCondition(external: ExternalSnapshot): ConditionUpdate {
  switch (external.readiness) {
    case 'Available':
      return available();
    case 'Creating':
      return creating();
    case 'Deleting':
      return deleting();
    default:
      return unavailable();
  }
}

/** Seconds until the next pass. Failures back off exponentially, capped, and never hot-loop. */
export function secondsUntilNextPass(
  next: NextPass,
  poll: { steadySeconds: number; pendingSeconds: number },
  consecutiveFailures: number,
): number | undefined {
  switch (next) {
    case 'steady':
      return poll.steadySeconds;
    case 'pending':
      return poll.pendingSeconds;
    case 'backoff':
      return backoffSeconds(consecutiveFailures);
    case 'signal':
      return undefined;
  }
}

/** 5 s, 10 s, 20 s … after each consecutive failure, capped at 5 minutes. */
export function backoffSeconds(consecutiveFailures: number): number {
  return Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.max(0, consecutiveFailures - 1), BACKOFF_MAX_SECONDS);
}

export const BACKOFF_BASE_SECONDS = 5;
export const BACKOFF_MAX_SECONDS = 300;
