import { describe, expect, it } from 'vitest';
import type { Condition } from '#core/conditions';
import type { ClusterReference } from './schema';
import { NOT_SCHEDULED, resourceStatus, stateOf } from './status';

const clusterRef: ClusterReference = {
  apiVersion: 'compute.crossplane.io/v1alpha1',
  kind: 'KubernetesCluster',
  namespace: 'complex',
  name: 'c',
};
const condition = (type: Condition['type'], status: Condition['status'], reason = 'Any', message?: string): Condition => ({
  type,
  status,
  reason,
  lastTransitionTime: '2026-01-01T00:00:00Z',
  ...(message ? { message } : {}),
});
const notScheduled = condition('Synced', 'False', 'ReconcileError', `${NOT_SCHEDULED}its KubernetesApplication a is not scheduled yet`);

describe('stateOf', () => {
  it.each([
    ['not scheduled yet', undefined, [notScheduled], 'Pending'],
    [
      'scheduled, but its cluster could not be reached, so none is recorded',
      undefined,
      [condition('Synced', 'False', 'ReconcileError', 'cannot read the kubeconfig Secret complex/c-conn: not found')],
      'Failed',
    ],
    ['no cluster in atProvider', { remote: { phase: 'Active' } }, [condition('Ready', 'True')], 'Pending'],
    ['scheduled, last pass failed', { clusterRef }, [condition('Ready', 'True'), condition('Synced', 'False', 'ReconcileError')], 'Failed'],
    ['scheduled and submitted', { clusterRef }, [condition('Ready', 'True'), condition('Synced', 'True')], 'Submitted'],
    ['scheduled, not submitted yet', { clusterRef }, [condition('Ready', 'False', 'Creating'), condition('Synced', 'True')], 'Scheduled'],
    ['scheduled, no conditions yet', { clusterRef }, [], 'Scheduled'],
    ['paused is no failure', { clusterRef }, [condition('Ready', 'True'), condition('Synced', 'False', 'ReconcilePaused')], 'Submitted'],
  ] as const)('%s', (_, atProvider, conditions, state) => {
    expect(stateOf(atProvider, conditions)).toBe(state);
  });
});

describe('resourceStatus', () => {
  it('writes upstream’s fields from atProvider and the conditions, and reads atProvider back', () => {
    const atProvider = { clusterRef, remote: { readyReplicas: 1 } };
    const written = resourceStatus.write(atProvider, [condition('Ready', 'True'), condition('Synced', 'True')]);
    expect(written).toEqual({ state: 'Submitted', clusterRef, remote: { readyReplicas: 1 } });
    expect(resourceStatus.read({ ...written, conditions: [] })).toEqual(atProvider);
  });

  it('leaves out what is not known, and reads nothing from an empty status', () => {
    expect(resourceStatus.write(undefined, [])).toEqual({ state: 'Pending', clusterRef: undefined, remote: undefined });
    expect(resourceStatus.read({})).toBeUndefined();
    expect(resourceStatus.read({ clusterRef })).toEqual({ clusterRef });
  });
});
