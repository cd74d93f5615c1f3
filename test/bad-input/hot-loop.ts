// How many reconcile passes a mistake may cost, and how many it did. The bound comes from the
// engine's own design (workflows/decide.ts), so a change there moves it with the code:
// - a failing pass backs off 5, 10, 20, 40 s … (backoffSeconds), so the passes that fit in a
//   window are those whose waits add up to no more than it: 0, 5, 15, 35 s in a minute, four;
// - a pass waiting for something else (a reference, Create not allowed) polls at the kind's
//   steady interval, a minute at the shortest (EC2 kinds; ten for Kubernetes ones): two in a
//   closed minute;
// - on top, a few wake-ups by signal: a change of the object or of what it refers to.
// A pass on the pending poll (5 s) for ever, or a failure that never backs off, exceeds it.
import type { Client } from '@temporalio/client';
import { managedKinds } from '#providers/registry';
import { workflowIdFor } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';
import { backoffSeconds } from '#workflows/decide';
import type { ObjectId } from './cluster';

/** The one window in which every object's passes are counted: the corpus pays for it once. */
export const WINDOW_SECONDS = 60;

/** The shortest steady poll of any kind (its production default, `poll.steadySeconds`): the most passes a wait costs. */
const STEADY_SECONDS = Math.min(...managedKinds.map((kind) => kind.poll.steadySeconds));

/** Signals a stuck object may get in a window without looping: its own edit, a dependency's change. */
const WAKE_UP_ALLOWANCE = 2;

/** Most passes that backing off from the first failure on allows in `windowSeconds` (counted at both ends). */
function passesBackingOff(windowSeconds: number): number {
  let passes = 1;
  let elapsed = 0;
  for (let failures = 1; elapsed + backoffSeconds(failures) <= windowSeconds; failures++) {
    elapsed += backoffSeconds(failures);
    passes++;
  }
  return passes;
}

/** The most passes per window the design allows an object that is stuck on a mistake. */
export function maxPassesPerWindow(windowSeconds = WINDOW_SECONDS): number {
  const polling = Math.floor(windowSeconds / STEADY_SECONDS) + 1;
  return Math.max(passesBackingOff(windowSeconds), polling) + WAKE_UP_ALLOWANCE;
}

export interface PassCount {
  passes: number;
  at: number;
}

/**
 * Each object's pass counter (carried across continue-as-new) and when it was read; objects
 * without a workflow are left out. A few queries at a time: each may replay a workflow.
 */
export async function readPasses(temporal: Client, ids: readonly ObjectId[], concurrency = 8): Promise<Map<ObjectId, PassCount>> {
  const counts = new Map<ObjectId, PassCount>();
  const queue = [...ids];
  const next = async (): Promise<void> => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        const state = await temporal.workflow.getHandle(workflowIdFor(id)).query(stateQuery);
        counts.set(id, { passes: state.passes, at: Date.now() });
      } catch (error) {
        if (!/not found/i.test(String(error))) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, next));
  return counts;
}

/** Passes per window between two readings, scaled to the window when the readings were further apart. */
export function passesPerWindow(start: PassCount, end: PassCount, windowSeconds = WINDOW_SECONDS): number {
  const seconds = Math.max(windowSeconds, (end.at - start.at) / 1000);
  return ((end.passes - start.passes) * windowSeconds) / seconds;
}
