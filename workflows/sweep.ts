// One long-lived workflow per kind with bulk observation. Every poll interval it runs one sweep
// activity (list the kind's objects, observe the settled ones a few calls at a time, pick the
// ones that drifted, vanished or show stale status) and wakes only those workflows, with the
// same signal the watcher sends. It decides only whom to wake: it never writes to EC2 or to an
// object, so the resource's own pass stays the one reconciler, and settled resources cost
// next to nothing between sweeps. Durable, and visible in the UI as `sweep/<Kind>.<group>`.
import * as wf from '@temporalio/workflow';
import type { SweepActivities } from '#contract/sweep-workflow';
import { workflowIdFor } from '#core/managed-kind';
import { resourceEventSignal } from '#contract/reconcile-workflow';
import { sweepStateQuery, type SweepInput, type SweepScope, type SweepState, type WakeTarget } from '#contract/sweep-workflow';

// A sweep of 10,000 resources is about 20 list pages and 50 EC2 calls. It heartbeats (the
// worker wraps it, activities/heartbeat.ts), so a dead worker's sweep is retried within 30 s.
const sweeper = wf.proxyActivities<SweepActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 },
});

/** Until a sweep reports its kind's interval; every EC2 kind's is a minute. */
const DEFAULT_INTERVAL_SECONDS = 60;

/** About 150 quiet sweeps (six events each) per run, so replaying a run stays cheap. */
const DEFAULT_HISTORY_BUDGET = 1_000;

/** Temporal refuses more than 2,000 pending outgoing signals per workflow; stay well under. */
const SIGNALS_AT_ONCE = 500;

export async function sweepManagedKind(input: SweepInput): Promise<void> {
  const { scope } = input;
  let intervalSeconds = input.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS;
  // Scopes the last sweep could not read: their resources are woken once they answer again.
  let recovering = input.recovering ?? [];
  const state: SweepState = { scope, sweeps: 0, woken: 0 };
  wf.setHandler(sweepStateQuery, () => state);

  for (;;) {
    try {
      const outcome = await sweeper.sweepKind.executeWithOptions(
        { summary: `sweep ${describe(scope)} for drift` },
        recovering.length > 0 ? [scope, recovering] : [scope],
      );
      state.sweeps += 1;
      state.last = { ...outcome, at: new Date().toISOString() };
      state.lastError = undefined;
      intervalSeconds = outcome.intervalSeconds;
      recovering = outcome.failedScopes ?? [];
      state.woken += await wake(outcome.wake);
    } catch (error) {
      if (!(error instanceof wf.ActivityFailure)) throw error;
      // Nothing is lost but time: the next sweep looks again, and every resource's own
      // safety-net pass still runs.
      state.lastError = error.cause?.message ?? error.message;
      wf.log.warn('sweep failed', { scope: describe(scope), error: state.lastError });
    }
    await wf.sleep(intervalSeconds * 1000, { summary: 'until the next sweep' });
    const { continueAsNewSuggested, historyLength } = wf.workflowInfo();
    if (continueAsNewSuggested || historyLength > (input.historyBudget ?? DEFAULT_HISTORY_BUDGET)) {
      await wf.continueAsNew<typeof sweepManagedKind>({ ...input, intervalSeconds, recovering });
    }
  }
}

/**
 * Signals each target's workflow as the watcher would for a wake-up; returns how many arrived.
 * A workflow that is not running (its object is being replaced, say) is skipped: the watcher
 * starts its successor when the object changes.
 */
async function wake(targets: readonly WakeTarget[]): Promise<number> {
  let sent = 0;
  for (let at = 0; at < targets.length; at += SIGNALS_AT_ONCE) {
    const batch = targets.slice(at, at + SIGNALS_AT_ONCE);
    const results = await Promise.allSettled(
      batch.map(({ ref, uid, generation, resourceVersion }) =>
        wf
          .getExternalWorkflowHandle(workflowIdFor(ref))
          .signal(resourceEventSignal, { type: 'MODIFIED', uid, generation, resourceVersion, wake: true }),
      ),
    );
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') sent += 1;
      else wf.log.warn('cannot wake a workflow', { workflowId: workflowIdFor(batch[i]!.ref), error: String(result.reason) });
    });
  }
  return sent;
}

const describe = (scope: SweepScope) => `${scope.kind}${scope.namespace ? ` in ${scope.namespace}` : ''}`;
