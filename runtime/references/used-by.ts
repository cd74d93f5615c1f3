// The in-use mark a dependent leaves on a managed object it depends on. It is how deletion
// order is kept (seed 002, "Uninstall Order"; provider-kubernetes uses a finalizer per
// referrer): a marked object does not delete its external resource while the dependent it
// names still exists and still refers to it, and it names that dependent in its conditions.
// An annotation per dependent, keyed by the dependent's uid, so that concurrent dependents
// write with merge patches that never conflict; the value says who it is.
import { keyOf, parseKey, type ObjectKey } from './dependencies';

export const USED_BY_PREFIX = 'used-by.chronoplane.io/';

export function usedByAnnotation(dependentUid: string): string {
  return `${USED_BY_PREFIX}${dependentUid}`;
}

export interface UsedByMark {
  dependentUid: string;
  dependent: ObjectKey;
}

/** The marks on an object; malformed ones (hand-edited) are ignored. */
export function usedByMarks(annotations: Record<string, string> | undefined): UsedByMark[] {
  const marks: UsedByMark[] = [];
  for (const [key, value] of Object.entries(annotations ?? {})) {
    const dependentUid = key.startsWith(USED_BY_PREFIX) ? key.slice(USED_BY_PREFIX.length) : '';
    const dependent = dependentUid ? parseKey(value) : undefined;
    if (dependent) marks.push({ dependentUid, dependent });
  }
  return marks;
}

export const usedByValue = (dependent: ObjectKey): string => keyOf(dependent);
