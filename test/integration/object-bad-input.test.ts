// Mistakes in an Object, against real servers, as a user makes them: each ends in a condition
// that names the mistake, passes that back off instead of looping, and a delete that goes
// through and leaves nothing in remote-1. A field the target's schema lacks (strict field
// validation), a readiness celQuery that does not compile, a connection detail that names
// nothing, and a rename of the target, which admission refuses (also a name added by hand
// once the target exists).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIdFor } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';
import { BACKOFF_BASE_SECONDS } from '#workflows/decide';
import { ControlPlane, condition, eventually } from './harness';
import { runKubectl } from './kubectl';
import {
  REMOTE,
  apply,
  conditionBecomes,
  configMap,
  deleteObjects,
  getObject,
  namer,
  object,
  ready,
  remoteConfigMap,
  remoteObject,
  type Manifest,
} from './objects';

let plane: ControlPlane;
beforeAll(async () => {
  // Ten-minute polls; the pending poll stays the harness's 1 s, so a pass that did not back
  // off would show at once.
  plane = await ControlPlane.start('object-bad-input', { CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
});
afterAll(async () => {
  await plane?.stop();
});

const named = namer();
const workflowOf = (name: string) =>
  plane.temporal.workflow.getHandle(workflowIdFor({ group: 'kubernetes.crossplane.io', kind: 'Object', namespace: '', name }));

/**
 * Follows the Object's workflow until `count` passes in a row have failed, and returns when
 * each of them ran. Every pass from the first failure on must be one of them (no pass in
 * between that did not count), and each wait must be the engine's backoff: 5 s, 10 s, 20 s …
 */
async function failingPasses(name: string, count: number): Promise<number[]> {
  const workflow = workflowOf(name);
  const failed = new Map<number, number>();
  let first: { passes: number } | undefined;
  const last = await eventually(
    async () => {
      const state = await workflow.query(stateQuery);
      if (state.consecutiveFailures > 0 && state.lastPass) {
        first ??= { passes: state.passes - state.consecutiveFailures + 1 };
        failed.set(state.lastPass.pass, Date.parse(state.lastPass.at));
      }
      return state.consecutiveFailures >= count && state;
    },
    `${count} failed passes in a row of Object ${name}`,
    (BACKOFF_BASE_SECONDS * 2 ** count + 30) * 1000,
  );
  // Nothing but the failed passes ran since the first of them: no hot loop beside the backoff.
  expect(last.passes - first!.passes + 1).toBe(last.consecutiveFailures);
  const times = [...failed.entries()].sort(([a], [b]) => a - b).map(([, at]) => at);
  const waits = times.slice(1).map((at, i) => (at - times[i]!) / 1000);
  // The waits the polls above saw (a pass quicker than a poll may be missed, never invented).
  for (const [i, wait] of waits.entries()) expect(wait).toBeGreaterThanOrEqual(BACKOFF_BASE_SECONDS * 2 ** i * 0.9);
  return times;
}

async function deletesCleanly(name: string, target: () => Promise<unknown>): Promise<void> {
  await deleteObjects(name);
  await eventually(async () => (await getObject(name)) === undefined, `Object ${name} to be gone`, 30_000);
  expect(await target()).toBeUndefined();
}

describe('an Object with bad input', () => {
  it('a field the target does not know: Synced=False naming it, backing off, nothing made, and it deletes cleanly', async () => {
    const name = named('unknown-field');
    const manifest: Manifest = { ...configMap({ k: 'v' }), dta: { typo: 'x' } };
    await apply(object(name, manifest));
    const synced = await conditionBecomes(name, 'Synced', 'False');
    expect(synced.message).toMatch(/\.dta: field not declared in schema/);
    expect(condition(await getObject(name), 'Ready')?.status).not.toBe('True');
    expect(await remoteConfigMap(name)).toBeUndefined();
    await failingPasses(name, 3);
    await deletesCleanly(name, () => remoteConfigMap(name));
  }, 120_000);

  it('a field the target does not know, added to a Ready Object: Synced=False naming it, and it deletes its target', async () => {
    const name = named('unknown-later');
    await apply(object(name, configMap({ k: 'v' })));
    await ready(name);
    await apply(object(name, { ...configMap({ k: 'v2' }), spec: { replicas: 1 } }));
    const synced = await conditionBecomes(name, 'Synced', 'False');
    expect(synced.message).toMatch(/\.spec: field not declared in schema/);
    // Nothing of the refused apply landed.
    expect((await remoteConfigMap(name))?.data).toEqual({ k: 'v' });
    await deletesCleanly(name, () => remoteConfigMap(name));
  }, 120_000);

  it('a celQuery that does not compile: the parser’s message in Ready and Synced, passes backing off, and a prompt recovery once fixed', async () => {
    const name = named('cel-broken');
    const readiness = (celQuery: string) => ({ readiness: { policy: 'DeriveFromCelQuery', celQuery } });
    await apply(object(name, configMap({ k: 'v' }), readiness('object.data.(')));
    const synced = await conditionBecomes(name, 'Synced', 'False');
    expect(synced.message).toBe('readiness.celQuery does not compile: Expected IDENTIFIER, got LPAREN');
    const notReady = condition(await getObject(name), 'Ready');
    expect(notReady).toMatchObject({ status: 'False', message: 'readiness.celQuery does not compile: Expected IDENTIFIER, got LPAREN' });
    // The target was made, as upstream makes it: only its readiness cannot be judged.
    expect((await remoteConfigMap(name))?.data).toEqual({ k: 'v' });
    const times = await failingPasses(name, 4);
    // Four failed passes took at least 5 + 10 + 20 s: at most a handful of passes a minute.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(30_000);

    await apply(object(name, configMap({ k: 'v' }), readiness("object.data.k == 'v'")));
    await ready(name, 15_000);
    await deletesCleanly(name, () => remoteConfigMap(name));
  }, 150_000);

  it('a connection detail whose field is not there: Synced=False saying so, and it deletes its target all the same', async () => {
    const name = named('detail-missing');
    await apply(
      object(name, configMap({ k: 'v' }), {
        connectionDetails: [{ apiVersion: 'v1', kind: 'ConfigMap', name, namespace: 'default', fieldPath: 'data.missing' }],
        writeConnectionSecretToRef: { name, namespace: plane.namespace },
      }),
    );
    const synced = await conditionBecomes(name, 'Synced', 'False');
    expect(synced.message).toMatch(/has no field data\.missing/);
    expect(await remoteConfigMap(name)).toBeDefined();
    await deletesCleanly(name, () => remoteConfigMap(name));
  }, 120_000);

  it('a rename of the target is refused, in both groups, and the Object keeps managing the one it made', async () => {
    const name = named('rename');
    const legacy = object(name, configMap({ k: 'v' }, { name }));
    const namespaced = {
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'Object',
      metadata: { name, namespace: plane.namespace },
      spec: {
        forProvider: { manifest: configMap({ k: 'v' }, { name: `${name}-m` }) },
        providerConfigRef: { kind: 'ClusterProviderConfig', name: REMOTE },
      },
    };
    await apply(legacy);
    await apply(namespaced);
    await ready(name);
    await plane.ready('objects.kubernetes.m.crossplane.io', name);
    const renamed = (o: typeof legacy | typeof namespaced) => ({
      ...o,
      spec: { ...o.spec, forProvider: { manifest: configMap({ k: 'v' }, { name: `${name}-other` }) } },
    });
    for (const o of [legacy, namespaced]) {
      await expect(apply(renamed(o))).rejects.toThrow(
        /spec.forProvider.manifest.metadata.name cannot be changed: .*delete and recreate the Object to change it/,
      );
    }
    expect(await remoteConfigMap(`${name}-other`)).toBeUndefined();

    await deletesCleanly(name, () => remoteConfigMap(name));
    await runKubectl(['-n', plane.namespace, 'delete', 'objects.kubernetes.m.crossplane.io', name, '--wait=false']);
    await eventually(async () => (await remoteObject('configmap', `${name}-m`)) === undefined, `ConfigMap ${name}-m to be gone`, 30_000);
  }, 120_000);

  it('a name added by hand to a manifest that had none, once the target exists, is refused; the same name is let through', async () => {
    const name = named('name-added');
    await apply(object(name, configMap({ k: 'v' })));
    const made = await ready(name);
    expect(made.metadata.annotations?.['crossplane.io/external-name']).toBe(name);

    await expect(apply(object(name, configMap({ k: 'v' }, { name: `${name}-other` })))).rejects.toThrow(
      new RegExp(
        `spec.forProvider.manifest.metadata.name cannot be set to ${name}-other: the target was made as ${name} .*delete and recreate the Object`,
      ),
    );
    expect(await remoteConfigMap(`${name}-other`)).toBeUndefined();
    // Writing down the name it already has changes nothing, so it goes through.
    await apply(object(name, configMap({ k: 'v' }, { name })));
    expect(await remoteConfigMap(name)).toBeDefined();

    await deletesCleanly(name, () => remoteConfigMap(name));
  }, 120_000);
});
