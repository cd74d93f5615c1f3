// One reconcile pass, as seed 004 describes it: observe, decide (decide.ts), run the steps
// (steps.ts), write the outcome back (status.ts), and say when to look again. The common pass is
// one local activity that reads and observes and, only when something changed, one that writes.
import * as wf from '@temporalio/workflow';
import { conditionStatus, withSyncedNote, type Condition, type ConditionUpdate } from '#core/conditions';
import type { ResourceRef } from '#core/managed-kind';
import { hasSeen, latestResourceVersion } from '#runtime/resource-version';
import type { CarriedState, PassSummary } from '#contract/reconcile-workflow';
import type { ObjectSnapshot, PassObservation } from '#contract/observation';
import type { EventNote } from '#contract/write-back';
import { ReadyKey, SyncedKey } from '#contract/search-attributes';
import {
  backoffSeconds,
  conditionsAfterFailure,
  decide,
  noExternalAfter,
  onlyReleaseOnceGone,
  ownedExternalAfter,
  secondsUntilNextPass,
} from './decide';
import { countFailedPass, decisionFailureClass } from './failure-metrics';
import { activityFailure, failureMessage } from './activity-failures';
import { controlPlane, describe, runSteps } from './steps';
import { planWriteBack } from './status';

interface PassResult {
  summary: PassSummary;
  waitSeconds?: number;
  complete: boolean;
}

/**
 * Runs a pass. An activity that still fails after its retries (the API server down, say) ends
 * the pass, not the workflow: the next pass comes after the backoff. `woken`: something the
 * object depends on changed since the last pass began, so what a provider call answered then
 * may be stale.
 */
export async function reconcilePass(ref: ResourceRef, state: CarriedState, woken: boolean): Promise<PassResult> {
  try {
    return await runPass(ref, state, woken);
  } catch (error) {
    if (!activityFailure(error)) throw error;
    state.consecutiveFailures += 1;
    countFailedPass(ref, activityFailure(error)?.type ?? undefined);
    const summary: PassSummary = { pass: state.passes, at: new Date().toISOString(), actions: [], error: failureMessage(error) };
    wf.log.warn('reconcile pass failed', { resource: describe(ref), error: summary.error });
    return { summary, waitSeconds: backoffSeconds(state.consecutiveFailures), complete: false };
  }
}

async function runPass(ref: ResourceRef, state: CarriedState, woken: boolean): Promise<PassResult> {
  const observation = await observe(ref, state, woken);
  state.passes += 1;
  const summary: PassSummary = { pass: state.passes, at: new Date().toISOString(), actions: [] };
  if (!observation.found) {
    summary.actions.push('the object is gone; reconciliation ends');
    return { summary, complete: true };
  }

  const { object, poll, external } = observation;
  summary.generation = object.generation;
  learnFrom(state, object, external);
  const notObserved = external?.notObserved;
  if (notObserved) summary.actions.push(`released without reaching the provider: ${notObserved}`);
  const providerError = observation.externalError?.message;
  const context = {
    providerError,
    providerUnreachable: observation.externalError?.failureClass === 'Unreachable',
    references: observation.references,
    blockers: observation.blockers,
  };
  const plan = decide(object, external, context);

  const deferredEvents = state.status.deferredEvents;
  state.status.deferredEvents = undefined;
  const events: EventNote[] = [...(deferredEvents ?? [])];
  const changedInPreviousPass = state.external.changedInLastPass;
  state.external.changedInLastPass = false;
  // A pass that releases the object records what the pass before it did with the finalizer's
  // removal, in one activity, instead of in a write of its own after it.
  const eventsWithRelease =
    plan.complete && deferredEvents?.length && plan.steps.at(-1)?.kind === 'removeFinalizer' ? deferredEvents : undefined;
  // A delete that answers gone may release the object in the same call, as the pass after it
  // would: one activation and one marker fewer per deleted resource.
  const releaseWhenGone = onlyReleaseOnceGone(plan, object, external, context);
  const ran = await runSteps(ref, object.uid, plan.steps, events, state, {
    quickProviderCalls: observation.quickProviderCalls === true,
    ...(eventsWithRelease ? { eventsWithRelease } : {}),
    ...(releaseWhenGone ? { releaseWhenGoneFrom: object.resourceVersion } : {}),
  });
  summary.actions.push(...ran.actions);
  if (ran.released) return { summary, complete: true };
  const failure = ran.failure?.message ?? plan.error;
  const failureClass = ran.failure?.failureClass;
  if (ran.failure?.objectGone) {
    state.dirty = true; // the next pass sees it is gone and ends, or finds a new object of the name
    // Nothing to write: no status for an object that is gone, and no warning that it is (a
    // delete whose answer was lost after it released the object finds it so on its retry).
    summary.error = failure;
    return { summary, waitSeconds: 0, complete: false };
  }

  const failuresBefore = state.consecutiveFailures;
  state.consecutiveFailures = failure === undefined ? 0 : state.consecutiveFailures + 1;
  // A step's own failure, else the one the decision reports.
  if (failure !== undefined)
    countFailedPass(ref, failureClass ?? (plan.error !== undefined ? decisionFailureClass(observation) : undefined));
  summary.error = failure;
  if (plan.complete && failure === undefined) {
    // The object is gone, but what was done to it (the external delete) still goes on record.
    if (deferredEvents?.length && !eventsWithRelease) {
      await controlPlane.writeBack.executeWithOptions({ summary: `record events of ${describe(ref)}` }, [
        ref,
        object.uid,
        { events: deferredEvents },
      ]);
    }
    return { summary, complete: true };
  }

  const afterSteps: ConditionUpdate[] =
    failure === undefined
      ? plan.conditions
      : conditionsAfterFailure(plan, failure, { unreachable: failureClass === 'Unreachable' && !object.deleting });
  const conditions = pollIntervalNoted(afterSteps, object, observation.pollIntervalProblem, events);
  if (failure !== undefined && failure !== state.status.lastEventMessage)
    events.push({ type: 'Warning', reason: 'ReconcileError', message: failure });
  state.status.lastEventMessage = failure;

  // A pass that changed the external resource leaves its status and events to the pass it runs
  // at once after it, which confirms the change: one status write instead of two, and no
  // short-lived "Creating" or "Deleting" status. Never twice in a row: a provider that cannot
  // find what it just created, or an update that never takes, must not loop; that pass waits.
  if (failure === undefined && state.external.changedInLastPass && !changedInPreviousPass) {
    state.status.deferredEvents = events;
    return { summary, waitSeconds: 0, complete: false };
  }
  state.external.confirmation = undefined;

  const writeBack = planWriteBack(
    object,
    external?.atProvider,
    conditions,
    ran.lateInitialized,
    events,
    new Date().toISOString(),
    state.status.mirrorLeftOut,
  );
  if (writeBack) {
    const written = await controlPlane.writeBack
      .executeWithOptions({ summary: `write status of ${describe(ref)}` }, [ref, object.uid, writeBack])
      .catch((error: unknown) => {
        // The pass fails after all: its failures in a row go on counting from before it, so the
        // backoff grows, instead of a write refused every time retrying every 5 s for ever.
        state.consecutiveFailures = failuresBefore;
        throw error;
      });
    state.object.ownResourceVersions.push(...written.resourceVersions);
    // Left out until a status with its observed state goes in again (a smaller one, say).
    if (written.leftOut) state.status.mirrorLeftOut = written.leftOut;
    else if (writeBack.status?.atProvider !== undefined) state.status.mirrorLeftOut = undefined;
    // The observed state was not at hand to write: look again at once.
    if (written.mirrorMissed) state.dirty = true;
    if (writeBack.status) recordConditionsInSearchAttributes(state, writeBack.status.conditions);
  }
  const next = failure === undefined ? plan.next : 'backoff';
  return { summary, waitSeconds: secondsUntilNextPass(next, poll, state.consecutiveFailures), complete: false };
}

/**
 * What the pass starts from: the observation the last pass's provider call answered (a create
 * or a synchronous delete that said it all), as long as no watch event since is newer than the
 * object it describes (the call's own writes echo back, older or equal) and nothing it depends
 * on woke it; else the observe activity's, which reads the object from the worker's cache no
 * older than anything this workflow has heard of or written.
 */
async function observe(ref: ResourceRef, state: CarriedState, woken: boolean): Promise<PassObservation> {
  const confirmation = state.external.confirmation;
  state.external.confirmation = undefined;
  if (confirmation && !woken && describesTheNewest(confirmation, state.object.knownResourceVersion)) return confirmation;
  const known = state.object;
  known.knownResourceVersion = latestResourceVersion(known.knownResourceVersion, ...known.ownResourceVersions);
  // A local activity's input is not recorded in history, so what it is given changes no replay.
  return controlPlane.observe.executeWithOptions({ summary: `observe ${describe(ref)}` }, [
    ref,
    known.knownResourceVersion,
    { owned: state.external.owned, noExternal: state.external.none },
  ]);
}

/** Whether an observation's object is at least as new as every version the workflow heard of. */
function describesTheNewest(observation: PassObservation, known: string | undefined): boolean {
  if (!observation.found) return false;
  return known === undefined || hasSeen(observation.object.resourceVersion, known) === true;
}

/** What a pass's observation teaches the workflow about its object and the external resource. */
function learnFrom(state: CarriedState, object: ObjectSnapshot, external: Parameters<typeof noExternalAfter>[3]): void {
  const newObject = state.object.uid !== object.uid;
  state.object.observedResourceVersion = object.resourceVersion;
  state.external.none = noExternalAfter(state.external.none, object, newObject, external);
  if (newObject) {
    // A new object under the same name: nothing learned about the old one applies.
    state.object.uid = object.uid;
    state.consecutiveFailures = 0;
    state.status.lastEventMessage = undefined;
    state.status.mirrorLeftOut = undefined;
  }
  state.external.owned = ownedExternalAfter(state.external.owned, object, external);
  state.object.ownResourceVersions = []; // this pass's own writes are recorded as they happen
}

const INVALID_POLL_INTERVAL = 'InvalidPollInterval';

/**
 * An object whose crossplane.io/poll-interval cannot be honoured as written says so in Synced's
 * message, and once in a Warning event: the pass itself succeeded, so Synced stays as it is and
 * the object stays settled (a sweep does not wake it over and over).
 */
function pollIntervalNoted(
  conditions: ConditionUpdate[],
  object: ObjectSnapshot,
  problem: string | undefined,
  events: EventNote[],
): ConditionUpdate[] {
  if (problem === undefined) return conditions;
  // Already said: in the status it wrote, or in the events a pass left to this one.
  const known =
    object.conditions.some((c) => c.type === 'Synced' && c.message?.includes(problem)) ||
    events.some((e) => e.reason === INVALID_POLL_INTERVAL && e.message === problem);
  if (!known) events.push({ type: 'Warning', reason: INVALID_POLL_INTERVAL, message: problem });
  return withSyncedNote(conditions, problem);
}

function recordConditionsInSearchAttributes(state: CarriedState, conditions: Condition[]): void {
  const ready = conditionStatus(conditions, 'Ready');
  const synced = conditionStatus(conditions, 'Synced');
  if (ready === state.status.ready && synced === state.status.synced) return;
  wf.upsertSearchAttributes([
    { key: ReadyKey, value: ready },
    { key: SyncedKey, value: synced },
  ]);
  state.status.ready = ready;
  state.status.synced = synced;
}
