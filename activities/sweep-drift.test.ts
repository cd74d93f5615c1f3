import { describe, expect, it } from 'vitest';
import type { SweptObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { awaitsProvider, groupByScope, isSettled, reasonToWake } from './sweep-drift';

const condition = (type: string, status: string) => ({ type, status, reason: 'r', lastTransitionTime: '2026-01-01T00:00:00Z' });

const resource = (over: { annotations?: Record<string, string>; status?: object; spec?: object; deleting?: boolean } = {}) =>
  ({
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'VPC',
    metadata: {
      name: 'v',
      namespace: 'ns',
      uid: 'u1',
      generation: 2,
      resourceVersion: '42',
      annotations: over.annotations ?? { 'crossplane.io/external-name': 'vpc-1' },
      ...(over.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { forProvider: { region: 'us-east-1' }, ...over.spec },
    status: over.status ?? {
      conditions: [condition('Ready', 'True'), condition('Synced', 'True')],
      atProvider: { vpcId: 'vpc-1', state: 'available' },
    },
  }) as unknown as ManagedResource;

const inSync: SweptObservation = {
  resourceExists: true,
  resourceUpToDate: true,
  readiness: 'Available',
  // What a conversion returns: undefined fields, which the API server never stores.
  atProvider: { vpcId: 'vpc-1', state: 'available', ownerId: undefined },
};

describe('isSettled', () => {
  it.each([
    ['Ready and Synced, with an external resource', resource(), true],
    ['not Ready', resource({ status: { conditions: [condition('Ready', 'False'), condition('Synced', 'True')] } }), false],
    [
      'Synced=False (an error it reports itself)',
      resource({ status: { conditions: [condition('Ready', 'True'), condition('Synced', 'False')] } }),
      false,
    ],
    ['never reconciled', resource({ status: {} }), false],
    ['without an external name', resource({ annotations: {} }), false],
    ['paused', resource({ annotations: { 'crossplane.io/external-name': 'vpc-1', 'crossplane.io/paused': 'true' } }), false],
    ['being deleted', resource({ deleting: true }), false],
  ])('%s: %s', (_what, mr, settled) => {
    expect(isSettled(mr)).toBe(settled);
  });
});

describe('awaitsProvider', () => {
  it.each([
    [
      'Ready=False with an external resource (its provider cannot be reached)',
      resource({ status: { conditions: [condition('Ready', 'False'), condition('Synced', 'False')] } }),
      true,
    ],
    ['settled', resource(), false],
    ['never created', resource({ annotations: {}, status: {} }), false],
    ['paused', resource({ annotations: { 'crossplane.io/external-name': 'vpc-1', 'crossplane.io/paused': 'true' }, status: {} }), false],
    ['being deleted', resource({ deleting: true, status: {} }), false],
  ])('%s: %s', (_what, mr, awaits) => {
    expect(awaitsProvider(mr)).toBe(awaits);
  });
});

describe('reasonToWake', () => {
  it('leaves a resource in sync alone, however its atProvider was spelled', () => {
    expect(reasonToWake(resource(), inSync)).toBeUndefined();
  });

  it('leaves a resource alone that the sweep did not look up', () => {
    expect(reasonToWake(resource(), undefined)).toBeUndefined();
  });

  it.each<[string, SweptObservation, string]>([
    ['vanished', { resourceExists: false, resourceUpToDate: false }, 'its external resource is gone'],
    [
      'unusable',
      { ...inSync, readiness: 'Unavailable', readinessMessage: 'route to 0.0.0.0/0 is a blackhole' },
      'its external resource is Unavailable: route to 0.0.0.0/0 is a blackhole',
    ],
    ['drifted', { ...inSync, resourceUpToDate: false, diff: 'tag team: want "net"' }, 'drifted: tag team: want "net"'],
    ['stale status', { ...inSync, atProvider: { vpcId: 'vpc-1', state: 'pending' } }, 'status.atProvider is out of date'],
  ])('wakes a resource that %s', (_what, swept, reason) => {
    expect(reasonToWake(resource(), swept)).toBe(reason);
  });

  it('does not wake an observe-only resource for drift it may not correct, but does for what it reports', () => {
    const observeOnly = resource({ spec: { managementPolicies: ['Observe'] } });
    expect(reasonToWake(observeOnly, { ...inSync, resourceUpToDate: false, diff: 'tag a' })).toBeUndefined();
    expect(reasonToWake(observeOnly, { resourceExists: false, resourceUpToDate: false })).toBe('its external resource is gone');
    expect(reasonToWake(observeOnly, { ...inSync, atProvider: { vpcId: 'vpc-2' } })).toBe('status.atProvider is out of date');
  });
});

describe('groupByScope', () => {
  it('keeps each scope together, in listing order', () => {
    const named = (name: string, region: string) =>
      ({ ...resource(), metadata: { ...resource().metadata, name }, spec: { forProvider: { region } } }) as ManagedResource;
    const groups = groupByScope([named('a', 'us-east-1'), named('b', 'eu-west-1'), named('c', 'us-east-1')], (mr) =>
      String(mr.spec.forProvider.region),
    );
    expect([...groups].map(([scope, mrs]) => [scope, mrs.map((m) => m.metadata.name)])).toEqual([
      ['us-east-1', ['a', 'c']],
      ['eu-west-1', ['b']],
    ]);
  });
});
