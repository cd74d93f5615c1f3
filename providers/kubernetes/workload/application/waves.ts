// The order an application's resources are submitted in. Namespaces and CustomResourceDefinitions
// are what other objects live in or are made of, so they form a first wave, and the rest is
// submitted only once that wave is Submitted: no Deployment is ever sent to a cluster that
// lacks its namespace (seed 003's "converges after a few failed loops" never happens).
// Deletion runs the other way round: the first wave goes last. Pure.
import { groupOf } from '#runtime/references/dependencies';

export interface TemplatedObject {
  apiVersion?: unknown;
  kind?: unknown;
}

/** A core Namespace or an apiextensions.k8s.io CustomResourceDefinition, of any version. */
export function isFirstWave(object: TemplatedObject | undefined): boolean {
  if (typeof object?.apiVersion !== 'string') return false;
  if (object.kind === 'Namespace') return groupOf(object.apiVersion) === '';
  if (object.kind === 'CustomResourceDefinition') return groupOf(object.apiVersion) === 'apiextensions.k8s.io';
  return false;
}

/** Splits items by the wave of the object each templates: [first wave, the rest]. */
export function byWave<T>(items: readonly T[], templated: (item: T) => TemplatedObject | undefined): [T[], T[]] {
  const first: T[] = [];
  const rest: T[] = [];
  for (const item of items) (isFirstWave(templated(item)) ? first : rest).push(item);
  return [first, rest];
}
