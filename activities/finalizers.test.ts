// addFinalizer and removeFinalizer take the object from the worker's cache and change the
// finalizers in one guarded write; when the cached copy is stale they read the object fresh
// instead of losing an edit.
import { ApiException } from '@kubernetes/client-node';
import { DefaultLogger } from '@temporalio/worker';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FINALIZER } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import type { ExternalDeletion } from '#contract/observation';
import type { KubeAccess } from './kube';
import { OwnWrites } from '#runtime/own-writes';
import { kindFor } from '#providers/registry';
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

describe('deleteExternal that answers gone', () => {
  // A VPC's delete answers gone at once (moto or EC2); the kind's client is replaced here.
  function withSynchronousDelete(stored: ManagedResource, attempt = 1) {
    const { calls, activities } = setUp(stored, stored);
    const kind = kindFor(ref.group, ref.kind);
    vi.spyOn(kind.connector, 'connect').mockResolvedValue({
      delete: async () => ({ gone: true, summary: 'deleted vpc-0abc' }),
    } as unknown as Awaited<ReturnType<typeof kind.connector.connect>>);
    const env = new MockActivityEnvironment({ attempt }, { logger: new DefaultLogger('ERROR') });
    const deleteExternal = (decidedOn: string): Promise<ExternalDeletion> =>
      env.run(activities.deleteExternal, ref, 'u1', { decidedOn, events: [decided] });
    return { calls, deleteExternal };
  }
  const decided = { type: 'Normal' as const, reason: 'Deleting', message: 'from the pass' };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('releases the object in the same call, with the pass’s events and its own, while it is the version the workflow decided on', async () => {
    const { calls, deleteExternal } = withSynchronousDelete(object('7', [FINALIZER]));
    expect(await deleteExternal('7')).toEqual({
      summary: 'deleted vpc-0abc',
      gone: { uid: 'u1' },
      released: `removed finalizer ${FINALIZER}`,
    });
    // The object comes from the cache, which has the version decided on: no GET.
    expect(calls).toEqual(['patch', 'patched ', 'event Deleting', 'event DeletedExternalResource']);
  });

  it('reads the object fresh on a retry: an earlier attempt may have released it', async () => {
    const { calls, deleteExternal } = withSynchronousDelete(object('7', [FINALIZER]), 2);
    expect(await deleteExternal('7')).toMatchObject({ released: `removed finalizer ${FINALIZER}` });
    expect(calls[0]).toBe('get');
  });

  it('leaves the release to a pass when the object changed since the decision, and answers that pass its observation', async () => {
    const { calls, deleteExternal } = withSynchronousDelete(object('8', [FINALIZER]));
    const answer = await deleteExternal('7');
    expect(answer).toMatchObject({ summary: 'deleted vpc-0abc', gone: { uid: 'u1' }, next: { found: true } });
    expect(answer.released).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
