// Decides what a pass writes back to the object. Pure, so the workflow can call it, and so the
// steady state (nothing to write) is easy to test: that is what keeps a quiet pass cheap.
import { mergeConditions, sameConditions, withSyncedNote, type ConditionUpdate } from '#core/conditions';
import type { EventNote, MirrorLeftOut, WriteBack } from '#contract/write-back';
import type { ObjectSnapshot } from '#contract/observation';
import { sameJson } from '#core/same-json';

export function planWriteBack(
  object: ObjectSnapshot,
  atProvider: unknown,
  updates: ConditionUpdate[],
  lateInitialized: Record<string, unknown> | undefined,
  events: EventNote[],
  now: string,
  leftOut?: MirrorLeftOut,
): WriteBack | undefined {
  const stamped = updates.map((c) => ({ ...c, observedGeneration: object.generation }));
  let conditions = mergeConditions(object.conditions, stamped, now);
  let nextAtProvider = atProvider ?? object.atProvider;
  // The same state again: status goes without it at once, instead of failing to hold it again.
  if (leftOut && nextAtProvider !== undefined && sameJson(nextAtProvider, leftOut.atProvider)) {
    conditions = withSyncedNote(conditions, leftOut.note);
    nextAtProvider = undefined;
  }
  const handled = reconcileRequestToRecord(object);
  const statusUnchanged =
    sameConditions(conditions, object.conditions) &&
    object.statusObservedGeneration === object.generation &&
    sameJson(nextAtProvider, object.atProvider) &&
    handled === undefined;
  if (statusUnchanged && !lateInitialized && events.length === 0) return undefined;
  const recorded = handled ?? object.lastHandledReconcileAt;
  return {
    lateInitialized,
    status: statusUnchanged
      ? undefined
      : {
          conditions,
          atProvider: nextAtProvider,
          observedGeneration: object.generation,
          // Status is written whole: the token recorded before goes on being recorded.
          ...(recorded !== undefined ? { lastHandledReconcileAt: recorded } : {}),
        },
    events,
  };
}

/**
 * The reconcile request this pass answers, when status does not record it yet: a pass that
 * read the object with the token has run for it. A paused object runs no pass, so it records
 * none: whoever waits for the token learns it was not honoured.
 */
function reconcileRequestToRecord(
  object: Pick<ObjectSnapshot, 'paused' | 'reconcileRequestedAt' | 'lastHandledReconcileAt'>,
): string | undefined {
  const requested = object.reconcileRequestedAt;
  if (requested === undefined || object.paused || requested === object.lastHandledReconcileAt) return undefined;
  return requested;
}
