// Status conditions in Crossplane's shape. Pure functions only: workflows import this module,
// so it must stay free of I/O and of anything non-deterministic (time is passed in).

export type ConditionType = 'Ready' | 'Synced' | 'ReferencesResolved';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

export const ReadyReason = {
  Available: 'Available',
  Creating: 'Creating',
  Deleting: 'Deleting',
  Unavailable: 'Unavailable',
} as const;

export const SyncedReason = {
  ReconcileSuccess: 'ReconcileSuccess',
  ReconcileError: 'ReconcileError',
  ReconcilePaused: 'ReconcilePaused',
} as const;

export interface Condition {
  type: ConditionType;
  status: ConditionStatus;
  reason: string;
  message?: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A condition as a decision produces it; the transition time is filled in by `mergeConditions`. */
export type ConditionUpdate = Omit<Condition, 'lastTransitionTime'>;

export const available = (): ConditionUpdate => ({ type: 'Ready', status: 'True', reason: ReadyReason.Available });
export const creating = (message?: string): ConditionUpdate => ({ type: 'Ready', status: 'False', reason: ReadyReason.Creating, message });
export const deleting = (message?: string): ConditionUpdate => ({ type: 'Ready', status: 'False', reason: ReadyReason.Deleting, message });
export const unavailable = (message?: string): ConditionUpdate => ({
  type: 'Ready',
  status: 'False',
  reason: ReadyReason.Unavailable,
  message,
});
export const reconcileSuccess = (): ConditionUpdate => ({ type: 'Synced', status: 'True', reason: SyncedReason.ReconcileSuccess });
export const reconcileError = (message: string): ConditionUpdate => ({
  type: 'Synced',
  status: 'False',
  reason: SyncedReason.ReconcileError,
  message,
});
export const referencesResolved = (): ConditionUpdate => ({ type: 'ReferencesResolved', status: 'True', reason: 'ResolvedReferences' });
export const referencesUnresolved = (message: string): ConditionUpdate => ({
  type: 'ReferencesResolved',
  status: 'False',
  reason: 'ReferencesUnresolved',
  message,
});
export const reconcilePaused = (): ConditionUpdate => ({
  type: 'Synced',
  status: 'False',
  reason: SyncedReason.ReconcilePaused,
  message: 'Reconciliation is paused via the crossplane.io/paused annotation',
});

/**
 * Applies updates to the current conditions. A condition keeps its lastTransitionTime unless its
 * status changes, as Kubernetes API conventions require; other condition types are left alone.
 */
export function mergeConditions(current: readonly Condition[], updates: readonly ConditionUpdate[], now: string): Condition[] {
  const merged = [...current];
  for (const update of updates) {
    const index = merged.findIndex((c) => c.type === update.type);
    const previous = index >= 0 ? merged[index] : undefined;
    const lastTransitionTime = previous && previous.status === update.status ? previous.lastTransitionTime : now;
    const next = dropUndefined({ ...update, lastTransitionTime });
    if (index >= 0) merged[index] = next;
    else merged.push(next);
  }
  return merged;
}

/** True when two condition lists say the same thing (timestamps aside), so no status write is needed. */
export function sameConditions(a: readonly Condition[], b: readonly Condition[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x) => {
    const y = b.find((c) => c.type === x.type);
    return (
      y !== undefined &&
      y.status === x.status &&
      y.reason === x.reason &&
      (y.message ?? '') === (x.message ?? '') &&
      y.observedGeneration === x.observedGeneration
    );
  });
}

export function conditionStatus(conditions: readonly Condition[], type: ConditionType): ConditionStatus {
  return conditions.find((c) => c.type === type)?.status ?? 'Unknown';
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The conditions with `note` added to Synced's message (once). */
export function withSyncedNote<C extends ConditionUpdate>(conditions: C[], note: string): C[] {
  return conditions.map((c) =>
    c.type !== 'Synced' || c.message?.endsWith(note) ? c : { ...c, message: c.message ? `${c.message}; ${note}` : note },
  );
}

/** How Ready's message starts while a deletion waits for dependents (the watcher looks for it). */
export const WAITING_FOR_DEPENDENTS = 'waiting for dependents to be deleted first: ';
