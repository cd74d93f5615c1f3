// The state `kubectl get kubernetesapplication` shows, derived from what the engine keeps.
import { describe, expect, it } from 'vitest';
import { reconcileError, reconcilePaused, reconcileSuccess, type Condition, type ConditionUpdate } from '#core/conditions';
import type { ApplicationObservation } from './schema';
import { applicationStateOf, applicationStatus } from './status';

const at = (c: ConditionUpdate): Condition => ({ ...c, lastTransitionTime: '2026-01-01T00:00:00Z' });
const clusterRef = { apiVersion: 'compute.crossplane.io/v1alpha1', kind: 'KubernetesCluster', namespace: 'complex', name: 'c' };
const scheduled = (submittedResources: number, desiredResources = 3): ApplicationObservation => ({
  clusterRef,
  desiredResources,
  submittedResources,
});

describe('applicationStateOf', () => {
  it.each<[string, ApplicationObservation | undefined, ConditionUpdate[], string]>([
    ['nothing known yet', undefined, [], 'Pending'],
    [
      'no cluster matches (scheduling failed)',
      { desiredResources: 3, submittedResources: 0 },
      [reconcileError('no KubernetesCluster')],
      'Pending',
    ],
    ['scheduled, nothing submitted', scheduled(0), [reconcileSuccess()], 'Scheduled'],
    ['some submitted', scheduled(2), [reconcileSuccess()], 'PartiallySubmitted'],
    ['all submitted', scheduled(3), [reconcileSuccess()], 'Submitted'],
    ['no templates at all', scheduled(0, 0), [reconcileSuccess()], 'Submitted'],
    ['the last pass failed (a conflict)', scheduled(2), [reconcileError('already exists')], 'Failed'],
    ['paused is no failure', scheduled(2), [reconcilePaused()], 'PartiallySubmitted'],
  ])('%s: %s', (_, atProvider, conditions, state) => {
    expect(applicationStateOf(atProvider, conditions.map(at))).toBe(state);
  });
});

describe('applicationStatus', () => {
  it('writes upstream’s fields and reads back what the engine keeps', () => {
    const written = applicationStatus.write(scheduled(2), [at(reconcileSuccess())]);
    expect(written).toEqual({ state: 'PartiallySubmitted', clusterRef, desiredResources: 3, submittedResources: 2 });
    expect(applicationStatus.read({ ...written, conditions: [] })).toEqual(scheduled(2));
  });

  it('reads nothing from an empty status, and only what is there from a Pending one', () => {
    expect(applicationStatus.read({})).toBeUndefined();
    expect(applicationStatus.read({ state: 'Pending', desiredResources: 1, submittedResources: 0 })).toEqual({
      desiredResources: 1,
      submittedResources: 0,
    });
    expect(applicationStatus.write(undefined, [])).toMatchObject({ state: 'Pending' });
  });
});
