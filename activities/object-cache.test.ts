// The cache's freshness rule, with the real informer (ListWatch) fed in-process: a read is
// answered from memory only once the informer has applied the revision the pass needs;
// otherwise it waits briefly, then asks the API server.
import { afterEach, describe, expect, it } from 'vitest';
import { KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { watchKind, type KindWatch, type ListAndWatch } from '#runtime/informers';
import type { KindApi, ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { ObjectCache, withoutUnusedFields } from './object-cache';

const api = { group: 'ec2.aws.chronoplane.io', version: 'v1alpha1', kind: 'VPC', plural: 'vpcs' } as KindApi;
const ref: ResourceRef = { group: api.group, kind: api.kind, namespace: 'team-a', name: 'main' };
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function vpc(resourceVersion: string, cidr = '10.0.0.0/16'): KubernetesObject {
  return {
    apiVersion: `${api.group}/${api.version}`,
    kind: api.kind,
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      uid: 'uid-1',
      resourceVersion,
      annotations: { [LAST_APPLIED]: '{"a":"whole manifest"}', 'crossplane.io/external-name': 'vpc-1' },
      managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': {} } }],
    },
    spec: { forProvider: { cidrBlock: cidr } },
  } as KubernetesObject;
}

/** Plays the API server: a list at some revision, then watch events pushed by the test. */
class InProcessServer implements ListAndWatch {
  items: KubernetesObject[] = [];
  listedAt = '10';
  listCalls = 0;
  private push?: (phase: string, obj: unknown) => void;
  private end?: (error: unknown) => void;

  list = async (): Promise<KubernetesListObject<KubernetesObject>> => {
    this.listCalls += 1;
    return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: this.listedAt }, items: structuredClone(this.items) };
  };

  watch = {
    watch: async (_path: string, _query: unknown, callback: (phase: string, obj: unknown) => void, done: (error: unknown) => void) => {
      this.push = callback;
      this.end = done;
      return new AbortController();
    },
  };

  event(phase: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubernetesObject): void {
    this.push!(phase, structuredClone(obj));
  }

  fail(): void {
    this.end!(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }));
  }
}

/** The API server's GET, counted. */
class Gets {
  calls = 0;
  answer: ManagedResource | undefined = vpc('99', 'from-get') as unknown as ManagedResource;
  get = async () => {
    this.calls += 1;
    return this.answer;
  };
}

let informer: KindWatch | undefined;
afterEach(async () => informer?.stop());

async function setUp(options: { namespace?: string; start?: boolean } = {}) {
  const server = new InProcessServer();
  server.items = [vpc('10')];
  const gets = new Gets();
  informer = watchKind(new KubeConfig(), api, {
    namespace: options.namespace,
    onError: () => {},
    trim: withoutUnusedFields,
    source: server,
  });
  const cache = new ObjectCache(gets, new Map([[`${api.group}/${api.kind}`, informer]]), options.namespace, { waitMs: 200 });
  if (options.start !== false) await informer.start();
  return { server, gets, cache, informer };
}

describe('ObjectCache', () => {
  it('reads from the API server until the informer has listed', async () => {
    const { cache, gets } = await setUp({ start: false });
    expect((await cache.read(ref))?.spec.forProvider).toEqual({ cidrBlock: 'from-get' });
    expect(gets.calls).toBe(1);
    expect(cache.outcomes.get('get:not-synced')).toBe(1);
  });

  it('answers from memory once it has seen the revision the pass needs', async () => {
    const { cache, gets } = await setUp();
    const read = await cache.read(ref, '10');
    expect(read?.metadata.resourceVersion).toBe('10');
    expect(gets.calls).toBe(0);
    // A timer pass names no revision: whatever the cache holds will do.
    expect((await cache.read(ref))?.metadata.resourceVersion).toBe('10');
    expect(gets.calls).toBe(0);
  });

  it('keeps objects without managedFields or kubectl’s last-applied copy, and hands out copies', async () => {
    const { cache, informer } = await setUp();
    const read = (await cache.read(ref, '10'))!;
    expect(read.metadata).not.toHaveProperty('managedFields');
    expect(read.metadata.annotations).toEqual({ 'crossplane.io/external-name': 'vpc-1' });
    read.spec.forProvider.cidrBlock = 'changed by a caller';
    expect((informer.get(ref.namespace, ref.name) as unknown as ManagedResource).spec.forProvider.cidrBlock).toBe('10.0.0.0/16');
  });

  it('waits for the informer to catch up with the event that triggered the pass', async () => {
    const { cache, gets, server } = await setUp();
    const read = cache.read(ref, '12');
    await new Promise((r) => setTimeout(r, 20));
    server.event('MODIFIED', vpc('11', '10.1.0.0/16')); // not yet the one the pass needs
    server.event('MODIFIED', vpc('12', '10.2.0.0/16'));
    expect((await read)?.spec.forProvider).toEqual({ cidrBlock: '10.2.0.0/16' });
    expect(gets.calls).toBe(0);
    expect(cache.outcomes.get('cached-after-wait')).toBe(1);
  });

  it('counts any newer event of the kind as progress: the object may be older than the revision', async () => {
    const { cache, gets, server } = await setUp();
    server.event('ADDED', { ...vpc('15'), metadata: { ...vpc('15').metadata, name: 'other', uid: 'uid-2' } });
    await new Promise((r) => setTimeout(r, 0));
    expect((await cache.read(ref, '14'))?.metadata.resourceVersion).toBe('10');
    expect(gets.calls).toBe(0);
  });

  it('reads from the API server when the informer does not catch up in time', async () => {
    const { cache, gets } = await setUp();
    expect((await cache.read(ref, '12'))?.metadata.resourceVersion).toBe('99');
    expect(gets.calls).toBe(1);
    expect(cache.outcomes.get('get:behind')).toBe(1);
  });

  it('reports a deletion it has seen without asking the API server', async () => {
    const { cache, gets, server } = await setUp();
    server.event('DELETED', vpc('13'));
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.read(ref, '13')).toBeUndefined();
    expect(gets.calls).toBe(0);
  });

  it('reads from the API server for a resourceVersion that is not a number', async () => {
    const { cache, gets } = await setUp();
    await cache.read(ref, 'opaque-42');
    expect(gets.calls).toBe(1);
    expect(cache.outcomes.get('get:unknown-version')).toBe(1);
  });

  it('reads from the API server while the watch is down, and from memory once it is back', async () => {
    const { cache, gets, server } = await setUp();
    server.fail();
    await cache.read(ref);
    expect(gets.calls).toBe(1);
    await informer!.start(); // what the backoff does a second later
    await cache.read(ref, '10');
    expect(gets.calls).toBe(1);
  });

  it('reads from the API server for a namespace or kind it does not watch', async () => {
    const { cache, gets } = await setUp({ namespace: 'team-a' });
    await cache.read({ ...ref, namespace: 'team-b' });
    await cache.read({ ...ref, kind: 'Subnet' });
    expect(gets.calls).toBe(2);
    expect(cache.outcomes.get('get:not-watched')).toBe(2);
  });

  it('lists a whole kind from memory for a sweep, and only what it can answer for', async () => {
    const { cache, server } = await setUp({ namespace: 'team-a', start: false });
    expect(cache.list(api, 'team-a')).toBeUndefined(); // not synced: the sweep lists from the API server
    await informer!.start();
    server.event('ADDED', { ...vpc('11'), metadata: { ...vpc('11').metadata, name: 'second', uid: 'uid-2' } });
    await new Promise((r) => setTimeout(r, 0));
    const listed = cache.list(api, 'team-a')!;
    expect(listed.map((o) => o.metadata.name).sort()).toEqual(['main', 'second']);
    listed[0]!.spec.forProvider.cidrBlock = 'changed by a caller';
    expect(cache.list(api, 'team-a')!.every((o) => o.spec.forProvider.cidrBlock === '10.0.0.0/16')).toBe(true);
    expect(cache.list(api, undefined)).toBeUndefined(); // all namespaces: more than it watches
    expect(cache.list({ ...api, kind: 'Subnet' }, 'team-a')).toBeUndefined();
  });
});
