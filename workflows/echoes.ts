// Which watch events of its own object a workflow may ignore: the echoes of its own writes, and
// anything no newer than the object its last pass read. A signal decides this when it arrives;
// one that arrives while a write whose versions the workflow will only learn from that write's
// answer is under way waits for the answer instead (holdEchoes / releaseEchoes).
import { hasSeen } from '#runtime/resource-version';
import type { ObjectKnowledge } from '#contract/reconcile-workflow';

/**
 * Whether a watch event of this object tells the workflow nothing new: it is one of the last
 * pass's own writes, or no newer than the object that pass read.
 */
export function seenAlready(object: ObjectKnowledge, resourceVersion: string): boolean {
  if (object.ownResourceVersions.includes(resourceVersion)) return true;
  const observed = object.observedResourceVersion;
  return observed !== undefined && hasSeen(observed, resourceVersion) === true;
}

/** From now until releaseEchoes, watch events of the object wait to be judged. */
export function holdEchoes(object: ObjectKnowledge): void {
  object.heldEvents = [];
}

/**
 * Judges the events held since holdEchoes, now that the write's versions are known: whether
 * any of them is news (someone else's edit), which the caller treats as a signal's would be.
 */
export function releaseEchoes(object: ObjectKnowledge): boolean {
  const held = object.heldEvents ?? [];
  object.heldEvents = undefined;
  return held.some((resourceVersion) => !seenAlready(object, resourceVersion));
}
