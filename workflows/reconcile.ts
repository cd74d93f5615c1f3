// One long-lived workflow per managed resource. It waits for a watch signal or its poll timer,
// runs one reconcile pass (pass.ts), and repeats until the object is gone. Temporal gives it
// durable timers, retries with backoff, and a history anyone can inspect in the UI.
//
// Changing what this workflow or its pass does to a running workflow's commands needs patched()
// and a recorded history (docs/upgrades.md); test/replay replays every recorded one.
import * as wf from '@temporalio/workflow';
import { latestResourceVersion } from '#runtime/resource-version';
import {
  reconcileNowUpdate,
  resourceEventSignal,
  stateQuery,
  type CarriedState,
  type PassSummary,
  type ReconcileInput,
  type ResourceEvent,
} from '#contract/reconcile-workflow';
import { seenAlready } from './echoes';
import { reconcilePass } from './pass';

/** Keeps each run's history small: replaying it is cheap, and so is storing it in SQLite. */
const DEFAULT_HISTORY_BUDGET = 2_000;

const initialState = (): CarriedState => ({
  passes: 0,
  consecutiveFailures: 0,
  dirty: true,
  object: { ownResourceVersions: [] },
  external: { createRequestedFor: null, changedInLastPass: false },
  status: { ready: 'Unknown', synced: 'Unknown' },
});

export async function reconcileManagedResource(input: ReconcileInput): Promise<void> {
  const { ref } = input;
  const state: CarriedState = input.carried ?? initialState();
  let lastPass: PassSummary | undefined;
  // Whether something this object depends on changed since the last pass began (not carried:
  // a new run starts with a pass that observes anyway).
  let woken = false;

  const hear = (event: ResourceEvent): void => {
    state.object.knownResourceVersion = latestResourceVersion(state.object.knownResourceVersion, event.resourceVersion);
    if (event.wake) woken = true;
    // Our own writes come back as watch events; they carry nothing new. A wake-up (something
    // this object depends on changed) always does.
    if (!event.wake && event.uid === state.object.uid) {
      if (seenAlready(state.object, event.resourceVersion)) return;
      // A write under way will say which versions are its own (holdEchoes).
      if (state.object.heldEvents) {
        state.object.heldEvents.push(event.resourceVersion);
        return;
      }
    }
    state.dirty = true;
  };
  wf.setHandler(resourceEventSignal, hear);
  if (input.event) hear(input.event);
  wf.setHandler(stateQuery, () => ({
    ref,
    uid: state.object.uid,
    passes: state.passes,
    lastPass,
    ready: state.status.ready,
    synced: state.status.synced,
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
    const wokenForPass = woken;
    woken = false;
    state.dirty = false;
    started += 1;
    const { summary, waitSeconds, complete } = await reconcilePass(ref, state, wokenForPass);
    lastPass = summary;
    finished = started;
    if (complete) {
      await wf.condition(wf.allHandlersFinished);
      // A signal that came in during the last pass may be about a new object of the same name
      // (deleted and applied again): ending now would lose it, so look once more.
      if (!state.dirty) return;
      continue;
    }
    const { continueAsNewSuggested, historyLength } = wf.workflowInfo();
    if (wf.allHandlersFinished() && (continueAsNewSuggested || historyLength > (input.historyBudget ?? DEFAULT_HISTORY_BUDGET))) {
      // The starting event was heard in the first run: the next one starts from what it carries.
      const { event: _heard, ...rest } = input;
      await wf.continueAsNew<typeof reconcileManagedResource>({ ...rest, carried: state });
    }
    if (waitSeconds === 0) continue;
    if (waitSeconds === undefined) await wf.condition(() => state.dirty);
    else await wf.condition(() => state.dirty, waitSeconds * 1000);
  }
}
