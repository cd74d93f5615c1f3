// Deleting the example network and applying it again at once, under the same names in the same
// namespace: every new object is a new resource with a new uid and a status of its own, and
// each gets its own reconcile passes, whatever state the old objects' workflows are in when
// its events arrive. A write meant for the old object never lands on its successor.
import { MockActivityEnvironment } from '@temporalio/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PAUSED } from '#core/annotations';
import { KubeAccess } from '#activities/kube';
import { createReconcileActivities } from '#activities/reconcile';
import { OBJECT_GONE } from '#core/errors';
import { refFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { ControlPlane, eventually, vpcManifest } from './harness';
import { NETWORK_DIR, leftovers, managedObjects, managedOnly, networkManifests } from './network';

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('recreate');
});
afterAll(async () => {
  await plane?.stop();
});

interface Stamped {
  kind: string;
  metadata: { name: string; uid: string; creationTimestamp: string };
  status?: { conditions?: { type: string; lastTransitionTime: string }[] };
}

/** Conditions older than the object itself were copied from a predecessor. */
function conditionsOlderThanObject(object: Stamped): string[] {
  const created = Date.parse(object.metadata.creationTimestamp);
  return (object.status?.conditions ?? [])
    .filter((c) => Date.parse(c.lastTransitionTime) < created - 1000) // creationTimestamp has whole seconds
    .map((c) => `${c.type} (${c.lastTransitionTime})`);
}

describe('the same network deleted and applied again under the same names', () => {
  it('is created anew each time, with statuses of its own, and deletes to nothing', async () => {
    const manifests = managedOnly(await networkManifests());
    const seen = new Set<string>();
    for (let round = 1; round <= 3; round += 1) {
      await plane.kubectl(['apply', '-f', NETWORK_DIR]);
      const objects = await Promise.all(manifests.map((m) => plane.ready(m.kind, m.metadata.name, 120_000)));
      for (const object of objects as unknown as Stamped[]) {
        const name = `${object.kind}/${object.metadata.name}`;
        expect(seen.has(object.metadata.uid), `${name} is a new object in round ${round}`).toBe(false);
        seen.add(object.metadata.uid);
        expect(conditionsOlderThanObject(object), `${name}'s conditions in round ${round}`).toEqual([]);
      }
      // Apply again the moment the last object is gone, while the old workflows may still be
      // finishing their last pass: the tightest race between an old run and a new object.
      await plane.kubectl(['delete', '-f', NETWORK_DIR, '--wait=false']);
      await eventually(async () => (await managedObjects(plane)).length === 0, 'every managed object to be gone', 120_000);
    }
    await eventually(async () => Object.keys(await leftovers(plane)).length === 0, 'nothing left at the EC2 endpoint');
  });

  it('refuses a late status write for a deleted object instead of applying it to its successor', async () => {
    // Paused, so that the worker leaves both objects alone and only this test writes.
    const paused = (cidrBlock: string) => vpcManifest('successor', { cidrBlock }, { annotations: { [PAUSED]: 'true' } });
    await plane.apply(paused('10.90.0.0/16'));
    const predecessor = (await plane.getVpc('successor'))!;
    await plane.kubectl(['delete', 'vpc', 'successor']);
    await plane.apply(paused('10.91.0.0/16'));
    const successor = (await plane.getVpc('successor'))!;
    expect(successor.metadata.uid).not.toBe(predecessor.metadata.uid);

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(inject('kubeconfigPath'));
    const activities = createReconcileActivities(new KubeAccess(kubeConfig));
    const ref = refFor(vpcApi, plane.namespace, 'successor');
    const stale = {
      status: { conditions: [], observedGeneration: 7, atProvider: { vpcId: 'vpc-of-the-predecessor' } },
      events: [],
    };
    const write = new MockActivityEnvironment().run(activities.writeBack, ref, predecessor.metadata.uid, stale);
    await expect(write).rejects.toMatchObject({ type: OBJECT_GONE });
    expect((await plane.getVpc('successor'))!.status?.atProvider).toBeUndefined();
    await plane.kubectl(['delete', 'vpc', 'successor']);
  });
});
