import { describe, expect, it } from 'vitest';
import { available, mergeConditions, reconcileSuccess } from '#core/conditions';
import { withSyncedNote } from '#core/conditions';
import { planWriteBack } from './status';
import { sameJson } from '#core/same-json';
import type { ObjectSnapshot } from '#contract/observation';

const settled = (atProvider: unknown): ObjectSnapshot => ({
  uid: 'u',
  generation: 3,
  resourceVersion: '9',
  deleting: false,
  paused: false,
  hasFinalizer: true,
  deletionPolicy: 'Delete',
  managementPolicies: ['*'],
  conditions: mergeConditions(
    [],
    [available(), reconcileSuccess()].map((c) => ({ ...c, observedGeneration: 3 })),
    't0',
  ),
  statusObservedGeneration: 3,
  atProvider,
});

describe('planWriteBack', () => {
  it('writes nothing when the object already shows this observation, whatever the key order', () => {
    const fromApiServer = {
      cidrBlockAssociationSet: [{ associationId: 'a', cidrBlock: '10.0.0.0/16' }],
      state: 'available',
      vpcId: 'vpc-1',
    };
    const fromProvider = {
      vpcId: 'vpc-1',
      state: 'available',
      cidrBlockAssociationSet: [{ cidrBlock: '10.0.0.0/16', associationId: 'a', statusMessage: undefined }],
    };
    expect(planWriteBack(settled(fromApiServer), fromProvider, [available(), reconcileSuccess()], undefined, [], 't1')).toBeUndefined();
  });

  it('writes status when the provider reports something new, keeping transition times', () => {
    const plan = planWriteBack(
      settled({ state: 'pending' }),
      { state: 'available' },
      [available(), reconcileSuccess()],
      undefined,
      [],
      't1',
    );
    expect(plan?.status?.atProvider).toEqual({ state: 'available' });
    expect(plan?.status?.conditions.every((c) => c.lastTransitionTime === 't0')).toBe(true);
  });

  it('writes status when the spec moved on to a new generation', () => {
    const object = { ...settled({}), generation: 4 };
    expect(planWriteBack(object, {}, [available(), reconcileSuccess()], undefined, [], 't1')?.status?.observedGeneration).toBe(4);
  });
});

describe('planWriteBack with an observed state status could not hold', () => {
  const standIn = { heldByWorker: { sha256: 'abc', bytes: 1_800_000 } };
  const leftOut = { atProvider: standIn, note: 'status.atProvider is left out: too large' };
  const shown = (object: ObjectSnapshot) => ({
    ...object,
    atProvider: undefined,
    conditions: withSyncedNote(object.conditions, leftOut.note),
  });

  it('writes nothing again once status shows the conditions without it, saying why', () => {
    expect(
      planWriteBack(shown(settled(undefined)), standIn, [available(), reconcileSuccess()], undefined, [], 't1', leftOut),
    ).toBeUndefined();
  });

  it('writes the conditions without it, with the note, when they change', () => {
    const unavailable = { ...available(), status: 'False' as const, reason: 'Unavailable' };
    const plan = planWriteBack(shown(settled(undefined)), standIn, [unavailable, reconcileSuccess()], undefined, [], 't1', leftOut);
    expect(plan?.status?.atProvider).toBeUndefined();
    expect(plan?.status?.conditions.find((c) => c.type === 'Synced')?.message).toBe(leftOut.note);
  });

  it('tries status with the observed state again once that state changes', () => {
    const other = { heldByWorker: { sha256: 'def', bytes: 1_000 } };
    const plan = planWriteBack(shown(settled(undefined)), other, [available(), reconcileSuccess()], undefined, [], 't1', leftOut);
    expect(plan?.status?.atProvider).toEqual(other);
    expect(plan?.status?.conditions.find((c) => c.type === 'Synced')?.message).toBeUndefined();
  });
});

describe('withSyncedNote', () => {
  it('adds the note to Synced once, after any message it has', () => {
    const conditions = mergeConditions([], [{ ...reconcileSuccess(), message: 'ok' }, available()], 't0');
    const noted = withSyncedNote(withSyncedNote(conditions, 'left out'), 'left out');
    expect(noted.find((c) => c.type === 'Synced')?.message).toBe('ok; left out');
    expect(noted.find((c) => c.type === 'Ready')).toEqual(conditions.find((c) => c.type === 'Ready'));
  });
});

describe('sameJson', () => {
  it('ignores key order and undefined fields but not values', () => {
    expect(sameJson({ a: 1, b: [{ c: 2, d: undefined }] }, { b: [{ c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson(undefined, undefined)).toBe(true);
    expect(sameJson(undefined, {})).toBe(false);
  });
});

describe('planWriteBack and reconcile requests', () => {
  const conditions = [available(), reconcileSuccess()];
  const atProvider = { vpcId: 'vpc-1' };

  it('records a new crossplane.io/reconcile-requested-at token even when nothing else changed', () => {
    const object = { ...settled(atProvider), reconcileRequestedAt: 'token-2', lastHandledReconcileAt: 'token-1' };
    expect(planWriteBack(object, atProvider, conditions, undefined, [], 't1')?.status).toMatchObject({
      lastHandledReconcileAt: 'token-2',
      conditions: object.conditions,
    });
  });

  it('writes nothing for a token already recorded', () => {
    const object = { ...settled(atProvider), reconcileRequestedAt: 'token-1', lastHandledReconcileAt: 'token-1' };
    expect(planWriteBack(object, atProvider, conditions, undefined, [], 't1')).toBeUndefined();
  });

  it('keeps the recorded token in a status written for another reason (status is written whole)', () => {
    const object = { ...settled(atProvider), reconcileRequestedAt: 'token-1', lastHandledReconcileAt: 'token-1' };
    const status = planWriteBack(object, { vpcId: 'vpc-2' }, conditions, undefined, [], 't1')?.status;
    expect(status).toMatchObject({ lastHandledReconcileAt: 'token-1', atProvider: { vpcId: 'vpc-2' } });
  });

  it('records no token for a paused object: no pass ran for it', () => {
    const object = { ...settled(atProvider), paused: true, reconcileRequestedAt: 'token-2' };
    expect(planWriteBack(object, atProvider, conditions, undefined, [], 't1')).toBeUndefined();
  });
});
