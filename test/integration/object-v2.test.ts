// provider-kubernetes' Crossplane v2 API through the whole engine, against real servers: its own
// namespaced examples (examples/kubernetes-m/, byte for byte upstream's) applied unchanged to
// namespace `default` of the control cluster land in remote-1 through the ClusterProviderConfig
// `kubernetes-provider`; the ObservedObjectCollection of both groups keeps one observe-only
// Object per labelled ConfigMap of remote-1; and a namespaced ProviderConfig lending the
// worker's own identity reaches only its own namespace.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INJECTED_IDENTITY_SERVICE_ACCOUNT } from '#providers/kubernetes/cluster-connection';
import { repoRoot } from '#stack/paths';
import { ControlPlane, condition, eventually, remoteKubectl, type VpcObject } from './harness';
import { runKubectl } from './kubectl';
import { getResource, readyResource } from './resources';
import { REMOTE, namer, remoteObject } from './objects';

// Upstream's examples name namespace `default`: this file's watcher and worker serve it.
const NS = 'default';
const M_OBJECTS = 'objects.kubernetes.m.crossplane.io';
const LEGACY_OBJECTS = 'objects.kubernetes.crossplane.io';
const M_COLLECTIONS = 'observedobjectcollections.kubernetes.m.crossplane.io';
const LEGACY_COLLECTIONS = 'observedobjectcollections.kubernetes.crossplane.io';
const MEMBERSHIP_LABEL = 'kubernetes.crossplane.io/owned-by-collection';
const example = (...path: string[]) => join(repoRoot, 'examples', ...path);

let plane: ControlPlane;
beforeAll(async () => {
  // Ten-minute polls: every prompt reaction must come from a watch.
  plane = await ControlPlane.start('object-v2', { CHRONOPLANE_WATCH_NAMESPACE: NS, CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
});
afterAll(async () => {
  await plane?.stop();
});

const named = namer();

const get = getResource;
const readyIn = readyResource;

const ready = (name: string) => readyIn(M_OBJECTS, name, NS);
const goneIn = (resource: string, name: string, namespace?: string) =>
  eventually(async () => (await get(resource, name, namespace)) === undefined, `${resource} ${name} to be gone`, 90_000);
const gone = (name: string) => goneIn(M_OBJECTS, name, NS);
const remoteConfigMap = (name: string, namespace = 'default') => remoteObject('configmap', name, namespace);
const remoteGone = (name: string, namespace = 'default') =>
  eventually(async () => (await remoteConfigMap(name, namespace)) === undefined, `remote ConfigMap ${namespace}/${name} to be gone`);
const apply = (file: string) => runKubectl(['apply', '-f', file]);
const deleteFile = (file: string) => runKubectl(['delete', '-f', file, '--wait=false']);
const remoteConfigMapManifest = (namespace: string, name: string, labels: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, labels }, data: { k: 'v' } });
const ensureNamespace = (name: string) =>
  runKubectl(['create', 'namespace', name]).catch((error) => {
    if (!String(error).includes('AlreadyExists')) throw error;
  });
const manifestOf = (found: VpcObject | undefined) =>
  (found?.status?.atProvider as { manifest?: Record<string, any> } | undefined)?.manifest;

describe("provider-kubernetes' namespaced Object examples, applied unchanged", () => {
  it('object.yaml: creates the Namespace in remote-1 and deletes it with the Object', async () => {
    const file = example('kubernetes-m', 'object.yaml');
    await apply(file);
    const found = await ready('sample-namespace');
    const namespace = JSON.parse(await remoteKubectl(REMOTE, ['get', 'namespace', 'sample-namespace', '-o', 'json']));
    expect(namespace.metadata.labels.example).toBe('true');
    expect(manifestOf(found)).toMatchObject({ kind: 'Namespace', metadata: { name: 'sample-namespace', uid: namespace.metadata.uid } });
    // The defaults a v2 manifest leaves out, as upstream's CRD fills them.
    expect(found.spec.managementPolicies).toEqual(['*']);
    expect(found.spec.forProvider.deletionPropagationPolicy).toBe('Background');
    await deleteFile(file);
    await gone('sample-namespace');
    await eventually(
      async () => !(await remoteKubectl(REMOTE, ['get', 'namespace', 'sample-namespace', '--ignore-not-found', '-o', 'name'])).trim(),
      'remote Namespace sample-namespace to be gone',
    );
  });

  it('references/depends-on-resource.yaml: the ConfigMap lands in remote-1 once its dependency exists, and goes with the Object', async () => {
    const file = example('kubernetes-m', 'references', 'depends-on-resource.yaml');
    await apply(file);
    await ready('foo');
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value' });
    await deleteFile(file);
    await gone('foo');
    await remoteGone('foo');
    await goneIn('configmap', 'bar', NS);
  });

  it('references/patches-from-resource.yaml: patches a value of a control-cluster ConfigMap into the manifest', async () => {
    const file = example('kubernetes-m', 'references', 'patches-from-resource.yaml');
    await apply(file);
    await ready('foo');
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value', 'sample-key-from-bar': 'sample-value' });
    await deleteFile(file);
    await gone('foo');
    await remoteGone('foo');
  });

  it('policy/default.yaml and policy/observe-create-update.yaml: create; only the first deletes', async () => {
    const full = example('kubernetes-m', 'policy', 'default.yaml');
    await apply(full);
    await ready('foo');
    expect(await remoteConfigMap('foo')).toBeDefined();
    await deleteFile(full);
    await gone('foo');
    await remoteGone('foo');

    const keep = example('kubernetes-m', 'policy', 'observe-create-update.yaml');
    await apply(keep);
    await ready('foo');
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value' });
    await deleteFile(keep);
    await gone('foo');
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value' });
    await remoteKubectl(REMOTE, ['delete', 'configmap', '-n', 'default', 'foo']);
  });

  it('policy/observe.yaml and policy/observe-delete.yaml: observe what exists in remote-1; only the second deletes it', async () => {
    // Upstream runs these against its own cluster, where the file's ConfigMap is the target;
    // here the target is remote-1's, so it is made there first.
    const target = remoteConfigMapManifest('default', 'foo', {});
    await remoteKubectl(REMOTE, ['apply', '-f', '-'], target);
    const observe = example('kubernetes-m', 'policy', 'observe.yaml');
    await apply(observe);
    const found = await ready('foo');
    expect(manifestOf(found)?.data).toEqual({ k: 'v' });
    await deleteFile(observe);
    await gone('foo');
    expect(await remoteConfigMap('foo')).toBeDefined();

    const observeDelete = example('kubernetes-m', 'policy', 'observe-delete.yaml');
    await apply(observeDelete);
    await ready('foo');
    expect((await remoteConfigMap('foo'))?.data).toEqual({ k: 'v' });
    await deleteFile(observeDelete);
    await gone('foo');
    await remoteGone('foo');
  });
});

/**
 * The collection's members, as the test expects them for the labelled ConfigMaps of remote-1
 * (every namespace: the examples' collections observe them all).
 */
async function labelledRemoteConfigMaps(): Promise<string[]> {
  const listed = JSON.parse(await remoteKubectl(REMOTE, ['get', 'configmap', '-A', '-l', 'foo=bar', '-o', 'json']));
  return (listed.items as { metadata: { namespace: string; name: string } }[])
    .map((i) => `${i.metadata.namespace}/${i.metadata.name}`)
    .sort();
}

async function membersOf(resource: string, collection: string, namespace?: string): Promise<VpcObject[]> {
  const where = namespace ? ['-n', namespace] : [];
  const listed = JSON.parse(await runKubectl([...where, 'get', resource, '-l', `${MEMBERSHIP_LABEL}=${collection}`, '-o', 'json']));
  return listed.items as VpcObject[];
}

const targetsOf = (members: readonly VpcObject[]) =>
  members.map((m) => `${m.spec.forProvider.manifest.metadata.namespace}/${m.spec.forProvider.manifest.metadata.name}`).sort();

/** Waits until the collection has exactly one Ready member per labelled ConfigMap of remote-1. */
async function membersMatch(objects: string, collection: string, namespace?: string): Promise<VpcObject[]> {
  let last = '';
  try {
    return await eventually(async () => {
      const [members, wanted] = await Promise.all([membersOf(objects, collection, namespace), labelledRemoteConfigMaps()]);
      last = `members for ${JSON.stringify(targetsOf(members))}, labelled ${JSON.stringify(wanted)}`;
      const allReady = members.every((m) => condition(m, 'Ready')?.status === 'True');
      return JSON.stringify(targetsOf(members)) === JSON.stringify(wanted) && allReady && members;
    }, `the members of ${collection} to match the labelled ConfigMaps, all Ready`);
  } catch (error) {
    throw new Error(`${(error as Error).message}; last: ${last}`);
  }
}

describe('ObservedObjectCollection', () => {
  for (const group of [
    {
      title: 'kubernetes.m.crossplane.io (namespaced), as its example has it',
      file: example('kubernetes-m', 'collection', 'collection.yaml'),
      collections: M_COLLECTIONS,
      objects: M_OBJECTS,
      namespace: NS as string | undefined,
      memberApiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      providerConfigRef: { kind: 'ClusterProviderConfig', name: 'kubernetes-provider' } as Record<string, string>,
    },
    {
      title: 'kubernetes.crossplane.io (cluster-scoped), as its example has it',
      file: example('kubernetes', 'collection', 'collection.yaml'),
      collections: LEGACY_COLLECTIONS,
      objects: LEGACY_OBJECTS,
      namespace: undefined,
      memberApiVersion: 'kubernetes.crossplane.io/v1alpha2',
      providerConfigRef: { name: 'kubernetes-provider' } as Record<string, string>,
    },
  ]) {
    it(`${group.title}: one observe-only member per labelled ConfigMap, following label changes, and none left after it`, async () => {
      const remoteNs = named(`v2-collection-${group.namespace ? 'm' : 'cluster'}`);
      await remoteKubectl(REMOTE, ['create', 'namespace', remoteNs]);
      for (const name of ['c1', 'c2'])
        await remoteKubectl(REMOTE, ['apply', '-f', '-'], remoteConfigMapManifest(remoteNs, name, { foo: 'bar' }));
      // The namespaced example's own ConfigMaps (in the control cluster) include one in other-ns.
      await ensureNamespace('other-ns');

      await apply(group.file);
      const collection = await readyIn(group.collections, 'foo-collection', group.namespace);
      expect(collection.status).toMatchObject({ membershipLabel: { [MEMBERSHIP_LABEL]: 'foo-collection' } });
      const members = await membersMatch(group.objects, 'foo-collection', group.namespace);
      expect(targetsOf(members)).toEqual(expect.arrayContaining([`${remoteNs}/c1`, `${remoteNs}/c2`]));
      for (const member of members) {
        expect(member.apiVersion).toBe(group.memberApiVersion);
        expect(member.metadata.name).toMatch(/^foo-collection-[0-9a-f]{7}$/);
        expect(member.metadata.annotations?.a1).toBe('v1');
        expect((member.metadata as { labels?: Record<string, string> }).labels).toMatchObject({
          l1: 'v1',
          [MEMBERSHIP_LABEL]: 'foo-collection',
        });
        expect((member.metadata as { ownerReferences?: unknown[] }).ownerReferences).toEqual([
          expect.objectContaining({ kind: 'ObservedObjectCollection', name: 'foo-collection', uid: collection.metadata.uid }),
        ]);
        expect(member.spec.managementPolicies).toEqual(['Observe']);
        expect(member.spec.providerConfigRef).toEqual(group.providerConfigRef);
      }

      // A new match gains a member; a ConfigMap whose label goes loses its member, and stays.
      await remoteKubectl(REMOTE, ['apply', '-f', '-'], remoteConfigMapManifest(remoteNs, 'c3', { foo: 'bar' }));
      expect(targetsOf(await membersMatch(group.objects, 'foo-collection', group.namespace))).toContain(`${remoteNs}/c3`);
      await remoteKubectl(REMOTE, ['label', 'configmap', '-n', remoteNs, 'c1', 'foo-']);
      expect(targetsOf(await membersMatch(group.objects, 'foo-collection', group.namespace))).not.toContain(`${remoteNs}/c1`);
      expect(await remoteConfigMap('c1', remoteNs)).toBeDefined();

      // Deleting the collection deletes its members, never the ConfigMaps they observe.
      await deleteFile(group.file);
      await goneIn(group.collections, 'foo-collection', group.namespace);
      await eventually(async () => (await membersOf(group.objects, 'foo-collection', group.namespace)).length === 0, 'no members left');
      for (const name of ['c1', 'c2', 'c3']) expect(await remoteConfigMap(name, remoteNs), name).toBeDefined();
      await remoteKubectl(REMOTE, ['delete', 'namespace', remoteNs, '--wait=false']);
    });
  }
});

describe('a namespaced ProviderConfig with InjectedIdentity', () => {
  it('reaches only its own namespace of the control cluster: other namespaces and cluster-scoped kinds are refused, with nothing written', async () => {
    const config = named('local');
    await ensureNamespace('other-ns');
    await runKubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { name: config, namespace: NS },
        spec: { credentials: { source: 'InjectedIdentity' } },
      }),
    );
    // It acts as this ServiceAccount of its namespace, with the rights granted to it here.
    const serviceAccount = { name: INJECTED_IDENTITY_SERVICE_ACCOUNT, namespace: NS };
    await runKubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: serviceAccount }));
    await runKubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: named('provider-kubernetes-edit'), namespace: NS },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'ServiceAccount', ...serviceAccount }],
      }),
    );
    const object = (name: string, manifest: Record<string, unknown>) =>
      JSON.stringify({
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'Object',
        metadata: { name, namespace: NS },
        spec: { forProvider: { manifest }, providerConfigRef: { kind: 'ProviderConfig', name: config } },
      });
    const [own, elsewhere, clusterScoped] = [named('own'), named('elsewhere'), named('cluster-scoped')];
    // No namespace in the manifest: the Object's own.
    await runKubectl(['apply', '-f', '-'], object(own, { apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } }));
    await runKubectl(['apply', '-f', '-'], object(elsewhere, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'other-ns' } }));
    await runKubectl(['apply', '-f', '-'], object(clusterScoped, { apiVersion: 'v1', kind: 'Namespace' }));

    const found = await ready(own);
    expect(manifestOf(found)?.metadata).toMatchObject({ name: own, namespace: NS });
    expect(((await get('configmap', own, NS)) as { data?: unknown } | undefined)?.data).toEqual({ k: 'v' });

    const refused = (name: string) =>
      eventually(async () => {
        const synced = condition(await get(M_OBJECTS, name, NS), 'Synced');
        return synced?.status === 'False' && synced.message?.includes('reaches only namespace default') && synced;
      }, `Object ${name} to be refused`);
    expect((await refused(elsewhere)).message).toContain(`ConfigMap other-ns/${elsewhere} is in namespace other-ns`);
    expect((await refused(clusterScoped)).message).toContain(`Namespace ${clusterScoped} is cluster-scoped`);
    expect(await get('configmap', elsewhere, 'other-ns')).toBeUndefined();
    expect(await get('namespace', clusterScoped)).toBeUndefined();

    // Refused Objects made nothing, so nothing holds their deletion.
    await runKubectl(['delete', M_OBJECTS, '-n', NS, own, elsewhere, clusterScoped, '--wait=false']);
    for (const name of [own, elsewhere, clusterScoped]) await gone(name);
    expect(await get('configmap', own, NS)).toBeUndefined();
    await runKubectl(['delete', 'providerconfigs.kubernetes.m.crossplane.io', '-n', NS, config]);
  });
});
