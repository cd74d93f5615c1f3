// addFinalizer and removeFinalizer take the object from the worker's cache and change the
// finalizers in one guarded write; when the cached copy is stale they read the object fresh
// instead of losing an edit.
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { FINALIZER } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import type { KubeAccess } from './kube';
import { OwnWrites } from '#runtime/own-writes';
import { createReconcileActivities } from './reconcile';

const ref = { group: 'ec2.aws.chronoplane.io', kind: 'VPC', namespace: 'team-a', name: 'net' };
const object = (resourceVersion: string, finalizers?: string[]): ManagedResource =>
  ({
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'VPC',
    metadata: { name: 'net', namespace: 'team-a', uid: 'u1', generation: 1, resourceVersion, ...(finalizers && { finalizers }) },
    spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.0.0.0/16' } },
  }) as ManagedResource;

function setUp(stored: ManagedResource, cached: ManagedResource) {
  const calls: string[] = [];
  const kube = {
    async get() {
      calls.push('get');
      return structuredClone(stored);
    },
    // A merge patch carrying the read's resourceVersion: the API server's optimistic lock.
    async patch(_ref: unknown, _uid: string, body: { metadata: { resourceVersion: string; finalizers: string[] } }) {
      const { resourceVersion, finalizers } = body.metadata;
      if (resourceVersion !== stored.metadata.resourceVersion) throw new ApiException(409, 'conflict', {}, {});
      calls.push(`merge-patch ${finalizers.join(',')} at ${resourceVersion}`);
      return { ...stored, metadata: { ...stored.metadata, finalizers, resourceVersion: '99' } };
    },
    async changeMetadataIfUnchanged(_ref: unknown, read: ManagedResource, finalizers: string[]) {
      calls.push('patch');
      if (read.metadata.resourceVersion !== stored.metadata.resourceVersion) throw new ApiException(422, 'test failed', {}, {});
      calls.push(`patched ${finalizers.join(',')}`);
      return { ...stored, metadata: { ...stored.metadata, finalizers, resourceVersion: '98' } };
    },
    async createEvent(event: { reason: string }) {
      calls.push(`event ${event.reason}`);
    },
  } as unknown as KubeAccess;
  const ownWrites = new OwnWrites();
  const activities = createReconcileActivities(kube, { objects: { read: async () => structuredClone(cached) }, ownWrites });
  return { calls, activities, ownWrites };
}

describe('addFinalizer', () => {
  it('adds it in one write from the cached object, and notes the write as ours', async () => {
    const { calls, activities, ownWrites } = setUp(object('7', ['other']), object('7', ['other']));
    expect(await activities.addFinalizer(ref, 'u1')).toEqual({ summary: `added finalizer ${FINALIZER}`, resourceVersion: '98' });
    expect(calls).toEqual(['patch', `patched other,${FINALIZER}`]);
    expect(ownWrites.take('u1', '98')).toBe(true);
  });

  it('reads the object fresh when the cached copy is stale, keeping the finalizer added since', async () => {
    const { calls, activities } = setUp(object('8', ['added-since']), object('7'));
    expect(await activities.addFinalizer(ref, 'u1')).toMatchObject({ resourceVersion: '99' });
    expect(calls).toEqual(['patch', 'get', `merge-patch added-since,${FINALIZER} at 8`]);
  });

  it('removes it in one write from the cached object, keeping the others', async () => {
    const { calls, activities } = setUp(object('7', ['other', FINALIZER]), object('7', ['other', FINALIZER]));
    expect(await activities.removeFinalizer(ref, 'u1')).toBe(`removed finalizer ${FINALIZER}`);
    expect(calls).toEqual(['patch', 'patched other']);
  });

  it('records the releasing pass’s events once it is removed, in the same activity', async () => {
    const { calls, activities } = setUp(object('7', [FINALIZER]), object('7', [FINALIZER]));
    const deleted = { type: 'Normal' as const, reason: 'DeletedExternalResource', message: 'deleted vpc-0abc' };
    expect(await activities.removeFinalizer(ref, 'u1', [deleted])).toBe(`removed finalizer ${FINALIZER}`);
    expect(calls).toEqual(['patch', 'patched ', 'event DeletedExternalResource']);
  });

  it('removes it from a fresh read when the cached copy is stale', async () => {
    const { calls, activities } = setUp(object('8', ['added-since', FINALIZER]), object('7', [FINALIZER]));
    expect(await activities.removeFinalizer(ref, 'u1')).toBe(`removed finalizer ${FINALIZER}`);
    expect(calls).toEqual(['patch', 'get', 'merge-patch added-since at 8']);
  });
});
