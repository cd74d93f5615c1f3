// Objects wrapping large targets (issue 21, finding 6). An Object mirrors its target in
// status.atProvider.manifest, so a 900 KB ConfigMap makes an object of 1.8 MB with its mirror,
// past etcd's request limit (1.5 MiB): the status write used to fail every pass, READY and
// SYNCED stayed blank, and each pass carried the whole observed object into Temporal history.
// Now the conditions go in without the mirror and say why, an Event says so once, and history
// carries a stand-in (activities/held-values.ts) in place of every observed state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIdFor } from '#core/managed-kind';
import { reconcileNowUpdate } from '#contract/reconcile-workflow';
import { ControlPlane, condition, eventually, remoteKubectl, textOf, type VpcObject } from './harness';
import { runKubectl } from './kubectl';
import { REMOTE, namer } from './objects';

const OBJECTS = 'objects.kubernetes.m.crossplane.io';
const named = namer();

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('large-object', { CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
});
afterAll(async () => {
  await plane?.stop();
});

/** A namespaced Object wrapping a ConfigMap in remote-1's default namespace, its data `bytes` long. */
const largeObject = (name: string, bytes: number, fill: string) => ({
  apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
  kind: 'Object',
  metadata: { name, namespace: plane.namespace },
  spec: {
    forProvider: {
      manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' }, data: { blob: fill.repeat(bytes) } },
    },
    providerConfigRef: { kind: 'ClusterProviderConfig', name: REMOTE },
  },
});

/**
 * Server-side apply: a client-side `kubectl apply` would copy the whole object into the
 * last-applied annotation, which the API server refuses past 256 KB. This is how a user
 * applies an object this large.
 */
const applyServerSide = (manifest: object) =>
  runKubectl(['apply', '--server-side', '--field-manager=large-object-test', '-f', '-'], JSON.stringify(manifest));

const getObject = async (name: string): Promise<VpcObject | undefined> => {
  try {
    return JSON.parse(await plane.kubectl(['get', OBJECTS, name, '-o', 'json'])) as VpcObject;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
};

const workflowOf = (name: string) =>
  plane.temporal.workflow.getHandle(
    workflowIdFor({ group: 'kubernetes.m.crossplane.io', kind: 'Object', namespace: plane.namespace, name }),
  );

const readyAndSynced = (name: string) =>
  eventually(
    async () => {
      const found = await getObject(name);
      return condition(found, 'Ready')?.status === 'True' && condition(found, 'Synced')?.status === 'True' && found;
    },
    `Object ${name} to be Ready and Synced`,
    90_000,
  );

const remoteConfigMapData = async (name: string): Promise<string | undefined> => {
  try {
    const found = JSON.parse(await remoteKubectl(REMOTE, ['get', 'configmap', '-n', 'default', name, '-o', 'json'])) as {
      data?: { blob?: string };
    };
    return found.data?.blob;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
};

const tooLargeEvents = async (name: string): Promise<string[]> => {
  const list = JSON.parse(
    await plane.kubectl(['get', 'events', '--field-selector', `involvedObject.name=${name},reason=StatusTooLarge`, '-o', 'json']),
  ) as { items: { message: string; count?: number; series?: { count: number } }[] };
  return list.items.map((e) => e.message);
};

describe('an Object wrapping a large target', () => {
  it('with a 900 KB ConfigMap: Ready and Synced, saying the mirror is left out; one Event; history without the data', async () => {
    const name = named('nine-hundred-kb');
    await applyServerSide(largeObject(name, 900 * 1024, 'x'));

    const found = await readyAndSynced(name);
    expect(condition(found, 'Synced')!.message).toMatch(/status\.atProvider is left out: .*size limit.*request is too large/);
    expect(found.status?.atProvider).toBeUndefined();
    expect((await remoteConfigMapData(name))?.length).toBe(900 * 1024);
    await eventually(async () => (await tooLargeEvents(name)).length > 0, 'a StatusTooLarge Event');

    // More passes of the same state leave status alone: no further write to fail, no new Event.
    // And each costs history as a pass of a one-line ConfigMap would: the observed 900 KB travel
    // as a digest, never as the body.
    const workflow = workflowOf(name);
    const before = (await getObject(name))!;
    const historyBefore = (await workflow.describe()).historySize!;
    for (let i = 0; i < 3; i += 1) {
      const pass = await workflow.executeUpdate(reconcileNowUpdate);
      expect(pass.error).toBeUndefined();
    }
    expect(((await workflow.describe()).historySize! - historyBefore) / 3).toBeLessThan(3 * 1024);
    const after = (await getObject(name))!;
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const events = JSON.parse(
      await plane.kubectl(['get', 'events', '--field-selector', `involvedObject.name=${name},reason=StatusTooLarge`, '-o', 'json']),
    ) as { items: { count?: number; series?: { count: number } }[] };
    expect(events.items).toHaveLength(1);
    expect(events.items[0]!.count ?? 1).toBe(1);

    // History carries no copy of the data: a 900 KB blob would show as a run of x's.
    const history = textOf(await plane.decodedHistory(workflow.workflowId));
    expect(history).not.toMatch(/x{1000}/);
    expect(history.length).toBeLessThan(60_000);

    await plane.kubectl(['delete', OBJECTS, name, '--wait=false']);
    await eventually(async () => (await getObject(name)) === undefined, `Object ${name} to be gone`);
    expect(await remoteConfigMapData(name)).toBeUndefined();
  });

  it('with a 300 KB ConfigMap that status can hold: mirrored in status, and still not copied into history', async () => {
    const name = named('three-hundred-kb');
    await applyServerSide(largeObject(name, 300 * 1024, 'y'));

    const found = await readyAndSynced(name);
    expect(condition(found, 'Synced')!.message ?? '').not.toContain('left out');
    const mirrored = (found.status?.atProvider as { manifest?: { data?: { blob?: string } } } | undefined)?.manifest?.data?.blob;
    expect(mirrored?.length).toBe(300 * 1024);

    const history = textOf(await plane.decodedHistory(workflowOf(name).workflowId));
    expect(history).not.toMatch(/y{1000}/);

    // Shrunk to a size history may carry: mirrored as before.
    await applyServerSide(largeObject(name, 10, 'z'));
    await eventually(async () => {
      const now = await getObject(name);
      const blob = (now?.status?.atProvider as { manifest?: { data?: { blob?: string } } } | undefined)?.manifest?.data?.blob;
      return blob === 'z'.repeat(10) && condition(now, 'Ready')?.status === 'True';
    }, 'the shrunk ConfigMap mirrored in status');

    await plane.kubectl(['delete', OBJECTS, name, '--wait=false']);
    await eventually(async () => (await getObject(name)) === undefined, `Object ${name} to be gone`);
    expect(await remoteConfigMapData(name)).toBeUndefined();
  });

  // The API server cannot store it: etcd refuses requests past 1.5 MiB ("request is too large"),
  // and the API server's own etcd client refuses to send one past 2 MiB ("larger than max"),
  // naming both sizes. Nothing is stored, so nothing reaches a workflow.
  it('refuses a 2 MiB manifest at admission, naming the size limit', async () => {
    const name = named('two-mib');
    const refused = await applyServerSide(largeObject(name, 2 * 1024 * 1024, 'w')).then(
      () => undefined,
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/message larger than max \(\d+ vs\. \d+\)|request is too large/);
    expect(await getObject(name)).toBeUndefined();
  });
});
