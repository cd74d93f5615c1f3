import { describe, expect, it } from 'vitest';
import { decide, secondsUntilNextPass, BACKOFF_MAX_SECONDS } from './decide';
import type { ExternalSnapshot, ObjectSnapshot } from './observation';

const object = (over: Partial<ObjectSnapshot> = {}): ObjectSnapshot => ({
  uid: 'u1',
  generation: 1,
  resourceVersion: '10',
  deleting: false,
  paused: false,
  hasFinalizer: true,
  deletionPolicy: 'Delete',
  managementPolicies: ['*'],
  conditions: [],
  ...over,
});
const missing: ExternalSnapshot = { resourceExists: false, resourceUpToDate: false };
const settled: ExternalSnapshot = { resourceExists: true, resourceUpToDate: true, readiness: 'Available' };

describe('decide', () => {
  it('adds the finalizer before creating a missing external resource', () => {
    const plan = decide(object({ hasFinalizer: false }), missing);
    expect(plan.steps.map((s) => s.kind)).toEqual(['addFinalizer', 'create']);
    expect(plan.conditions).toMatchObject([
      { type: 'Ready', reason: 'Creating' },
      { type: 'Synced', reason: 'ReconcileSuccess' },
    ]);
    expect(plan.next).toBe('pending');
  });

  it('does nothing to a settled resource and polls at the steady interval', () => {
    const plan = decide(object(), settled);
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toMatchObject([
      { type: 'Ready', status: 'True', reason: 'Available' },
      { type: 'Synced', status: 'True' },
    ]);
    expect(plan.next).toBe('steady');
  });

  it('updates a drifted resource and re-observes soon', () => {
    const plan = decide(object(), { ...settled, resourceUpToDate: false, diff: 'tag a' });
    expect(plan.steps).toEqual([{ kind: 'update', diff: 'tag a' }]);
    expect(plan.next).toBe('pending');
  });

  it('late-initializes only when the policies allow it', () => {
    const lateInitialized = { instanceTenancy: 'default' };
    expect(decide(object(), { ...settled, lateInitialized }).steps).toEqual([{ kind: 'lateInitialize', fields: lateInitialized }]);
    expect(
      decide(object({ managementPolicies: ['Observe', 'Create', 'Update', 'Delete'] }), { ...settled, lateInitialized }).steps,
    ).toEqual([]);
  });

  it('reports paused without touching anything and waits for a change', () => {
    const plan = decide(object({ paused: true, hasFinalizer: false }), undefined);
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toMatchObject([{ type: 'Synced', status: 'False', reason: 'ReconcilePaused' }]);
    expect(plan.next).toBe('signal');
  });

  it('observe-only never creates, updates or deletes', () => {
    const observeOnly = object({ managementPolicies: ['Observe'] });
    expect(decide(observeOnly, missing).steps).toEqual([]);
    expect(decide(observeOnly, missing).conditions).toMatchObject([
      { type: 'Ready', status: 'False' },
      { type: 'Synced', status: 'False' },
    ]);
    expect(decide(observeOnly, { ...settled, resourceUpToDate: false }).steps).toEqual([]);
    const deletion = decide({ ...observeOnly, deleting: true }, settled);
    expect(deletion.steps).toEqual([{ kind: 'removeFinalizer' }]);
    expect(deletion.complete).toBe(true);
  });

  it('deletes the external resource before releasing the object', () => {
    const first = decide(object({ deleting: true }), settled);
    expect(first.steps).toEqual([{ kind: 'delete' }]);
    expect(first.conditions[0]).toMatchObject({ type: 'Ready', reason: 'Deleting' });
    expect(first.complete).toBe(false);
    const second = decide(object({ deleting: true }), missing);
    expect(second.steps).toEqual([{ kind: 'removeFinalizer' }]);
    expect(second.complete).toBe(true);
  });

  it('orphans the external resource when the deletion policy says so', () => {
    const plan = decide(object({ deleting: true, deletionPolicy: 'Orphan' }), settled);
    expect(plan.steps).toEqual([{ kind: 'removeFinalizer' }]);
    expect(plan.complete).toBe(true);
  });

  it('shows a provider error in Synced and backs off', () => {
    const plan = decide(object(), undefined, 'AuthFailure: bad keys');
    expect(plan.conditions).toEqual([{ type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'AuthFailure: bad keys' }]);
    expect(plan.next).toBe('backoff');
  });
});

describe('secondsUntilNextPass', () => {
  const poll = { steadySeconds: 60, pendingSeconds: 5 };
  it('backs off exponentially on consecutive failures, with a cap', () => {
    const waits = [1, 2, 3, 4, 10].map((n) => secondsUntilNextPass('backoff', poll, n));
    expect(waits).toEqual([5, 10, 20, 40, BACKOFF_MAX_SECONDS]);
  });
  it('waits for a signal only when paused', () => {
    expect(secondsUntilNextPass('signal', poll, 0)).toBeUndefined();
    expect(secondsUntilNextPass('steady', poll, 0)).toBe(60);
    expect(secondsUntilNextPass('pending', poll, 0)).toBe(5);
  });
});
