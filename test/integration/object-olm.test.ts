// Seed 002's scenario end to end, against two API servers: three Objects in the control cluster
// (a Subscription, the ObserveDelete ClusterServiceVersion whose name comes from the
// Subscription's status through a reference, and a Kong that needs the CSV) install in order
// into remote-1, where a stand-in for OLM turns the Subscription into a CSV; deleting all three
// at once uninstalls them in reverse order and leaves the remote cluster clean.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '#stack/paths';
import { ControlPlane, condition, eventually, remoteCluster, remoteKubectl } from './harness';
import { runKubectl } from './kubectl';
import { OlmStandIn } from './olm-standin';
import { IN_USE_FINALIZER } from '#providers/kubernetes/object/protect';

const REMOTE = 'remote-1';
const OBJECTS = 'objects.kubernetes.crossplane.io';

let plane: ControlPlane;
let olm: OlmStandIn;
beforeAll(async () => {
  [plane, olm] = await Promise.all([ControlPlane.start('olm'), OlmStandIn.start(remoteCluster(REMOTE).kubeconfigPath)]);
  await remoteKubectl(REMOTE, ['create', 'namespace', 'operators']);
});
afterAll(async () => {
  await olm?.stop();
  await plane?.stop();
});

const subscription = {
  apiVersion: 'kubernetes.crossplane.io/v1alpha1',
  kind: 'Object',
  metadata: { name: 'sub-kong' },
  spec: {
    forProvider: {
      manifest: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { namespace: 'operators' },
        spec: { name: 'kong', channel: 'alpha', source: 'operatorhubio-catalog', sourceNamespace: 'olm' },
      },
    },
  },
};

/** Kong needs its operator, which the CSV installs: a blocking reference waits for the CSV's name. */
const kong = {
  apiVersion: 'kubernetes.crossplane.io/v1alpha2',
  kind: 'Object',
  metadata: { name: 'kong' },
  spec: {
    references: [
      { patchesFrom: { name: 'csv-kong', fieldPath: 'status.atProvider.manifest.metadata.name' }, toFieldPath: 'metadata.labels.csv' },
    ],
    forProvider: {
      manifest: {
        apiVersion: 'charts.konghq.com/v1alpha1',
        kind: 'Kong',
        metadata: { namespace: 'operators' },
        spec: { proxy: { type: 'ClusterIP' } },
      },
    },
  },
};

const getObject = async (name: string) => {
  try {
    return JSON.parse(await runKubectl(['get', OBJECTS, name, '-o', 'json']));
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
};
const remoteItems = async (plural: string) =>
  (
    JSON.parse(await remoteKubectl(REMOTE, ['get', plural, '-n', 'operators', '-o', 'json'])) as {
      items: { metadata: { name: string; creationTimestamp: string; deletionTimestamp?: string; finalizers?: string[] } }[];
    }
  ).items;

describe("seed 002's OLM scenario", () => {
  it('installs in order, and deleting all three at once uninstalls in reverse order, leaving the target clean', async () => {
    // All at once, as `kubectl apply -f dir/` would: the references alone order the install.
    await runKubectl(['apply', '-f', join(repoRoot, 'examples', 'kubernetes', 'csv-kong-with-reference.yaml')]);
    await runKubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [kong, subscription] }));

    for (const name of ['sub-kong', 'csv-kong', 'kong']) {
      await eventually(
        async () => {
          const found = await getObject(name);
          return condition(found, 'Ready')?.status === 'True' && found;
        },
        `Object ${name} to be Ready`,
        120_000,
      );
    }
    const [sub] = await remoteItems('subscriptions.operators.coreos.com');
    const [csv] = await remoteItems('clusterserviceversions.operators.coreos.com');
    const [kongInTarget] = await remoteItems('kongs.charts.konghq.com');
    expect(csv!.metadata.name).toBe('kong.v1.0.0');
    expect((await getObject('csv-kong')).spec.forProvider.manifest.metadata.name).toBe('kong.v1.0.0');
    expect(kongInTarget!.metadata.name).toBe('kong');
    const created = (o: { metadata: { creationTimestamp: string } }) => Date.parse(o.metadata.creationTimestamp);
    expect(created(sub!)).toBeLessThanOrEqual(created(csv!));
    expect(created(csv!)).toBeLessThanOrEqual(created(kongInTarget!));

    // What others depend on carries our finalizer in the target (seed 002): the Subscription
    // (the CSV's name comes from it) and the CSV (Kong needs it); Kong, which nothing needs, not.
    const finalizersOf = async (plural: string) => (await remoteItems(plural))[0]?.metadata.finalizers ?? [];
    await eventually(
      async () =>
        (await finalizersOf('subscriptions.operators.coreos.com')).includes(IN_USE_FINALIZER) &&
        (await finalizersOf('clusterserviceversions.operators.coreos.com')).includes(IN_USE_FINALIZER),
      `${IN_USE_FINALIZER} on the Subscription and the CSV in the target`,
    );
    expect(await finalizersOf('kongs.charts.konghq.com')).not.toContain(IN_USE_FINALIZER);

    // Someone deletes the CSV, then the Subscription, directly in the target while Kong still
    // needs them: the finalizers keep both until their dependents are gone.
    for (const [plural, name] of [
      ['clusterserviceversions.operators.coreos.com', 'kong.v1.0.0'],
      ['subscriptions.operators.coreos.com', sub!.metadata.name],
    ]) {
      await remoteKubectl(REMOTE, ['delete', plural!, '-n', 'operators', name!, '--wait=false']);
      const held = await eventually(async () => {
        const [found] = await remoteItems(plural!);
        return found?.metadata.deletionTimestamp !== undefined && found;
      }, `${plural} ${name} to be marked for deletion`);
      expect(held.metadata.finalizers).toContain(IN_USE_FINALIZER);
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await remoteItems('clusterserviceversions.operators.coreos.com')).map((o) => o.metadata.name)).toEqual(['kong.v1.0.0']);
    expect(await remoteItems('subscriptions.operators.coreos.com')).toHaveLength(1);

    await runKubectl(['delete', OBJECTS, 'sub-kong', 'csv-kong', 'kong', '--wait=false']);
    await eventually(
      async () => {
        const left = await Promise.all(['sub-kong', 'csv-kong', 'kong'].map(getObject));
        return left.every((o) => o === undefined);
      },
      'all three Objects to be gone',
      120_000,
    );
    expect(olm.deletedBefore('Kong', 'ClusterServiceVersion')).toBe(true);
    expect(olm.deletedBefore('ClusterServiceVersion', 'Subscription')).toBe(true);
    for (const plural of ['subscriptions.operators.coreos.com', 'clusterserviceversions.operators.coreos.com', 'kongs.charts.konghq.com']) {
      expect(await remoteItems(plural), plural).toEqual([]);
    }
  });
});
