// One reconcile pass as a pure decision, following seed 004's flow: paused? → finalizer →
// another object's? → deleting? → references resolved? → exists? → create / late-initialize /
// update / nothing.
// Given what the observe activity saw, it says which side effects to run, what the conditions
// become if they succeed, and when to look again. No I/O and no clock: easy to unit test, safe
// to replay.
import {
  available,
  creating,
  deleting,
  reconcileError,
  reconcilePaused,
  reconcileSuccess,
  referencesResolved,
  referencesUnresolved,
  ReadyReason,
  unavailable,
  WAITING_FOR_DEPENDENTS,
  type ConditionUpdate,
} from '#core/conditions';
import { allows, deletesExternal } from '#core/management-policies';
import type { PollIntervals } from '#core/managed-kind';
import type { ExternalSnapshot, NoExternal, ObjectSnapshot, OwnedExternal, ReferenceObservation } from '#contract/observation';

export type Step =
  | { kind: 'addFinalizer' }
  /** Write resolved reference values into the object and mark what it depends on as in use. */
  | { kind: 'resolveReferences'; what: string[] }
  /** Take this object's in-use marks off what it depends on. */
  | { kind: 'releaseDependencies' }
  | { kind: 'create' }
  | { kind: 'lateInitialize'; fields: Record<string, unknown> }
  | { kind: 'update'; diff?: string }
  | { kind: 'delete' }
  | { kind: 'removeFinalizer' };

/** When to run the next pass, absent a signal: the "when to requeue" table of seed 004. */
type NextPass =
  | 'settled' // up to date and available: wait for the kind's sweep to find drift, or poll steady
  | 'steady' // absent, and Create is not allowed: look again at the kind's steady interval
  | 'pending' // something is in flight: re-observe soon
  | 'backoff' // an error: wait longer after each consecutive failure
  | 'dependency' // waiting for another object: its change wakes us by signal; the steady poll is a safety net
  | 'signal'; // nothing to poll (paused): wait for the object to change

interface Plan {
  steps: Step[];
  conditions: ConditionUpdate[];
  next: NextPass;
  /** The object is gone or released: the workflow ends after the steps. */
  complete: boolean;
  /** Why this pass fails even if every step succeeds (the provider, or references in error). */
  error?: string;
}

/** What else the observe activity found, besides the object and the external resource. */
interface DecideContext {
  providerError?: string;
  /**
   * The provider did not answer at all (FailureClass Unreachable): nobody knows the external
   * resource's state, so it is not reported Ready until the provider answers again.
   */
  providerUnreachable?: boolean;
  references?: ReferenceObservation;
  /** While deleting: dependents that still hold the object (seed 002, "Uninstall Order"). */
  blockers?: string[];
}

export function decide(object: ObjectSnapshot, external: ExternalSnapshot | undefined, context: DecideContext = {}): Plan {
  if (object.paused) return { steps: [], conditions: [reconcilePaused()], next: 'signal', complete: false };

  const { providerError, references } = context;
  const steps: Step[] = [];
  if (!object.deleting && !object.hasFinalizer) steps.push({ kind: 'addFinalizer' });
  const deleteExternal = deletesExternal(object);
  // Gone, orphaned, or not ours to delete: let go of what it depends on, then of the object.
  const release = (): Plan => ({
    steps: [
      ...(references?.dependsOnManaged ? [{ kind: 'releaseDependencies' } as const] : []),
      ...(object.hasFinalizer ? [{ kind: 'removeFinalizer' } as const] : []),
    ],
    conditions: [],
    next: 'signal',
    complete: true,
  });

  // Orphaned, or not ours to delete: released without a word from the provider, as Crossplane
  // does, so a broken ProviderConfig cannot hold it.
  if (object.deleting && !deleteExternal) return release();

  if (providerError !== undefined || external === undefined) {
    const error = providerError ?? 'the external resource could not be observed';
    const readiness = object.deleting ? [deleting(deletionBlockedBy(error))] : context.providerUnreachable ? [unavailable(error)] : [];
    return { steps, conditions: [...readiness, reconcileError(error)], next: 'backoff', complete: false, error };
  }

  if (external.ownedByAnother !== undefined) {
    // Another existing object owns the external resource: this one never did, so it neither
    // changes nor deletes it, and lets go of the object when asked to without touching it.
    if (object.deleting) return release();
    const message = external.ownedByAnother;
    return { steps, conditions: [unavailable(message), reconcileError(message)], next: 'backoff', complete: false, error: message };
  }

  const policies = object.managementPolicies;
  if (object.deleting) {
    if (!external.resourceExists || !deleteExternal) return release();
    const blockers = context.blockers ?? [];
    if (blockers.length > 0) {
      // No delete call while dependents exist: the provider would refuse it (DependencyViolation)
      // or, worse, pull the ground from under them. Their release wakes us by signal.
      const message = `${WAITING_FOR_DEPENDENTS}${blockers.join(', ')}`;
      return { steps: [], conditions: [deleting(message), reconcileSuccess()], next: 'dependency', complete: false };
    }
    return { steps: [{ kind: 'delete' }], conditions: [deleting(), reconcileSuccess()], next: 'pending', complete: false };
  }

  const referenceConditions: ConditionUpdate[] = [];
  if (references) {
    // Seed 000's priority: an error outranks a reference still waiting, which outranks resolved.
    if (references.errors.length > 0) {
      const message = `cannot resolve references: ${references.errors.join('; ')}`;
      const ready = external.resourceExists ? readinessCondition(external) : creating('cannot resolve references');
      return {
        steps,
        conditions: [ready, referencesUnresolved(message), reconcileError(message)],
        next: 'backoff',
        complete: false,
        error: message,
      };
    }
    const what = [
      ...references.writes,
      ...references.unmarked.map((u) => `in-use mark on ${u}`),
      ...(references.released ?? []).map((r) => `release ${r}`),
    ];
    if (what.length > 0) steps.push({ kind: 'resolveReferences', what });
    if (references.waiting.length > 0) {
      const message = `waiting for ${references.waiting.join('; ')}`;
      const ready = external.resourceExists ? readinessCondition(external) : creating(message);
      return { steps, conditions: [ready, referencesUnresolved(message), reconcileSuccess()], next: 'dependency', complete: false };
    }
    referenceConditions.push(referencesResolved());
  } else if (object.conditions.some((c) => c.type === 'ReferencesResolved' && c.status !== 'True')) {
    // Its references were removed: nothing is left to wait for, so say so rather than keep
    // showing what it once waited for.
    referenceConditions.push(referencesResolved());
  }

  if (!external.resourceExists) {
    if (!allows(policies, 'Create')) {
      const message = object.externalName
        ? `external resource ${object.externalName} does not exist, and the management policies do not allow Create`
        : 'no external resource is named by crossplane.io/external-name, and the management policies do not allow Create';
      return { steps, conditions: [unavailable(), ...referenceConditions, reconcileError(message)], next: 'steady', complete: false };
    }
    return {
      steps: [...steps, { kind: 'create' }],
      conditions: [creating(), ...referenceConditions, reconcileSuccess()],
      next: 'pending',
      complete: false,
    };
  }

  if (external.lateInitialized && allows(policies, 'LateInitialize')) {
    steps.push({ kind: 'lateInitialize', fields: external.lateInitialized });
  }
  const update = !external.resourceUpToDate && allows(policies, 'Update');
  if (update) steps.push({ kind: 'update', diff: external.diff });

  const ready = readinessCondition(external);
  const settled = external.readiness === 'Available' && !update;
  return { steps, conditions: [ready, ...referenceConditions, reconcileSuccess()], next: settled ? 'settled' : 'pending', complete: false };
}

/**
 * Whether, once this pass's delete answers that the external resource is gone, the pass after
 * it would only remove the finalizer and end: the same decision, asked with the external
 * resource gone. The delete call may then release the object itself (ReleaseWhenGone).
 */
export function onlyReleaseOnceGone(
  plan: Plan,
  object: ObjectSnapshot,
  external: ExternalSnapshot | undefined,
  context: DecideContext,
): boolean {
  if (plan.steps.length !== 1 || plan.steps[0]!.kind !== 'delete' || !external) return false;
  const afterGone = decide(object, { ...external, resourceExists: false }, context);
  return afterGone.complete && afterGone.steps.length === 1 && afterGone.steps[0]!.kind === 'removeFinalizer';
}

/** The Ready message of an object whose delete waits for a provider that fails. */
export function deletionBlockedBy(error: string): string {
  return `cannot delete the external resource, retrying with backoff (deletionPolicy: Orphan would release the object and keep it): ${error}`;
}

/**
 * What the workflow knows, after a pass, about the object having no external resource (see
 * NoExternal). It learns it two ways:
 * - never created: an object new to the workflow without our finalizer and without an external
 *   name was never reconciled (every pass adds the finalizer before it creates) and names
 *   nothing; it stays so until a create is asked for (the create step forgets it) or a pass
 *   sees an external resource (a kind that finds its target by spec, such as an Object whose
 *   manifest names an existing object, has one without creating it);
 * - created and confirmed gone: a pass of the deleting object looked and found none.
 * It holds only for the same object and external name: one named later (adoption) needs a look.
 */
export function noExternalAfter(
  known: NoExternal | undefined,
  object: Pick<ObjectSnapshot, 'uid' | 'externalName' | 'hasFinalizer' | 'deleting'>,
  newToWorkflow: boolean,
  external: ExternalSnapshot | undefined,
): NoExternal | undefined {
  const { uid, externalName } = object;
  const before = newToWorkflow
    ? !object.hasFinalizer && externalName === undefined
      ? { uid }
      : undefined
    : known?.uid === uid && known.externalName === externalName
      ? known
      : undefined;
  if (!external || external.notObserved !== undefined || external.ownedByAnother !== undefined) return before;
  if (external.resourceExists) return undefined;
  return object.deleting ? { uid, ...(externalName !== undefined ? { externalName } : {}) } : before;
}

/**
 * The conditions of a pass that failed with `message`: Synced says the error. A provider that
 * does not answer (`unreachable`: FailureClass Unreachable) also makes a resource that is not
 * being deleted Unavailable: nobody knows then what the provider holds. A deletion that fails
 * says in Ready, reason Deleting, what it waits for.
 */
export function conditionsAfterFailure(
  plan: Plan,
  message: string,
  { unreachable = false }: { unreachable?: boolean } = {},
): ConditionUpdate[] {
  const ready = (c: ConditionUpdate): ConditionUpdate => {
    if (c.type !== 'Ready') return c;
    if (c.reason === ReadyReason.Deleting) return deleting(deletionBlockedBy(message));
    return unreachable ? unavailable(message) : c;
  };
  return [...plan.conditions.filter((c) => c.type !== 'Synced').map(ready), reconcileError(message)];
}

function readinessCondition(external: ExternalSnapshot): ConditionUpdate {
  switch (external.readiness) {
    case 'Available':
      return available();
    case 'Creating':
      return creating(external.readinessMessage);
    case 'Deleting':
      return deleting();
    default:
      return unavailable(external.readinessMessage);
  }
}

/**
 * What this pass learned about which external resource the object owns: the name it saw existing
 * and owned by no other object, or else what was known, for the same object and name only. The
 * workflow keeps it as state and gives it to the next observe, whose input history does not record.
 */
export function ownedExternalAfter(
  known: OwnedExternal | undefined,
  object: { uid: string; externalName?: string },
  external: ExternalSnapshot | undefined,
): OwnedExternal | undefined {
  const { uid, externalName } = object;
  if (externalName === undefined) return undefined;
  if (external?.resourceExists && external.ownedByAnother === undefined) return { uid, externalName };
  return known?.uid === uid && known.externalName === externalName && external?.ownedByAnother === undefined ? known : undefined;
}

/**
 * Seconds until the next pass. Failures back off exponentially, capped, and never hot-loop. A
 * settled resource of a kind with a sweep waits only for the safety net: the sweep wakes it
 * within the steady interval if it drifts.
 */
export function secondsUntilNextPass(next: NextPass, poll: PollIntervals, consecutiveFailures: number): number | undefined {
  switch (next) {
    case 'settled':
      return poll.safetyNetSeconds ?? poll.steadySeconds;
    case 'steady':
    case 'dependency':
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
