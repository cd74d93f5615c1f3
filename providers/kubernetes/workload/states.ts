// What the two workload kinds' `state` says first, the same way for both: Pending until a
// KubernetesCluster is known, then Failed while the last pass failed (a pause is no failure).
// Each kind then tells how far it got (Scheduled, PartiallySubmitted, Submitted). Pure.
import { SyncedReason, type Condition } from '#core/conditions';

export function pendingOrFailed(scheduled: boolean, conditions: readonly Condition[]): 'Pending' | 'Failed' | undefined {
  if (!scheduled) return 'Pending';
  const synced = conditions.find((c) => c.type === 'Synced');
  return synced?.status === 'False' && synced.reason !== SyncedReason.ReconcilePaused ? 'Failed' : undefined;
}
