// The side effects a decision asks for, each one activity call. What the calls answer updates
// what the workflow knows (carried state): the versions it wrote, which external resource exists,
// and the observation a create or delete already answered for the pass after it.
import * as wf from '@temporalio/workflow';
import type { ReconcileActivities } from '#contract/reconcile-activities';
import type { ResourceRef } from '#core/managed-kind';
import type { CarriedState } from '#contract/reconcile-workflow';
import { DELETED_EXTERNAL_RESOURCE, type EventNote } from '#contract/write-back';
import type { Step } from './decide';
import { activityFailure, failureMessage, isObjectGone, ownWritesBefore } from './activity-failures';
import { holdEchoes, releaseEchoes } from './echoes';

// Reading the object, observing the provider and the idempotent writes to our own API server
// (finalizer, status, events) are short, so they run as local activities: one marker event
// each instead of three activity events and a round trip through a task queue.
export const controlPlane = wf.proxyLocalActivities<ReconcileActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
});

// Calls that change the external resource are full activities, visible in the UI with their
// own retry policy: transient errors (throttling, 5xx) back off exponentially; classified
// errors (bad input, bad credentials) fail fast. They heartbeat while they run (the worker
// wraps them, activities/heartbeat.ts), so when a worker dies its calls are retried once the
// heartbeat timeout passes (counted from the attempt's start if none came yet), not 30 s later.
const providerOptions: wf.ActivityOptions = {
  startToCloseTimeout: '30s',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
};
const eager = wf.proxyActivities<ReconcileActivities>(providerOptions);

// Deletes go through the task queue, never eagerly back to the worker that holds the workflow:
// eager dispatch gained them nothing (bench/README.md), and through the queue any worker takes
// them, so one started for a mass delete shares it (test/integration/several-workers.test.ts).
const queued = wf.proxyActivities<ReconcileActivities>({ ...providerOptions, allowEagerDispatch: false });

/** The calls that change the external resource, as one kind of provider runs them. */
type ProviderCalls = Pick<typeof eager, 'createExternal' | 'updateExternal' | 'deleteExternal'>;
const provider: ProviderCalls = {
  createExternal: eager.createExternal,
  updateExternal: eager.updateExternal,
  deleteExternal: queued.deleteExternal,
};

// The same calls for kinds whose provider answers at once (ManagedKind.quickProviderCalls: a
// Kubernetes API server), as local activities with the same retries.
const quickProvider = wf.proxyLocalActivities<ReconcileActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
});

interface StepsRun {
  actions: string[];
  /** Fields to record in spec.forProvider with the status (the lateInitialize step). */
  lateInitialized?: Record<string, unknown>;
  /** The step that failed, which ends the steps. */
  failure?: { message: string; failureClass?: string; objectGone: boolean };
  /** The delete released the object as well (ReleaseWhenGone): nothing is left to do. */
  released?: boolean;
}

/** How the steps run, besides the steps themselves. */
interface StepOptions {
  /** The kind's provider answers at once: its calls run as local activities. */
  quickProviderCalls: boolean;
  /** Events the finalizer's removal records once it is done (the object is released, and no status write follows). */
  eventsWithRelease?: EventNote[];
  /** The version the decision was made on, when a delete that answers gone may release the object itself. */
  releaseWhenGoneFrom?: string;
}

/** Runs the steps in order until one fails. */
export async function runSteps(
  ref: ResourceRef,
  uid: string,
  steps: Step[],
  events: EventNote[],
  state: CarriedState,
  options: StepOptions,
): Promise<StepsRun> {
  const run: StepsRun = { actions: [] };
  const calls = options.quickProviderCalls ? quickProvider : provider;
  try {
    for (let i = 0; i < steps.length; i += 1) {
      const step = steps[i]!;
      if (step.kind === 'lateInitialize') run.lateInitialized = step.fields;
      else if (step.kind === 'addFinalizer' && steps[i + 1]?.kind === 'create') {
        // The finalizer goes in with the create, in one activity: one activation fewer.
        run.actions.push(await create(ref, uid, events, state, calls, true));
        i += 1;
      } else if (step.kind === 'delete') {
        const deleted = await deleteExternal(ref, uid, events, state, calls, options.releaseWhenGoneFrom);
        run.actions.push(deleted.summary);
        if (deleted.released) run.released = true;
      } else run.actions.push(await runStep(ref, uid, step, events, state, calls, options.eventsWithRelease));
    }
  } catch (error) {
    const failureClass = activityFailure(error)?.type ?? undefined;
    run.failure = { message: failureMessage(error), ...(failureClass ? { failureClass } : {}), objectGone: isObjectGone(error) };
  }
  return run;
}

async function runStep(
  ref: ResourceRef,
  uid: string,
  step: Exclude<Step, { kind: 'lateInitialize' | 'delete' }>,
  events: EventNote[],
  state: CarriedState,
  calls: ProviderCalls,
  eventsWithRelease: EventNote[] | undefined,
): Promise<string> {
  const target = describe(ref);
  const own = state.object.ownResourceVersions;
  switch (step.kind) {
    case 'addFinalizer': {
      const added = await controlPlane.addFinalizer.executeWithOptions({ summary: `add finalizer to ${target}` }, [ref, uid]);
      if (added.resourceVersion) own.push(added.resourceVersion);
      return added.summary;
    }
    case 'removeFinalizer':
      return controlPlane.removeFinalizer.executeWithOptions(
        { summary: `remove finalizer from ${target}` },
        eventsWithRelease ? [ref, uid, eventsWithRelease] : [ref, uid],
      );
    case 'resolveReferences': {
      const done = await controlPlane.resolveReferences.executeWithOptions(
        { summary: `resolve references of ${target}: ${step.what.join('; ')}` },
        [ref, uid],
      );
      if (done.resourceVersion) own.push(done.resourceVersion);
      return done.summary;
    }
    case 'releaseDependencies':
      return controlPlane.releaseDependencies.executeWithOptions({ summary: `release what ${target} depends on` }, [ref, uid]);
    case 'create':
      return create(ref, uid, events, state, calls);
    case 'update': {
      const updated = await calls.updateExternal.executeWithOptions(
        { summary: `update external resource of ${target}: ${step.diff ?? ''}` },
        [ref, uid],
      );
      state.external.changedInLastPass = true;
      events.push({ type: 'Normal', reason: 'UpdatedExternalResource', message: updated });
      return updated;
    }
  }
}

/**
 * The delete step. `releaseWhenGoneFrom`: the version the pass decided on, when the pass after
 * a delete that answers gone would only remove the finalizer. The call then does that too, with
 * this pass's events and its own: one call instead of two, and the workflow ends.
 */
async function deleteExternal(
  ref: ResourceRef,
  uid: string,
  events: EventNote[],
  state: CarriedState,
  calls: ProviderCalls,
  releaseWhenGoneFrom: string | undefined,
): Promise<{ summary: string; released: boolean }> {
  const summary = `delete external resource of ${describe(ref)}`;
  const args: Parameters<ReconcileActivities['deleteExternal']> =
    releaseWhenGoneFrom !== undefined ? [ref, uid, { decidedOn: releaseWhenGoneFrom, events }] : [ref, uid];
  const deleted = await calls.deleteExternal.executeWithOptions({ summary }, args);
  if (deleted.released !== undefined) return { summary: `${deleted.summary}; ${deleted.released}`, released: true };
  // Gone at once: the pass that confirms it releases the object without the provider, on
  // whichever worker it runs, instead of deleting again to find out.
  if (deleted.gone) state.external.none = deleted.gone;
  state.external.confirmation = deleted.next;
  state.external.changedInLastPass = true;
  events.push({ type: 'Normal', reason: DELETED_EXTERNAL_RESOURCE, message: deleted.summary });
  return { summary: deleted.summary, released: false };
}

async function create(
  ref: ResourceRef,
  uid: string,
  events: EventNote[],
  state: CarriedState,
  calls: ProviderCalls,
  addFinalizer = false,
): Promise<string> {
  // Only the first create this workflow asks for may skip the provider's search for an earlier one.
  const firstForObject = state.external.createRequestedFor !== uid;
  state.external.createRequestedFor = uid;
  // Whatever the create does, it may leave an external resource: its deletion needs the provider.
  state.external.none = undefined;
  // A local activity cut short by a worker crash starts over at attempt 1 on the next worker,
  // so its attempt number cannot tell a first try: it always searches.
  const mayTrustFirstTry = firstForObject && calls === provider;
  // Also when it adds the finalizer first, which its answer's summary then says.
  const summary = `create external resource for ${describe(ref)}`;
  const args: Parameters<ReconcileActivities['createExternal']> = addFinalizer
    ? [ref, uid, mayTrustFirstTry, true]
    : [ref, uid, mayTrustFirstTry];
  // The finalizer's watch event may come before the create answers (a regular activity takes
  // long): it waits until the answer says which versions are the create's own.
  if (addFinalizer) holdEchoes(state.object);
  let created: Awaited<ReturnType<ReconcileActivities['createExternal']>>;
  try {
    created = await calls.createExternal.executeWithOptions({ summary }, args);
    state.object.ownResourceVersions.push(...created.resourceVersions);
  } catch (error) {
    // A create that failed after adding the finalizer names the versions it wrote: their echoes
    // are not edits, so the pass after still waits out its backoff.
    state.object.ownResourceVersions.push(...ownWritesBefore(activityFailure(error)));
    throw error;
  } finally {
    if (addFinalizer && releaseEchoes(state.object)) state.dirty = true;
  }
  state.external.confirmation = created.next;
  state.external.changedInLastPass = true;
  events.push({ type: 'Normal', reason: 'CreatedExternalResource', message: created.summary });
  return created.summary;
}

export const describe = (ref: ResourceRef) => `${ref.kind} ${ref.namespace}/${ref.name}`;
