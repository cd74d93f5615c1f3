// Which resources a sweep wakes, and why. Pure, so the rules are table-tested: a sweep only
// decides whom to wake, and the woken resource's own pass decides everything else.
import { EXTERNAL_NAME, PAUSED } from '#core/annotations';
import type { SweptObservation } from '#core/external-client';
import { managementPoliciesOf, type ManagedResource } from '#core/managed-resource';
import { allows } from '#core/management-policies';
import { sameJson } from '#core/same-json';

/**
 * Settled as its own workflow last wrote it: Ready and Synced, not paused or being deleted, and
 * with an external resource. Only these wait on the long safety net, so only these need the
 * sweep; every other resource still polls at its own pending, backoff or steady interval.
 */
export function isSettled(mr: ManagedResource): boolean {
  const { annotations, deletionTimestamp } = mr.metadata;
  if (deletionTimestamp || annotations?.[PAUSED] === 'true' || !annotations?.[EXTERNAL_NAME]) return false;
  const status = (type: string) => mr.status?.conditions?.find((c) => c.type === type)?.status;
  return status('Ready') === 'True' && status('Synced') === 'True';
}

/**
 * A resource with an external resource that is not settled and not on its way out: Ready=False
 * or Synced=False, typically because the provider could not be reached.
 */
export function awaitsProvider(mr: ManagedResource): boolean {
  const { annotations, deletionTimestamp } = mr.metadata;
  return !deletionTimestamp && annotations?.[PAUSED] !== 'true' && annotations?.[EXTERNAL_NAME] !== undefined && !isSettled(mr);
}

/**
 * Why the resource's own workflow should look now, or undefined when the sweep saw nothing its
 * pass would act on: the external resource is gone or not ready, it drifted and the management
 * policies let the pass correct it, or status.atProvider no longer says what EC2 says.
 */
export function reasonToWake(mr: ManagedResource, swept: SweptObservation | undefined): string | undefined {
  if (!swept) return undefined; // not looked up: no external name yet
  if (!swept.resourceExists) return 'its external resource is gone';
  if (swept.readiness !== 'Available') {
    const why = swept.readinessMessage ? `: ${swept.readinessMessage}` : '';
    return `its external resource is ${swept.readiness ?? 'of unknown readiness'}${why}`;
  }
  // A drift it may not correct (observe-only) would wake it every sweep to no effect.
  if (!swept.resourceUpToDate && allows(managementPoliciesOf(mr.spec), 'Update')) return `drifted: ${swept.diff}`;
  if (!sameJson(swept.atProvider, mr.status?.atProvider)) return 'status.atProvider is out of date';
  return undefined;
}

/** Settled resources grouped by scope (for AWS: ProviderConfig and region), in listing order. */
export function groupByScope(mrs: readonly ManagedResource[], scopeOf: (mr: ManagedResource) => string): Map<string, ManagedResource[]> {
  const groups = new Map<string, ManagedResource[]>();
  for (const mr of mrs) {
    const scope = scopeOf(mr);
    const group = groups.get(scope);
    if (group) group.push(mr);
    else groups.set(scope, [mr]);
  }
  return groups;
}
