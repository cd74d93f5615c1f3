// provider-kubernetes' Object through the whole engine, against real servers: Objects applied to
// the control cluster land in remote-1, a second kube-apiserver reached through the kubeconfig
// Secret its ProviderConfig names. Management policies in both forms with deletionPolicy as
// seed 002's table has them, the engine's generic references (patchesFrom into the manifest,
// fromObject from the Object's root, dependsOn ordering deletion), drift and changes in the
// target seen through its watch, and bad input.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '#stack/paths';
import { ControlPlane, condition, eventually, remoteKubectl } from './harness';
import { runKubectl } from './kubectl';
import { REMOTE, apply, atProviderOf, configMap, deleteObjects, getObject, gone, namer, object, ready, remoteConfigMap } from './objects';

let plane: ControlPlane;
beforeAll(async () => {
  // Ten-minute polls: a prompt reaction to a change in the target can only come from its watch.
  plane = await ControlPlane.start('object', { CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
});
afterAll(async () => {
  await plane?.stop();
});

const named = namer();

describe('Object', () => {
  it('creates its manifest in the remote cluster, named after the Object, mirrors it in status, and deletes it with the Object', async () => {
    const name = named('plain');
    await apply(object(name, configMap({ greeting: 'hello' })));
    const found = await ready(name);
    const live = await remoteConfigMap(name);
    expect(live?.data).toEqual({ greeting: 'hello' });
    expect(atProviderOf(found)).toMatchObject({ kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: live!.metadata.uid } });
    expect(found.metadata.annotations?.['crossplane.io/external-name']).toBe(name);

    await deleteObjects(name);
    await gone(name);
    expect(await remoteConfigMap(name)).toBeUndefined();
  });

  it('puts a namespaced manifest without a namespace in default, as kubectl does, and finds it there', async () => {
    const name = named('no-namespace');
    await apply(object(name, { apiVersion: 'v1', kind: 'ConfigMap', data: { where: 'default' } }));
    const found = await ready(name);
    expect((await remoteConfigMap(name))?.data).toEqual({ where: 'default' });
    expect(atProviderOf(found)?.metadata).toMatchObject({ name, namespace: 'default' });
    await deleteObjects(name);
    await gone(name);
    expect(await remoteConfigMap(name)).toBeUndefined();
  });

  it("applies seed 002's v1alpha1 Namespace example as written, for ProviderConfig kubernetes-provider", async () => {
    // The file itself, byte for byte the seed's; its Object and Namespace are both sample-namespace.
    const example = join(repoRoot, 'examples', 'kubernetes', 'namespace.yaml');
    const name = 'sample-namespace';
    await runKubectl(['apply', '-f', example]);
    const found = await ready(name);
    const namespace = JSON.parse(await remoteKubectl(REMOTE, ['get', 'namespace', name, '-o', 'json']));
    expect(namespace.metadata.labels.example).toBe('true');
    expect(atProviderOf(found)).toMatchObject({ kind: 'Namespace', metadata: { name, uid: namespace.metadata.uid } });
    await runKubectl(['delete', '-f', example, '--wait=false']);
    // The remote cluster's namespace controller finishes a Namespace's deletion; the Object waits for it.
    await gone(name);
    await expect(remoteKubectl(REMOTE, ['get', 'namespace', name])).rejects.toThrow(/NotFound/);
  });

  it('restores a field it manages after a hand edit, and leaves fields another manager owns alone', async () => {
    const name = named('drift');
    await apply(object(name, configMap({ mode: 'managed' })));
    await ready(name);
    await remoteKubectl(REMOTE, ['patch', 'configmap', '-n', 'default', name, '--type=merge', '-p', '{"data":{"mode":"edited"}}']);
    await remoteKubectl(
      REMOTE,
      [...['apply', '--server-side', '--field-manager=someone-else', '-f', '-']],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { owner: 'someone-else' } } }),
    );
    await eventually(async () => (await remoteConfigMap(name))?.data?.mode === 'managed', 'the managed field to be restored', 20_000);
    expect((await remoteConfigMap(name))?.metadata.labels).toEqual({ owner: 'someone-else' });
    // status.atProvider.manifest follows the target, including what others wrote.
    await eventually(
      async () => {
        const labels = (atProviderOf(await getObject(name))?.metadata as { labels?: Record<string, string> } | undefined)?.labels;
        return labels?.owner === 'someone-else';
      },
      'status to show the label someone else set',
      20_000,
    );
    await deleteObjects(name);
    await gone(name);
  });

  it('only observes under ["Observe"]: fills status.atProvider.manifest, never writes, and leaves the object on delete', async () => {
    const name = named('observed');
    await remoteKubectl(REMOTE, ['create', 'configmap', '-n', 'default', name, '--from-literal=owner=another-team']);
    await apply(object(name, configMap({ owner: 'us' }), { managementPolicies: ['Observe'] }));
    const observed = await eventually(async () => {
      const found = await getObject(name);
      return (atProviderOf(found)?.data as Record<string, string> | undefined)?.owner === 'another-team' && found;
    }, 'the live object in status');
    expect(condition(observed, 'Synced')?.status).toBe('True');
    expect((await remoteConfigMap(name))?.data).toEqual({ owner: 'another-team' });
    await deleteObjects(name);
    await gone(name);
    expect((await remoteConfigMap(name))?.data).toEqual({ owner: 'another-team' });
  });

  it('never deletes under ObserveCreateUpdate or Observe (v1alpha1), nor with deletionPolicy Orphan whatever the policy, but does under Default', async () => {
    const [createUpdate, orphan, deleted] = [named('ocu'), named('orphan'), named('deleted')];
    const [observeOnly, observeDeleteOrphan] = [named('observe'), named('od-orphan')];
    // What an observing Object never creates is there beforehand, made by someone else.
    for (const name of [observeOnly, observeDeleteOrphan]) {
      await remoteKubectl(REMOTE, ['create', 'configmap', '-n', 'default', name, '--from-literal=a=1']);
    }
    await apply(
      object(createUpdate, configMap({ a: '1' }), { managementPolicy: 'ObserveCreateUpdate', deletionPolicy: 'Delete' }, 'v1alpha1'),
    );
    await apply(object(orphan, configMap({ a: '1' }), { deletionPolicy: 'Orphan' }, 'v1alpha1'));
    await apply(object(deleted, configMap({ a: '1' }), { managementPolicy: 'Default' }, 'v1alpha1'));
    // The seed's table: with Delete, Observe still does not delete; Orphan wins over ObserveDelete.
    await apply(object(observeOnly, configMap({ a: '1' }), { managementPolicy: 'Observe', deletionPolicy: 'Delete' }, 'v1alpha1'));
    await apply(
      object(observeDeleteOrphan, configMap({ a: '1' }), { managementPolicy: 'ObserveDelete', deletionPolicy: 'Orphan' }, 'v1alpha1'),
    );
    const all = [createUpdate, orphan, deleted, observeOnly, observeDeleteOrphan];
    await Promise.all(all.map((name) => ready(name)));
    await deleteObjects(...all);
    await Promise.all(all.map(gone));
    for (const kept of [createUpdate, orphan, observeOnly, observeDeleteOrphan]) expect(await remoteConfigMap(kept), kept).toBeDefined();
    expect(await remoteConfigMap(deleted)).toBeUndefined();
    await remoteKubectl(REMOTE, ['delete', 'configmap', '-n', 'default', createUpdate, orphan, observeOnly, observeDeleteOrphan]);
  });

  it("copies another Object's field with patchesFrom (into the manifest) and fromObject (from the root), waiting until it exists", async () => {
    const [source, patched, renamed] = [named('source'), named('patched'), named('renamed')];
    const target = named('name-from-source');
    await apply(
      object(patched, configMap({}), {
        references: [{ patchesFrom: { name: source, fieldPath: 'status.atProvider.manifest.data.value' }, toFieldPath: 'data.copied' }],
      }),
    );
    await apply(
      object(renamed, configMap({ from: 'fromObject' }), {
        references: [
          {
            fromObject: {
              apiVersion: 'kubernetes.crossplane.io/v1alpha1',
              kind: 'Object',
              name: source,
              fieldPath: 'status.atProvider.manifest.data.target',
            },
            toFieldPath: 'spec.forProvider.manifest.metadata.name',
          },
        ],
      }),
    );
    const waiting = await eventually(async () => {
      const c = condition(await getObject(patched), 'ReferencesResolved');
      return c?.status === 'False' && c;
    }, 'patched to wait for its source');
    expect(waiting.message).toContain(source);
    expect(await remoteConfigMap(patched)).toBeUndefined();

    await apply(object(source, configMap({ value: 'forty-two', target })));
    await ready(patched);
    await ready(renamed);
    expect((await remoteConfigMap(patched))?.data).toEqual({ copied: 'forty-two' });
    expect((await remoteConfigMap(target))?.data).toEqual({ from: 'fromObject' });
    expect(await remoteConfigMap(renamed)).toBeUndefined();
    await deleteObjects(patched, renamed, source);
    await Promise.all([patched, renamed, source].map(gone));
    expect(await remoteConfigMap(target)).toBeUndefined();
  });

  it('creates without waiting for dependsOn, and deletes in its reverse order: the dependency stays until its dependent is gone', async () => {
    const [base, dependent] = [named('base'), named('dependent')];
    // apiVersion and kind default to another Object's, as upstream's do. Non-blocking on create
    // (seed 000): the dependent lands while what it depends on does not exist yet.
    await apply(object(dependent, configMap({ role: 'dependent' }), { references: [{ dependsOn: { name: base } }] }));
    await ready(dependent);
    expect(await getObject(base)).toBeUndefined();
    await apply(object(base, configMap({ role: 'base' })));
    await ready(base);
    await deleteObjects(base);
    const held = await eventually(async () => {
      const c = condition(await getObject(base), 'Ready');
      return c?.reason === 'Deleting' && c.message?.includes('waiting for dependents') && c;
    }, 'the base Object to wait for its dependent');
    expect(held.message).toBe(`waiting for dependents to be deleted first: Object ${dependent}`);
    expect(await remoteConfigMap(base)).toBeDefined();
    await deleteObjects(dependent);
    await Promise.all([gone(dependent), gone(base)]);
    expect(await remoteConfigMap(base)).toBeUndefined();
  });

  it('reports a namespace the target lacks with its message, and turns Ready by itself once the namespace exists', async () => {
    const name = named('later');
    const namespace = named('arrives-later');
    await apply(object(name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace }, data: { k: 'v' } }));
    const failing = await eventually(async () => {
      const c = condition(await getObject(name), 'Synced');
      return c?.status === 'False' && c;
    }, 'Synced=False');
    expect(failing.message).toMatch(new RegExp(`namespaces? "${namespace}" not found`));
    await remoteKubectl(REMOTE, ['create', 'namespace', namespace]);
    await ready(name);
    await deleteObjects(name);
    await gone(name);
    await remoteKubectl(REMOTE, ['delete', 'namespace', namespace, '--wait=false']);
  });

  it('names a missing kubeconfig Secret in its condition, and recovers once the ProviderConfig is fixed', async () => {
    const name = named('no-secret');
    const providerConfig = named('broken');
    const providerConfigFor = (secret: string) => ({
      apiVersion: 'kubernetes.crossplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { name: providerConfig },
      spec: { credentials: { source: 'Secret', secretRef: { namespace: 'crossplane-system', name: secret, key: 'kubeconfig' } } },
    });
    await apply(providerConfigFor('does-not-exist'));
    await apply(object(name, configMap({ k: 'v' }), { providerConfigRef: { name: providerConfig } }));
    const failing = await eventually(async () => {
      const c = condition(await getObject(name), 'Synced');
      return c?.status === 'False' && c;
    }, 'Synced=False');
    expect(failing.message).toContain('Secret crossplane-system/does-not-exist');
    expect(failing.message).not.toContain('certificate');

    await apply(providerConfigFor(`${REMOTE}-kubeconfig`));
    await ready(name);
    expect((await remoteConfigMap(name))?.data).toEqual({ k: 'v' });
    await deleteObjects(name);
    await gone(name);
    await runKubectl(['delete', 'providerconfigs.kubernetes.crossplane.io', providerConfig]);
  });
});
