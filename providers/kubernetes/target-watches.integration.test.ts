// The shared watches of target objects against a real remote cluster: a followed object's
// changes wake its follower (and only its follower), the echo of our own write wakes nobody,
// nor does that of our own delete wake the deleter when its answer says the target is gone,
// and the cache answers for objects it has, for objects it knows are absent, and not for an
// object whose latest own write it has not seen yet.
import { randomBytes } from 'node:crypto';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, remoteCluster } from '#test/integration/harness';
import { TargetWatches, type TargetKey } from './target-watches';

let kubeConfig: KubeConfig;
let core: CoreV1Api;
let watches: TargetWatches;
beforeAll(() => {
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(remoteCluster('remote-1').kubeconfig);
  core = kubeConfig.makeApiClient(CoreV1Api);
  watches = new TargetWatches();
});
afterAll(async () => {
  await watches?.stop();
});

const key = (name: string): TargetKey => ({ cluster: 'remote-1', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });
const configMap = (name: string, data: Record<string, string>) => ({ metadata: { name, namespace: 'default' }, data });

describe('TargetWatches', () => {
  it('wakes the follower of a changed object, not the follower of another, and not for its own write', async () => {
    const [watched, other] = [`tw-${randomBytes(3).toString('hex')}`, `tw-${randomBytes(3).toString('hex')}`];
    const wakes = { watched: 0, other: 0 };
    watches.follow(key(watched), kubeConfig, 'uid-watched', () => (wakes.watched += 1));
    watches.follow(key(other), kubeConfig, 'uid-other', () => (wakes.other += 1));
    await eventually(async () => (await watches.cached(key(watched), kubeConfig)) === null, 'the watch to sync');

    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap(watched, { a: '1' }) });
    await eventually(async () => wakes.watched >= 1, 'a wake-up for the created object');
    expect((await watches.cached(key(watched), kubeConfig)) as { data?: unknown }).toMatchObject({ data: { a: '1' } });

    // Our own write: its echo wakes nobody, and until the cache has it, the cache does not answer.
    const before = wakes.watched;
    watches.writing(key(watched));
    const ours = await core.replaceNamespacedConfigMap({
      namespace: 'default',
      name: watched,
      body: { ...created, data: { a: '2' } },
    });
    watches.wrote(key(watched), ours.metadata!.resourceVersion);
    await eventually(async () => {
      const cached = (await watches.cached(key(watched), kubeConfig)) as { data?: Record<string, string> } | undefined;
      return cached?.data?.a === '2';
    }, 'the cache to hold our write');
    expect(wakes.watched).toBe(before);

    const latest = await core.readNamespacedConfigMap({ namespace: 'default', name: watched });
    await core.replaceNamespacedConfigMap({ namespace: 'default', name: watched, body: { ...latest, data: { a: '3' } } });
    await eventually(async () => wakes.watched > before, 'a wake-up for a change by someone else');
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: watched });
    await eventually(async () => (await watches.cached(key(watched), kubeConfig)) === null, 'the deletion to reach the cache');
    expect(wakes.other).toBe(0);

    watches.unfollow(key(watched), 'uid-watched');
    const afterUnfollow = wakes.watched;
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap(watched, { a: '4' }) });
    await eventually(async () => (await watches.cached(key(watched), kubeConfig)) !== null, 'the cache to see it again');
    expect(wakes.watched).toBe(afterUnfollow);
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: watched });
  });

  it("spares the deleter the echo of its own delete when the answer says the target is gone, and wakes the target's other followers", async () => {
    const name = `tw-${randomBytes(3).toString('hex')}`;
    const wakes = { deleter: 0, bystander: 0 };
    watches.follow(key(name), kubeConfig, 'uid-deleter', () => (wakes.deleter += 1));
    watches.follow(key(name), kubeConfig, 'uid-bystander', () => (wakes.bystander += 1));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap(name, { a: '1' }) });
    await eventually(async () => wakes.deleter >= 1 && wakes.bystander >= 1, 'wake-ups for the created object');

    const before = { ...wakes };
    watches.deleting(key(name));
    await core.deleteNamespacedConfigMap({ namespace: 'default', name });
    // Null once the watch has delivered the deletion, which is held meanwhile.
    await eventually(async () => (await watches.cached(key(name), kubeConfig)) === null, 'the deletion to reach the cache');
    expect(wakes).toEqual(before);
    watches.deleted(key(name), 'uid-deleter', true);
    expect(wakes).toEqual({ deleter: before.deleter, bystander: before.bystander + 1 });

    // An answer that does not say gone (still deleting, or a failure) wakes every follower.
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap(name, { a: '2' }) });
    await eventually(async () => (await watches.cached(key(name), kubeConfig)) !== null, 'the cache to see it again');
    const again = { ...wakes };
    watches.deleting(key(name));
    await core.deleteNamespacedConfigMap({ namespace: 'default', name });
    await eventually(async () => (await watches.cached(key(name), kubeConfig)) === null, 'the second deletion to reach the cache');
    watches.deleted(key(name), 'uid-deleter', false);
    expect(wakes).toEqual({ deleter: again.deleter + 1, bystander: again.bystander + 1 });
    watches.unfollow(key(name), 'uid-deleter');
    watches.unfollow(key(name), 'uid-bystander');
  });

  it('cannot answer for a kind the cluster does not serve, and says so by answering undefined', async () => {
    const missing: TargetKey = { cluster: 'remote-1', apiVersion: 'example.com/v1', kind: 'Nothing', namespace: 'default', name: 'x' };
    expect(await watches.cached(missing, kubeConfig)).toBeUndefined();
  });
});
