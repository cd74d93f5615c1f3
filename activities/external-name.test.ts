// A kind whose external name the spec gives (an Object's is its manifest's name) has it recorded
// with the finalizer, in the write before the create, instead of in a write of its own after:
// one API-server write less per create. A name someone set is never changed before the create.
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXTERNAL_NAME, FINALIZER } from '#core/annotations';
import type { ExternalCreated } from '#contract/observation';
import type { ExternalClient } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { objectKind } from '#providers/kubernetes/object/index';
import type { ObjectObservation, ObjectParameters } from '#providers/kubernetes/object/schema';
import { OwnWrites } from '#runtime/own-writes';
import type { KubeAccess } from './kube';
import { createReconcileActivities } from './reconcile';

const ref = { group: 'kubernetes.crossplane.io', kind: 'Object', namespace: '', name: 'settings' };
const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-settings', namespace: 'default' } };

const object = (annotations?: Record<string, string>): ManagedResource =>
  ({
    apiVersion: 'kubernetes.crossplane.io/v1alpha2',
    kind: 'Object',
    metadata: { name: 'settings', uid: 'u1', generation: 1, resourceVersion: '7', ...(annotations && { annotations }) },
    spec: { forProvider: { manifest: configMap }, providerConfigRef: { name: 'default' } },
  }) as ManagedResource;

function setUp(stored: ManagedResource) {
  const writes: string[] = [];
  const kube = {
    async changeMetadataIfUnchanged(_ref: unknown, read: ManagedResource, finalizers: string[], annotations: Record<string, string> = {}) {
      writes.push(`finalizers ${finalizers.join(',')} annotations ${JSON.stringify(annotations)}`);
      const merged = { ...read.metadata.annotations, ...annotations };
      return { ...read, metadata: { ...read.metadata, finalizers, annotations: merged, resourceVersion: '8' } };
    },
    async patch(_ref: unknown, _uid: string, body: { metadata: { annotations: Record<string, string> } }) {
      writes.push(`annotations ${JSON.stringify(body.metadata.annotations)}`);
      const annotations = { ...stored.metadata.annotations, ...body.metadata.annotations };
      return { ...stored, metadata: { ...stored.metadata, finalizers: [FINALIZER], annotations, resourceVersion: '9' } };
    },
  } as unknown as KubeAccess;
  const client = {
    async create() {
      writes.push('server-side apply');
      return { externalName: 'app-settings', summary: 'created ConfigMap default/app-settings by server-side apply' };
    },
  } as unknown as ExternalClient<ObjectParameters, ObjectObservation>;
  vi.spyOn(objectKind.connector, 'connect').mockResolvedValue(client);
  const activities = createReconcileActivities(kube, {
    objects: { read: async () => structuredClone(stored) },
    ownWrites: new OwnWrites(),
  });
  const env = new MockActivityEnvironment({ attempt: 1 }, { logger: new DefaultLogger('ERROR') });
  return { writes, create: (): Promise<ExternalCreated> => env.run(activities.createExternal, ref, 'u1', true, true) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createExternal with a name known before the create', () => {
  it('records it with the finalizer, and makes no write of its own after the create', async () => {
    const { writes, create } = setUp(object());
    const created = await create();
    expect(writes).toEqual([`finalizers ${FINALIZER} annotations {"${EXTERNAL_NAME}":"app-settings"}`, 'server-side apply']);
    expect(created).toMatchObject({ externalName: 'app-settings', resourceVersions: ['8'] });
    expect(created.summary).toContain(`added finalizer ${FINALIZER} and ${EXTERNAL_NAME}=app-settings`);
  });

  it('leaves a name someone set before the create alone, and records the one the create gave after it', async () => {
    const { writes, create } = setUp(object({ [EXTERNAL_NAME]: 'imported' }));
    const created = await create();
    expect(writes).toEqual([
      `finalizers ${FINALIZER} annotations {}`,
      'server-side apply',
      `annotations {"${EXTERNAL_NAME}":"app-settings"}`,
    ]);
    expect(created).toMatchObject({ externalName: 'app-settings', resourceVersions: ['8', '9'] });
  });
});
