// Which watch events reach the object's own workflow: spec, metadata and deletion changes do;
// status-only writes do not; nor does the deletion that the workflow itself completed by
// removing our finalizer (signalling it would race the workflow's own completion).
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { FINALIZER } from '#core/annotations';
import { SignalFilter } from './signal-filter';

const object = (uid: string, overrides: { generation?: number; finalizers?: string[]; deleting?: boolean; status?: string } = {}) =>
  ({
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'VPC',
    metadata: {
      name: 'network',
      namespace: 'team',
      uid,
      generation: overrides.generation ?? 1,
      finalizers: overrides.finalizers,
      deletionTimestamp: overrides.deleting ? new Date('2026-11-22T00:00:00Z') : undefined,
    },
    status: { note: overrides.status },
  }) as KubernetesObject;

describe('SignalFilter', () => {
  it('signals additions and spec changes, not status-only writes', () => {
    const filter = new SignalFilter();
    expect(filter.admit(object('a'), 'ADDED')).toBe(true);
    expect(filter.admit(object('a', { status: 'written by us' }), 'MODIFIED')).toBe(false);
    expect(filter.admit(object('a', { generation: 2 }), 'MODIFIED')).toBe(true);
  });

  it('signals the start of a deletion, but not the end of one that removed our finalizer', () => {
    const filter = new SignalFilter();
    filter.admit(object('a', { finalizers: [FINALIZER] }), 'ADDED');
    expect(filter.admit(object('a', { finalizers: [FINALIZER], deleting: true, generation: 2 }), 'MODIFIED')).toBe(true);
    // Only the object's own workflow takes our finalizer off, as its last act.
    expect(filter.admit(object('a', { deleting: true, generation: 2 }), 'DELETED')).toBe(false);
  });

  it('signals a deletion the workflow did not make: no finalizer of ours, or one stripped by hand first', () => {
    const filter = new SignalFilter();
    filter.admit(object('fresh'), 'ADDED');
    expect(filter.admit(object('fresh'), 'DELETED')).toBe(true);

    filter.admit(object('stripped', { finalizers: [FINALIZER, 'example.com/other'] }), 'ADDED');
    filter.admit(object('stripped', { finalizers: ['example.com/other'] }), 'MODIFIED');
    expect(filter.admit(object('stripped', { deleting: true }), 'DELETED')).toBe(true);
  });

  it('tells a successor under the same name from its predecessor by uid', () => {
    const filter = new SignalFilter();
    filter.admit(object('old', { finalizers: [FINALIZER] }), 'ADDED');
    expect(filter.admit(object('new'), 'ADDED')).toBe(true);
    expect(filter.admit(object('old', { deleting: true }), 'DELETED')).toBe(false);
    expect(filter.admit(object('new', { status: 'written by us' }), 'MODIFIED')).toBe(false);
  });

  it('signals an object it has not seen before, as after a relist', () => {
    expect(new SignalFilter().admit(object('unknown', { generation: 3 }), 'MODIFIED')).toBe(true);
    expect(new SignalFilter().admit(object('unknown'), 'DELETED')).toBe(true);
  });
});
