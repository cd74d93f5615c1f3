import { describe, expect, it } from 'vitest';
import { available, creating, mergeConditions, reconcileError, reconcileSuccess, sameConditions } from './conditions';

describe('mergeConditions', () => {
  it('keeps lastTransitionTime while the status stays the same', () => {
    const first = mergeConditions([], [creating(), reconcileSuccess()], 't1');
    const second = mergeConditions(first, [creating('still'), reconcileSuccess()], 't2');
    expect(second.find((c) => c.type === 'Ready')).toMatchObject({ lastTransitionTime: 't1', message: 'still' });
    const third = mergeConditions(second, [available()], 't3');
    expect(third.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', lastTransitionTime: 't3' });
    expect(third.find((c) => c.type === 'Synced')).toMatchObject({ lastTransitionTime: 't1' });
  });

  it('treats a changed message as a change worth writing', () => {
    const a = mergeConditions([], [reconcileError('one')], 't1');
    const b = mergeConditions(a, [reconcileError('two')], 't2');
    expect(sameConditions(a, b)).toBe(false);
    expect(sameConditions(a, mergeConditions(a, [reconcileError('one')], 't3'))).toBe(true);
  });
});
