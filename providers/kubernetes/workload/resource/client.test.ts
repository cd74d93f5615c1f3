// The client's decisions, with the cluster played in memory (the shared RemoteCluster is
// replaced; its own behaviour is Object's, covered by ../../remote and the integration tests)
// and the control cluster stubbed (ConnectContext): what is applied in which order, what is
// refused, what is removed, when deletion is over, and that Secret values never come back out.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectContext, ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { RESOURCE_UID } from './schema';
import type { ResourceObservation } from './schema';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
} & Record<string, unknown>;
type Key = { cluster: string; apiVersion: string; kind: string; namespace: string; name: string };

const cluster = vi.hoisted(() => {
  const objects = new Map<string, Obj>();
  const terminating = new Set<string>();
  const writes: string[] = [];
  const released: string[] = [];
  /** Objects the shared watch has not seen yet: only a fresh read finds them. */
  const unseen = new Set<string>();
  const id = (k: Key) => `${k.kind} ${k.namespace ? `${k.namespace}/` : ''}${k.name}`;
  const subset = (have: unknown, want: unknown): boolean =>
    want !== null && typeof want === 'object'
      ? have !== null && typeof have === 'object' && Object.entries(want).every(([f, v]) => subset((have as Record<string, unknown>)[f], v))
      : have === want;
  class FakeRemote {
    keyOf(t: Obj | Omit<Key, 'cluster'>): Key {
      return 'metadata' in t
        ? { cluster: 'c', apiVersion: t.apiVersion, kind: t.kind, namespace: t.metadata.namespace ?? '', name: t.metadata.name }
        : { cluster: 'c', ...t };
    }
    async placed(d: Obj): Promise<Obj> {
      return d.metadata.namespace || d.kind === 'Namespace' ? d : { ...d, metadata: { ...d.metadata, namespace: 'default' } };
    }
    async read(_owner: unknown, key: Key, options: { fresh?: boolean } = {}): Promise<Obj | undefined> {
      if (unseen.has(id(key)) && !options.fresh) return undefined;
      return structuredClone(objects.get(id(key)));
    }
    async isUpToDate(_owner: unknown, desired: Obj, live: Obj): Promise<boolean> {
      return subset(live, desired);
    }
    async apply(_owner: unknown, desired: Obj): Promise<Obj> {
      const key = id(this.keyOf(desired));
      writes.push(`apply ${key}`);
      const applied = { ...structuredClone(desired), status: { phase: 'Active' } };
      objects.set(key, applied);
      return applied;
    }
    async delete(_owner: unknown, target: Obj): Promise<'already gone' | 'gone' | 'deleting'> {
      const key = id(this.keyOf(target));
      if (!objects.has(key)) return 'already gone';
      writes.push(`delete ${key}`);
      // A namespace goes only once its controller has emptied it; other objects go at once.
      if (target.kind === 'Namespace') {
        terminating.add(key);
        return 'deleting';
      }
      objects.delete(key);
      return 'gone';
    }
    release(_owner: unknown, keys: Key[]): void {
      released.push(...keys.map(id));
    }
  }
  return { objects, terminating, writes, released, unseen, FakeRemote };
});
vi.mock('../../remote/cluster', () => ({ RemoteCluster: cluster.FakeRemote }));
vi.mock('../../cluster-connection', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../cluster-connection')>()),
  connectToKubernetesCluster: vi.fn(async () => ({ key: 'c', kubeConfig: {} })),
}));

const { kubernetesApplicationResourceConnector: connector } = await import('./client');
const { KubernetesClusterGone, connectToKubernetesCluster } = await import('../../cluster-connection');

const PASSWORD = 'aHVudGVyMg=='; // base64 of a password that must never come back out
const clusterRef = { apiVersion: 'compute.crossplane.io/v1alpha1', kind: 'KubernetesCluster', namespace: 'complex', name: 'wp-cluster' };
let control: Map<string, Record<string, unknown>>;
let forgetControlObjects: ReturnType<typeof vi.fn>;
let context: ConnectContext;

beforeEach(() => {
  cluster.objects.clear();
  cluster.terminating.clear();
  cluster.unseen.clear();
  cluster.writes.length = 0;
  cluster.released.length = 0;
  control = new Map([['Secret complex/sql', sourceSecret({ password: PASSWORD })]]);
  forgetControlObjects = vi.fn();
  context = {
    getClusterObject: vi.fn(),
    getSecretValue: vi.fn(),
    wake: vi.fn(),
    readControlObject: async (key: ControlObjectKey) => structuredClone(control.get(`${key.kind} ${key.namespace}/${key.name}`)),
    forgetControlObjects,
  } as unknown as ConnectContext;
});

function sourceSecret(data: Record<string, string>) {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sql', namespace: 'complex' }, type: 'Opaque', data };
}

function resource(options: { template?: Obj; secrets?: string[]; deleting?: boolean; scheduled?: boolean } = {}) {
  const template = options.template ?? {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'wordpress', namespace: 'wordpress' },
    spec: { replicas: 1 },
  };
  return {
    apiVersion: 'workload.crossplane.io/v1alpha1',
    kind: 'KubernetesApplicationResource',
    metadata: {
      name: 'wp-deployment',
      namespace: 'complex',
      uid: 'uid-1',
      generation: 1,
      resourceVersion: '1',
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { template, ...(options.secrets ? { secrets: options.secrets.map((name) => ({ name })) } : {}) },
    status: options.scheduled === false ? {} : { clusterRef, state: 'Scheduled' },
  } as unknown as ManagedResource<unknown, ResourceObservation>;
}

const connect = (mr: ManagedResource<unknown, ResourceObservation>) => connector.connect(mr, context);
const remote = (id: string) => cluster.objects.get(id);

describe('submitting', () => {
  it('applies the Secrets first, then the template marked with the uid, and reports the remote status', async () => {
    const mr = resource({ secrets: ['sql'] });
    const client = await connect(mr);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false, atProvider: { clusterRef } });

    const created = await client.create(mr);
    expect(cluster.writes).toEqual(['apply Secret wordpress/wp-deployment-sql', 'apply Deployment wordpress/wordpress']);
    expect(remote('Secret wordpress/wp-deployment-sql')).toMatchObject({
      metadata: { labels: { [RESOURCE_UID]: 'uid-1' }, annotations: { [RESOURCE_UID]: 'uid-1' } },
      type: 'Opaque',
      data: { password: PASSWORD },
    });
    expect(remote('Deployment wordpress/wordpress')?.metadata.annotations?.[RESOURCE_UID]).toBe('uid-1');
    expect(created).toMatchObject({
      externalName: 'wordpress',
      observation: {
        resourceExists: true,
        resourceUpToDate: true,
        readiness: 'Available',
        atProvider: { clusterRef, remote: { phase: 'Active' } },
      },
    });

    const observed = await client.observe(mr);
    expect(observed).toEqual({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { clusterRef, remote: { phase: 'Active' } },
      diff: undefined,
    });
    for (const answer of [created, observed]) expect(JSON.stringify(answer)).not.toContain(PASSWORD);
  });

  it('copies a changed source Secret again, saying which Secret changed and never its values', async () => {
    const mr = resource({ secrets: ['sql'] });
    const client = await connect(mr);
    await client.create(mr);
    control.set('Secret complex/sql', sourceSecret({ password: 'cm90YXRlZA==' }));

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({
      resourceUpToDate: false,
      readiness: 'Creating',
      diff: 'Secret wordpress/wp-deployment-sql differs from its source',
    });
    const summary = await client.update(mr);
    expect(summary).toBe('applied Deployment wordpress/wordpress to KubernetesCluster complex/wp-cluster, with 1 propagated Secret');
    expect(remote('Secret wordpress/wp-deployment-sql')?.data).toEqual({ password: 'cm90YXRlZA==' });
    for (const answer of [observed, summary]) expect(JSON.stringify(answer)).not.toMatch(/cm90YXRlZA|aHVudGVy/);
  });

  it('removes a propagated Secret no longer listed, and stops following its source', async () => {
    const client = await connect(resource());
    await client.create(resource({ secrets: ['sql'] }));
    const without = resource({ secrets: [] });

    expect(await client.observe(without)).toMatchObject({
      resourceUpToDate: false,
      diff: 'Secrets no longer listed remain: wp-deployment-sql',
    });
    expect(await client.update(without)).toMatch(/removed 1 Secret no longer listed$/);
    expect(remote('Secret wordpress/wp-deployment-sql')).toBeUndefined();
    expect(forgetControlObjects).toHaveBeenCalledWith('uid-1', { apiVersion: 'v1', kind: 'Secret', namespace: 'complex', name: 'sql' });
    expect(await client.observe(without)).toMatchObject({ resourceUpToDate: true });
  });

  it('puts a namespaced template without a namespace, and its Secrets, in default', async () => {
    const mr = resource({
      template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } },
      secrets: ['sql'],
    });
    await (await connect(mr)).create(mr);
    expect(cluster.writes).toEqual(['apply Secret default/wp-deployment-sql', 'apply ConfigMap default/settings']);
  });

  it('fails with the name of a source Secret that does not exist', async () => {
    const mr = resource({ secrets: ['cache'] });
    await expect((await connect(mr)).create(mr)).rejects.toMatchObject({
      failureClass: 'MissingConfiguration',
      message: 'cannot propagate Secret complex/cache: not found',
    });
    expect(cluster.writes).toEqual([]);
  });
});

describe('objects it did not make', () => {
  it('refuses one of another resource, naming it, the cluster and the other uid, and writes nothing', async () => {
    cluster.objects.set('Deployment wordpress/wordpress', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'wordpress', namespace: 'wordpress', annotations: { [RESOURCE_UID]: 'uid-2' } },
    });
    const mr = resource({ secrets: ['sql'] });
    const client = await connect(mr);
    const refused = {
      failureClass: 'InvalidInput',
      message: expect.stringMatching(
        /^Deployment wordpress\/wordpress already exists in KubernetesCluster complex\/wp-cluster .*uid-2.*refusing to touch it$/,
      ),
    };
    await expect(client.observe(mr)).rejects.toMatchObject(refused);
    await expect(client.create(mr)).rejects.toMatchObject(refused);
    expect(cluster.writes).toEqual([]);
  });

  it('refuses a Secret of the same name made by hand', async () => {
    cluster.objects.set('Secret wordpress/wp-deployment-sql', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'wp-deployment-sql', namespace: 'wordpress' },
    });
    const mr = resource({ secrets: ['sql'] });
    await expect((await connect(mr)).create(mr)).rejects.toThrow(
      /^Secret wordpress\/wp-deployment-sql already exists .* not made by a KubernetesApplicationResource/,
    );
    expect(cluster.writes).toEqual([]);
  });
});

describe('deleting', () => {
  it('deletes the Secrets and the object, is gone only once the object is, then lets go of everything', async () => {
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wordpress' } };
    await (await connect(resource({ template: namespace, secrets: ['sql'] }))).create(resource({ template: namespace, secrets: ['sql'] }));
    cluster.writes.length = 0;
    const mr = resource({ template: namespace, secrets: ['sql'], deleting: true });
    const client = await connect(mr);

    expect(await client.delete(mr)).toEqual({ summary: 'deleted Namespace wordpress; deleted 1 propagated Secret', gone: false });
    expect(cluster.writes).toEqual(['delete Secret default/wp-deployment-sql', 'delete Namespace wordpress']);
    // The namespace controller is still emptying it: not gone yet.
    expect(await client.observe(mr)).toMatchObject({ resourceExists: true });
    expect(forgetControlObjects).not.toHaveBeenCalledWith('uid-1');

    cluster.objects.delete('Namespace wordpress');
    expect(await client.observe(mr)).toMatchObject({ resourceExists: false });
    expect(cluster.released).toEqual(expect.arrayContaining(['Namespace wordpress', 'Secret default/wp-deployment-sql']));
    expect(forgetControlObjects).toHaveBeenCalledWith('uid-1');
  });

  it('deletes an object it has just made though the watch has not seen it yet, reading the server', async () => {
    const mr = resource({});
    await (await connect(mr)).create(mr);
    cluster.writes.length = 0;
    cluster.unseen.add('Deployment wordpress/wordpress');
    const deleting = resource({ deleting: true });
    expect(await (await connect(deleting)).delete(deleting)).toMatchObject({ gone: true });
    expect(cluster.writes).toEqual(['delete Deployment wordpress/wordpress']);
    expect(remote('Deployment wordpress/wordpress')).toBeUndefined();
  });

  it('does not take an object it has just made for gone while being deleted, though the watch has not seen it yet', async () => {
    const mr = resource({});
    await (await connect(mr)).create(mr);
    cluster.unseen.add('Deployment wordpress/wordpress');
    const deleting = resource({ deleting: true });
    expect(await (await connect(deleting)).observe(deleting)).toMatchObject({ resourceExists: true });
    expect(cluster.released).toEqual([]);
  });

  it('leaves an object that is not its own alone and does not wait for it', async () => {
    cluster.objects.set('Deployment wordpress/wordpress', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'wordpress', namespace: 'wordpress', annotations: { [RESOURCE_UID]: 'uid-2' } },
    });
    const mr = resource({ deleting: true });
    const client = await connect(mr);
    expect(await client.observe(mr)).toMatchObject({ resourceExists: false });
    expect(await client.delete(mr)).toMatchObject({ gone: true });
    expect(cluster.writes).toEqual([]);
    expect(remote('Deployment wordpress/wordpress')).toBeDefined();
  });

  it('of a resource whose KubernetesCluster was unregistered has nothing it could reach; one not being deleted fails', async () => {
    const gone = new KubernetesClusterGone('KubernetesCluster complex/wp-cluster');
    vi.mocked(connectToKubernetesCluster).mockRejectedValueOnce(gone).mockRejectedValueOnce(gone);
    const deleting = resource({ deleting: true });
    const client = await connect(deleting);
    expect(await client.observe(deleting)).toEqual({ resourceExists: false, resourceUpToDate: false });
    expect(await client.delete(deleting)).toEqual({
      summary: 'KubernetesCluster complex/wp-cluster is no longer registered: nothing can be reached to delete',
      gone: true,
    });
    await expect(connect(resource())).rejects.toBe(gone);
  });

  it('of a resource never scheduled has nothing to wait for; one not being deleted is Pending', async () => {
    const deleting = resource({ deleting: true, scheduled: false });
    const client = await connect(deleting);
    expect(await client.observe(deleting)).toEqual({ resourceExists: false, resourceUpToDate: false });
    expect(await client.delete(deleting)).toMatchObject({ gone: true });
    expect(forgetControlObjects).toHaveBeenCalledWith('uid-1');
    await expect(connect(resource({ scheduled: false }))).rejects.toMatchObject({
      failureClass: 'MissingConfiguration',
      message: expect.stringMatching(/^not scheduled: /),
    });
  });
});
