// Crashes and restarts: the worker dying between EC2's create call and recording the VPC id,
// and the watcher missing events while it was down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlane, condition, eventually, vpcManifest } from './harness';

let plane: ControlPlane;
beforeAll(async () => {
  // A long steady poll, so that converging after the watcher's restart proves the watcher
  // relisted, rather than the workflows' own drift polls finding the changes.
  plane = await ControlPlane.start('resilience', { CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
});
afterAll(async () => {
  await plane?.stop();
});

const readyVpc = (name: string, timeoutMs?: number) =>
  eventually(
    async () => {
      const v = await plane.getVpc(name);
      return condition(v, 'Ready')?.status === 'True' && condition(v, 'Synced')?.status === 'True' && v;
    },
    `${name} to be Ready`,
    timeoutMs,
  );

describe('resilience', () => {
  it('makes exactly one VPC when the worker dies right after EC2 created it', async () => {
    await plane.stopWorker();
    await plane.startWorker({ CHRONOPLANE_FAILPOINT: 'exit-after-external-create' });
    await plane.apply(vpcManifest('crashy', { cidrBlock: '10.70.0.0/16' }));

    expect(await plane.workerExit()).toBe(137);
    const object = (await plane.getVpc('crashy'))!;
    expect(object.metadata.annotations?.['crossplane.io/external-name']).toBeUndefined(); // the id was never recorded
    const made = await plane.vpcsTaggedWithUid(object.metadata.uid);
    expect(made).toHaveLength(1); // but EC2 has the VPC

    await plane.startWorker();
    // The create's heartbeats died with the worker, so it is retried once the heartbeat timeout
    // (10 s) passes, not the 30 s start-to-close timeout; the retry finds the VPC by its tags.
    const vpc = await readyVpc('crashy', 120_000);
    expect(vpc.metadata.annotations!['crossplane.io/external-name']).toBe(made[0]!.VpcId);
    expect(await plane.vpcsTaggedWithUid(object.metadata.uid)).toHaveLength(1);
  });

  it('converges on changes made while the watcher was down', async () => {
    await plane.apply(vpcManifest('kept', { cidrBlock: '10.71.0.0/16', tags: { v: '1' } }));
    await plane.apply(vpcManifest('dropped', { cidrBlock: '10.72.0.0/16' }));
    const kept = await readyVpc('kept');
    const dropped = await readyVpc('dropped');
    const droppedId = dropped.metadata.annotations!['crossplane.io/external-name']!;

    await plane.stopWatcher();
    await plane.kubectl(['patch', 'vpc', 'kept', '--type=merge', '-p', JSON.stringify({ spec: { forProvider: { tags: { v: '2' } } } })]);
    await plane.apply(vpcManifest('added', { cidrBlock: '10.73.0.0/16' }));
    await plane.kubectl(['delete', 'vpc', 'dropped', '--wait=false']);
    await plane.startWatcher();

    const keptId = kept.metadata.annotations!['crossplane.io/external-name']!;
    await eventually(
      async () => (await plane.describeVpc(keptId))?.Tags?.some((t) => t.Key === 'v' && t.Value === '2'),
      'the edit to reach EC2',
    );
    await readyVpc('added');
    await eventually(async () => !(await plane.getVpc('dropped')) && !(await plane.describeVpc(droppedId)), 'the deletion to complete');
  });
});
