// Decides what a pass writes back to the object. Pure, so the workflow can call it, and so the
// steady state (nothing to write) is easy to test: that is what keeps a quiet pass cheap.
import equal from 'fast-deep-equal';
import { mergeConditions, sameConditions, type ConditionUpdate } from '../apis/conditions';
import type { EventNote } from '../activities/events';
import type { WriteBack } from '../activities/reconcile';
import type { ObjectSnapshot } from './observation';

export function planWriteBack(
  object: ObjectSnapshot,
  atProvider: unknown,
  updates: ConditionUpdate[],
  lateInitialized: Record<string, unknown> | undefined,
  events: EventNote[],
  now: string,
): WriteBack | undefined {
  const stamped = updates.map((c) => ({ ...c, observedGeneration: object.generation }));
  const conditions = mergeConditions(object.conditions, stamped, now);
  const nextAtProvider = atProvider ?? object.atProvider;
  const statusUnchanged =
    sameConditions(conditions, object.conditions) &&
    object.statusObservedGeneration === object.generation &&
    sameJson(nextAtProvider, object.atProvider);
  if (statusUnchanged && !lateInitialized && events.length === 0) return undefined;
  return {
    lateInitialized,
    status: statusUnchanged ? undefined : { conditions, atProvider: nextAtProvider, observedGeneration: object.generation },
    events,
  };
}

/**
 * Equal as JSON documents. The API server returns objects with their keys sorted and without
 * undefined fields, so neither key order nor undefined may count as a difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return equal(normalize(a), normalize(b));
}

const normalize = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
