// A Kubernetes resource of the control cluster that an Object depends on (a ConfigMap, not a
// managed object) carries provider-kubernetes' finalizer `kubernetes.crossplane.io/
// referred-by-object-<uid>` while referred to: deleting it waits until the Object is gone, and
// the finalizer goes when the reference does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlane, eventually } from './harness';
import { runKubectl } from './kubectl';
import { OBJECTS, apply, configMap, deleteObjects, getObject, gone, namer, object, ready } from './objects';

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('referred');
});
afterAll(async () => {
  await plane?.stop();
});

const named = namer();

interface ControlConfigMap {
  metadata: { uid: string; finalizers?: string[]; deletionTimestamp?: string };
}

async function controlConfigMap(name: string): Promise<ControlConfigMap | undefined> {
  try {
    return JSON.parse(await plane.kubectl(['get', 'configmap', name, '-o', 'json'])) as ControlConfigMap;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

const finalizerOf = async (objectName: string) =>
  `kubernetes.crossplane.io/referred-by-object-${(await getObject(objectName))!.metadata.uid}`;

/** An Object (landing in the remote cluster) that depends on a ConfigMap of the control cluster. */
async function objectDependingOn(configMapName: string): Promise<string> {
  const name = named('dependent');
  await plane.kubectl(['create', 'configmap', configMapName, '--from-literal=a=b']);
  const dependsOn = { apiVersion: 'v1', kind: 'ConfigMap', name: configMapName, namespace: plane.namespace };
  await apply(object(name, configMap({ greeting: 'hello' }), { references: [{ dependsOn }] }));
  await ready(name);
  const finalizer = await finalizerOf(name);
  await eventually(
    async () => (await controlConfigMap(configMapName))?.metadata.finalizers?.includes(finalizer),
    `ConfigMap ${configMapName} to carry ${finalizer}`,
  );
  return name;
}

describe('a ConfigMap an Object depends on', () => {
  it('waits to be deleted until the Object is gone, then goes', async () => {
    const name = await objectDependingOn('guarded');
    const finalizer = await finalizerOf(name);

    await plane.kubectl(['delete', 'configmap', 'guarded', '--wait=false']);
    const deleting = await eventually(async () => {
      const found = await controlConfigMap('guarded');
      return found?.metadata.deletionTimestamp !== undefined && found;
    }, 'the ConfigMap to be marked for deletion');
    expect(deleting.metadata.finalizers).toContain(finalizer);
    // The Object keeps working meanwhile: it is still Ready, and the ConfigMap still waits.
    await ready(name);
    expect((await controlConfigMap('guarded'))?.metadata.deletionTimestamp).toBeDefined();

    // A dependency being deleted does not hold up the Object's own deletion.
    await deleteObjects(name);
    await gone(name);
    await eventually(async () => (await controlConfigMap('guarded')) === undefined, 'the ConfigMap to be gone');
  });

  it('loses the finalizer when the Object stops referring to it', async () => {
    const name = await objectDependingOn('released');
    const finalizer = await finalizerOf(name);
    await runKubectl(['patch', OBJECTS, name, '--type=json', '-p', JSON.stringify([{ op: 'remove', path: '/spec/references' }])]);
    await eventually(
      async () => !(await controlConfigMap('released'))?.metadata.finalizers?.includes(finalizer),
      'the finalizer to come off the ConfigMap',
    );
    await eventually(
      async () => (await getObject(name))?.metadata.annotations?.['chronoplane.io/referred-objects'] === undefined,
      'the Object to forget the ConfigMap',
    );
    // Nothing holds it now: it deletes at once.
    await plane.kubectl(['delete', 'configmap', 'released', '--timeout=30s']);
    await deleteObjects(name);
    await gone(name);
  });
});
