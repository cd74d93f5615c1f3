// What guards a referenced object that is not a managed one (a ConfigMap, a Secret, any kind)
// while an Object refers to it: provider-kubernetes' finalizer
// `kubernetes.crossplane.io/referred-by-object-<Object uid>`, so deleting it waits for the
// Object. The Object records which objects carry its finalizer, so that dropping a reference
// from its spec takes the finalizer off too: the spec no longer says where it was.
import { keyOf, type ObjectKey } from './dependencies';

const REFERRED_FINALIZER_PREFIX = 'kubernetes.crossplane.io/referred-by-object-';

/** The annotation on the Object that lists the objects carrying its finalizer (JSON). */
export const REFERRED_OBJECTS = 'chronoplane.io/referred-objects';

export const referredFinalizer = (objectUid: string): string => `${REFERRED_FINALIZER_PREFIX}${objectUid}`;

export interface ReferredObject extends ObjectKey {
  apiVersion: string;
}

/** The record on an Object; a malformed (hand-edited) one reads as empty. */
export function referredObjects(annotations: Record<string, string> | undefined): ReferredObject[] {
  const text = annotations?.[REFERRED_OBJECTS];
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter(isReferredObject) : [];
  } catch {
    return [];
  }
}

/** The annotation's value for `objects` (sorted, so equal sets are equal strings), or null for none. */
export function referredObjectsValue(objects: readonly ReferredObject[]): string | null {
  if (objects.length === 0) return null;
  const unique = new Map(objects.map((o) => [keyOf(o), o]));
  const sorted = [...unique.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, o]) => o);
  return JSON.stringify(sorted.map(({ apiVersion, group, kind, namespace, name }) => ({ apiVersion, group, kind, namespace, name })));
}

function isReferredObject(value: unknown): value is ReferredObject {
  const o = value as Record<string, unknown> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    ['apiVersion', 'group', 'kind', 'namespace', 'name'].every((field) => typeof o[field] === 'string')
  );
}
