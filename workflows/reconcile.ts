// One long-lived workflow per managed resource. It waits for a watch signal or its poll timer,
// runs one reconcile pass, and repeats until the object is gone. Temporal gives it durable
// timers, retries with backoff, and a history anyone can inspect in the UI.
import * as wf from '@temporalio/workflow';
import { ApplicationFailure } from '@temporalio/common';
import type { ReconcileActivities } from '../activities/reconcile';
import { conditionStatus, type ConditionUpdate } from '../apis/conditions';
import type { PollIntervals, ResourceRef } from '../runtime/managed-kind';
import { OBJECT_GONE } from '../runtime/errors';
import { reconcileNowUpdate, resourceEventSignal, stateQuery, type CarriedState, type PassSummary, type ReconcileInput } from './api';
import {
  backoffSeconds,
  conditionsAfterFailure,
  decide,
  deletesExternal,
  noExternalAfter,
  ownedExternalAfter,
  secondsUntilNextPass,
  type NextPass,
  type Step,
} from './decide';
import type { EventNote } from '../activities/events';
import { ReadyKey, SyncedKey } from './search-attributes';
import { planWriteBack, withSyncedNote } from './status';
import type { ExternalDeletion, ObjectSnapshot, PassObservation } from './observation';
import { hasSeen, latestResourceVersion } from '../runtime/resource-version';
import { countFailedPass, decisionFailureClass } from './failure-metrics';

// Reading the object, observing the provider and the idempotent writes to our own API server
// (finalizer, status, events) are short, so they run as local activities: one marker event
// each instead of three activity events and a round trip through a task queue.
const controlPlane = wf.proxyLocalActivities<ReconcileActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
});

// Calls that change the external resource are full activities, visible in the UI with their
// own retry policy: transient errors (throttling, 5xx) back off exponentially; classified
// errors (bad input, bad credentials) fail fast. They heartbeat while they run (the worker
// wraps them, activities/heartbeat.ts), so when a worker dies its calls are retried once the
// heartbeat timeout passes (counted from the attempt's start if none came yet), not 30 s later.
const provider = wf.proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '30s',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
});

// The same calls for kinds whose provider answers at once (ManagedKind.quickProviderCalls: a
// Kubernetes API server), as local activities with the same retries.
const quickProvider = wf.proxyLocalActivities<ReconcileActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
});
type ProviderCalls = typeof provider;

/** Quick kinds' provider calls run as local activities (see ManagedKind.quickProviderCalls). */
const QUICK_PROVIDER_CALLS = 'quick-provider-calls-as-local-activities';

/** Orphaned objects are released without observing the provider (its config may be broken). */
const RELEASE_ORPHANS_FIRST = 'release-orphans-first';

/**
 * A deletion whose provider fails (to connect, to observe, or to delete) shows Ready=False,
 * reason Deleting, with the error and that deletionPolicy Orphan would release it, where Ready
 * was left as it was, or said Deleting without a message.
 */
const DELETION_WAITS_FOR_PROVIDER = 'deletion-waits-for-provider';

/** A step that fails because the provider does not answer (Unreachable) makes the resource Unavailable. */
const UNREACHABLE_STEP_UNAVAILABLE = 'unreachable-step-unavailable';

/**
 * A pass whose write-back fails counts as one more failure in a row, where it used to count as
 * the first: the steps had reset the count before the write, so the backoff never grew.
 */
const WRITE_BACK_FAILURE_COUNTS = 'write-back-failure-counts';

/** A workflow signalled during its final pass runs one more pass instead of ending. */
const RECHECK_AFTER_LATE_SIGNAL = 'recheck-after-late-signal';

/** A settled resource of a swept kind waits for the sweep, not for its steady poll. */
const WAIT_FOR_SWEEP = 'wait-for-sweep';

/**
 * After a pass that changed the external resource (create, update, delete) the next pass runs
 * at once, reading the object at least as new as that pass's writes (a create's external name),
 * instead of waiting for the pending timer or a watch echo: a synchronous change (a VPC created
 * or deleted) is confirmed one timer sooner, with no timer, signal or workflow task for it.
 */
const OBSERVE_AFTER_CHANGE = 'observe-after-external-change';

/**
 * A pass that changed the external resource leaves its status (and its events) to the pass it
 * runs at once after it, which confirms the change: one status write instead of two, and no
 * short-lived "Creating" or "Deleting" status that the next moment overwrites.
 */
const STATUS_AFTER_CONFIRMING = 'status-after-confirming-change';

/**
 * A watch event no newer than the object the last pass read carries nothing that pass did not
 * see (our own writes, mostly, once they outrun the pass that made them).
 */
const IGNORE_EVENTS_ALREADY_SEEN = 'ignore-events-already-seen';

/** Keeps each run's history small: replaying it is cheap, and so is storing it in SQLite. */
const DEFAULT_HISTORY_BUDGET = 2_000;

export async function reconcileManagedResource(input: ReconcileInput): Promise<void> {
  const { ref } = input;
  const state: CarriedState = input.carried ?? {
    passes: 0,
    consecutiveFailures: 0,
    ownResourceVersions: [],
    ready: 'Unknown',
    synced: 'Unknown',
    dirty: true,
    createRequestedFor: null,
  };
  let lastPass: PassSummary | undefined;

  wf.setHandler(resourceEventSignal, (event) => {
    state.knownResourceVersion = latestResourceVersion(state.knownResourceVersion, event.resourceVersion);
    // Our own writes come back as watch events; they carry nothing new. A wake-up (something
    // this object depends on changed) always does.
    if (!event.wake && event.uid === state.uid && seenAlready(state, event.resourceVersion)) return;
    state.dirty = true;
  });
  wf.setHandler(stateQuery, () => ({
    ref,
    uid: state.uid,
    passes: state.passes,
    lastPass,
    ready: state.ready,
    synced: state.synced,
    consecutiveFailures: state.consecutiveFailures,
  }));
  // Counted per attempt, failed ones included, so a caller always gets an answer: the summary
  // of the first pass that starts after its request, even when that pass fails.
  let started = 0;
  let finished = 0;
  wf.setHandler(reconcileNowUpdate, async () => {
    const target = started + 1;
    state.dirty = true;
    await wf.condition(() => finished >= target);
    return lastPass!;
  });

  for (;;) {
    // Every signal that arrived before this point is covered by the pass: bursts coalesce.
    state.dirty = false;
    started += 1;
    const { summary, waitSeconds, complete } = await reconcilePass(ref, state);
    lastPass = summary;
    finished = started;
    if (complete) {
      await wf.condition(wf.allHandlersFinished);
      // A signal that came in during the last pass may be about a new object of the same name
      // (deleted and applied again): ending now would lose it, so look once more.
      if (!(state.dirty && wf.patched(RECHECK_AFTER_LATE_SIGNAL))) return;
      continue;
    }
    const { continueAsNewSuggested, historyLength } = wf.workflowInfo();
    if (wf.allHandlersFinished() && (continueAsNewSuggested || historyLength > (input.historyBudget ?? DEFAULT_HISTORY_BUDGET))) {
      await wf.continueAsNew<typeof reconcileManagedResource>({ ...input, carried: state });
    }
    if (waitSeconds === 0) continue;
    if (waitSeconds === undefined) await wf.condition(() => state.dirty);
    else await wf.condition(() => state.dirty, waitSeconds * 1000);
  }
}

interface PassResult {
  summary: PassSummary;
  waitSeconds?: number;
  complete: boolean;
}

/**
 * Runs a pass. An activity that still fails after its retries (the API server down, say) ends
 * the pass, not the workflow: the next pass comes after the backoff.
 */
async function reconcilePass(ref: ResourceRef, state: CarriedState): Promise<PassResult> {
  try {
    return await runPass(ref, state);
  } catch (error) {
    if (!activityFailure(error)) throw error;
    state.consecutiveFailures += 1;
    countFailedPass(ref, activityFailure(error)?.type ?? undefined);
    const summary: PassSummary = { pass: state.passes, at: new Date().toISOString(), actions: [], error: failureMessage(error) };
    wf.log.warn('reconcile pass failed', { resource: describe(ref), error: summary.error });
    return { summary, waitSeconds: backoffSeconds(state.consecutiveFailures), complete: false };
  }
}

async function runPass(ref: ResourceRef, state: CarriedState): Promise<PassResult> {
  // The worker's cache serves the object once it has seen everything this workflow has heard of
  // or written. A local activity's input is not recorded in history, so this changes no replay.
  state.knownResourceVersion = latestResourceVersion(state.knownResourceVersion, ...state.ownResourceVersions);
  const atLeast = state.knownResourceVersion;
  const owned = state.ownedExternal;
  const noExternal = state.noExternal;
  const observation: PassObservation = await controlPlane.observe.executeWithOptions(
    { summary: `observe ${describe(ref)}` },
    noExternal !== undefined
      ? [ref, atLeast, owned, noExternal]
      : owned !== undefined
        ? [ref, atLeast, owned]
        : atLeast === undefined
          ? [ref]
          : [ref, atLeast],
  );
  state.passes += 1;
  const summary: PassSummary = { pass: state.passes, at: new Date().toISOString(), actions: [] };
  if (!observation.found) {
    summary.actions.push('the object is gone; reconciliation ends');
    return { summary, complete: true };
  }

  const { object, poll } = observation;
  summary.generation = object.generation;
  state.observedResourceVersion = object.resourceVersion;
  state.noExternal = noExternalAfter(state.noExternal, object, state.uid !== object.uid, observation.external);
  if (state.uid !== object.uid) {
    // A new object under the same name: nothing learned about the old one applies.
    Object.assign(state, { uid: object.uid, consecutiveFailures: 0, lastEventMessage: undefined, mirrorLeftOut: undefined });
  }

  state.ownedExternal = ownedExternalAfter(state.ownedExternal, object, observation.external);
  state.ownResourceVersions = []; // this pass's own writes are recorded as they happen
  const providerError = observation.externalError?.message;
  const deleteExternal = deletesExternal(object);
  const notObserved = observation.external?.notObserved;
  if (notObserved) summary.actions.push(`released without reaching the provider: ${notObserved}`);
  const plan = decide(object, observation.external, {
    providerError,
    // A class no history from before it can hold, so replays decide as they did.
    providerUnreachable: observation.externalError?.failureClass === 'Unreachable',
    references: observation.references,
    blockers: observation.blockers,
    // Only asked where the answer changes the decision, so other passes record no marker.
    releaseOrphansFirst: object.deleting && !deleteExternal && providerError !== undefined && wf.patched(RELEASE_ORPHANS_FIRST),
    deletionWaitsForProvider: object.deleting && deleteExternal && providerError !== undefined && wf.patched(DELETION_WAITS_FOR_PROVIDER),
  });
  const deferredEvents = state.deferredEvents;
  state.deferredEvents = undefined;
  const events: EventNote[] = [...(deferredEvents ?? [])];
  const changedInPreviousPass = state.changedExternalInLastPass === true;
  state.changedExternalInLastPass = false;
  let lateInitialized: Record<string, unknown> | undefined;
  let failure: string | undefined = plan.error;
  let failureClass: string | undefined;
  try {
    for (const step of plan.steps) {
      if (step.kind === 'lateInitialize') lateInitialized = step.fields;
      else summary.actions.push(await runStep(ref, object.uid, step, events, state, providerCallsFor(observation)));
    }
  } catch (error) {
    failure = failureMessage(error);
    failureClass = activityFailure(error)?.type ?? undefined;
    if (isObjectGone(error)) state.dirty = true; // the next pass sees it is gone and ends
  }

  const failuresBefore = state.consecutiveFailures;
  state.consecutiveFailures = failure === undefined ? 0 : state.consecutiveFailures + 1;
  // A step's own failure, else the one the decision reports.
  if (failure !== undefined)
    countFailedPass(ref, failureClass ?? (plan.error !== undefined ? decisionFailureClass(observation) : undefined));
  summary.error = failure;
  if (plan.complete && failure === undefined) {
    // The object is gone, but what was done to it (the external delete) still goes on record.
    if (deferredEvents?.length) {
      await controlPlane.writeBack.executeWithOptions({ summary: `record events of ${describe(ref)}` }, [
        ref,
        object.uid,
        { events: deferredEvents },
      ]);
    }
    return { summary, complete: true };
  }

  // Each asked only where the answer changes the conditions, so other passes record no marker.
  const unreachable = failureClass === 'Unreachable' && !object.deleting && wf.patched(UNREACHABLE_STEP_UNAVAILABLE);
  const deletionWaits =
    failure !== undefined &&
    plan.conditions.some((c) => c.type === 'Ready' && c.reason === 'Deleting') &&
    wf.patched(DELETION_WAITS_FOR_PROVIDER);
  const afterSteps: ConditionUpdate[] =
    failure === undefined ? plan.conditions : conditionsAfterFailure(plan, failure, { unreachable, deletionWaits });
  const conditions = pollIntervalNoted(afterSteps, object, observation.pollIntervalProblem, events);
  if (failure !== undefined && failure !== state.lastEventMessage)
    events.push({ type: 'Warning', reason: 'ReconcileError', message: failure });
  state.lastEventMessage = failure;

  // Never twice in a row: a provider that cannot find what it just created, or an update that
  // never takes, must not loop; the pass after waits as before.
  const confirmAtOnce = failure === undefined && state.changedExternalInLastPass && !changedInPreviousPass;
  if (confirmAtOnce && wf.patched(STATUS_AFTER_CONFIRMING)) {
    state.deferredEvents = events;
    return { summary, waitSeconds: 0, complete: false };
  }

  const now = new Date().toISOString();
  const writeBack = planWriteBack(object, observation.external?.atProvider, conditions, lateInitialized, events, now, state.mirrorLeftOut);
  if (writeBack) {
    const written = await controlPlane.writeBack
      .executeWithOptions({ summary: `write status of ${describe(ref)}` }, [ref, object.uid, writeBack])
      .catch((error: unknown) => {
        // The pass fails after all: its failures in a row go on counting from before it, so the
        // backoff grows, instead of a write refused every time retrying every 5 s for ever.
        if (wf.patched(WRITE_BACK_FAILURE_COUNTS)) state.consecutiveFailures = failuresBefore;
        throw error;
      });
    state.ownResourceVersions.push(...written.resourceVersions);
    // Left out until a status with its observed state goes in again (a smaller one, say).
    if (written.leftOut) state.mirrorLeftOut = written.leftOut;
    else if (writeBack.status?.atProvider !== undefined) state.mirrorLeftOut = undefined;
    if (writeBack.status) recordConditionsInSearchAttributes(state, writeBack.status.conditions);
  }
  const next = failure === undefined ? plan.next : 'backoff';
  if (confirmAtOnce && wf.patched(OBSERVE_AFTER_CHANGE)) {
    return { summary, waitSeconds: 0, complete: false };
  }
  return { summary, waitSeconds: secondsUntilNextPass(next, sweptPoll(next, poll), state.consecutiveFailures), complete: false };
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

/**
 * Whether a watch event of this object tells the workflow nothing new: it is one of the last
 * pass's own writes, or (versioned) no newer than the object that pass read. Asked only for
 * events that would otherwise start a pass, so other signals record no marker.
 */
function seenAlready(state: CarriedState, resourceVersion: string): boolean {
  if (state.ownResourceVersions.includes(resourceVersion)) return true;
  const observed = state.observedResourceVersion;
  return observed !== undefined && hasSeen(observed, resourceVersion) === true && wf.patched(IGNORE_EVENTS_ALREADY_SEEN);
}

/**
 * A settled resource of a kind with a sweep waits for the sweep's wake-up, with only the
 * kind's safety net as a timer. Versioned: running workflows waited the steady interval here.
 * Asked only where the answer matters, so other passes record no marker.
 */
function sweptPoll(next: NextPass, poll: PollIntervals): PollIntervals {
  if (next !== 'settled' || poll.safetyNetSeconds === undefined || wf.patched(WAIT_FOR_SWEEP)) return poll;
  return { ...poll, safetyNetSeconds: undefined };
}

/** Asked only when a step calls the provider, so histories without such a call gain no marker. */
function providerCallsFor(observation: { quickProviderCalls?: boolean }): () => ProviderCalls {
  return () => (observation.quickProviderCalls && wf.patched(QUICK_PROVIDER_CALLS) ? quickProvider : provider);
}

async function runStep(
  ref: ResourceRef,
  uid: string,
  step: Exclude<Step, { kind: 'lateInitialize' }>,
  events: EventNote[],
  state: CarriedState,
  providerCalls: () => ProviderCalls,
): Promise<string> {
  const target = describe(ref);
  switch (step.kind) {
    case 'addFinalizer': {
      // The create that follows in this same pass covers the finalizer's watch event.
      const added = await controlPlane.addFinalizer.executeWithOptions({ summary: `add finalizer to ${target}` }, [ref, uid]);
      if (added.resourceVersion) state.ownResourceVersions.push(added.resourceVersion);
      return added.summary;
    }
    case 'removeFinalizer':
      return controlPlane.removeFinalizer.executeWithOptions({ summary: `remove finalizer from ${target}` }, [ref, uid]);
    case 'resolveReferences': {
      const done = await controlPlane.resolveReferences.executeWithOptions(
        { summary: `resolve references of ${target}: ${step.what.join('; ')}` },
        [ref, uid],
      );
      if (done.resourceVersion) state.ownResourceVersions.push(done.resourceVersion);
      return done.summary;
    }
    case 'releaseDependencies':
      return controlPlane.releaseDependencies.executeWithOptions({ summary: `release what ${target} depends on` }, [ref, uid]);
    case 'create': {
      // Only the first create this workflow asks for may skip the provider's search for an
      // earlier one; unknown (state carried from before) counts as asked.
      const firstForObject =
        state.createRequestedFor === null || (state.createRequestedFor !== undefined && state.createRequestedFor !== uid);
      if (state.createRequestedFor !== undefined) state.createRequestedFor = uid;
      // Whatever the create does, it may leave an external resource: its deletion needs the provider.
      state.noExternal = undefined;
      const calls = providerCalls();
      // A local activity cut short by a worker crash starts over at attempt 1 on the next
      // worker, so its attempt number cannot tell a first try: it always searches.
      const mayTrustFirstTry = firstForObject && calls === provider;
      const created = await calls.createExternal.executeWithOptions({ summary: `create external resource for ${target}` }, [
        ref,
        uid,
        mayTrustFirstTry,
      ]);
      if (created.resourceVersion) state.ownResourceVersions.push(created.resourceVersion);
      state.changedExternalInLastPass = true;
      events.push({ type: 'Normal', reason: 'CreatedExternalResource', message: created.summary });
      return created.summary;
    }
    case 'update': {
      const updated = await providerCalls().updateExternal.executeWithOptions(
        { summary: `update external resource of ${target}: ${step.diff ?? ''}` },
        [ref, uid],
      );
      state.changedExternalInLastPass = true;
      events.push({ type: 'Normal', reason: 'UpdatedExternalResource', message: updated });
      return updated;
    }
    case 'delete': {
      const answer: ExternalDeletion | string = await providerCalls().deleteExternal.executeWithOptions(
        { summary: `delete external resource of ${target}` },
        [ref, uid],
      );
      // Recorded histories hold the summary alone.
      const deleted = typeof answer === 'string' ? { summary: answer } : answer;
      // Gone at once: the pass that confirms it releases the object without the provider, on
      // whichever worker it runs, instead of deleting again to find out.
      if (deleted.gone) state.noExternal = deleted.gone;
      state.changedExternalInLastPass = true;
      events.push({ type: 'Normal', reason: 'DeletedExternalResource', message: deleted.summary });
      return deleted.summary;
    }
  }
}

function recordConditionsInSearchAttributes(state: CarriedState, conditions: Parameters<typeof conditionStatus>[0]): void {
  const ready = conditionStatus(conditions, 'Ready');
  const synced = conditionStatus(conditions, 'Synced');
  if (ready === state.ready && synced === state.synced) return;
  wf.upsertSearchAttributes([
    { key: ReadyKey, value: ready },
    { key: SyncedKey, value: synced },
  ]);
  state.ready = ready;
  state.synced = synced;
}

/**
 * The failure an activity reported, or undefined for anything else (a bug, a cancellation),
 * which must propagate. A regular activity's failure arrives wrapped in ActivityFailure; a
 * local activity's arrives as the ApplicationFailure itself.
 */
function activityFailure(error: unknown): ApplicationFailure | undefined {
  if (error instanceof wf.ActivityFailure)
    return error.cause instanceof ApplicationFailure ? error.cause : ApplicationFailure.fromError(error.cause);
  return error instanceof ApplicationFailure ? error : undefined;
}

function failureMessage(error: unknown): string {
  return activityFailure(error)?.message ?? (error instanceof Error ? error.message : String(error));
}

function isObjectGone(error: unknown): boolean {
  return activityFailure(error)?.type === OBJECT_GONE;
}

const describe = (ref: ResourceRef) => `${ref.kind} ${ref.namespace}/${ref.name}`;
