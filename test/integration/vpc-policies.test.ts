// The knobs users turn: pause, management policies, adoption by external name, and what bad
// input looks like.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateVpcCommand, DescribeVpcAttributeCommand } from '@aws-sdk/client-ec2';
import { ControlPlane, condition, eventually, vpcManifest } from './harness';
import { workflowIdFor, refFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { stateQuery } from '#contract/reconcile-workflow';

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('policies');
});
afterAll(async () => {
  await plane?.stop();
});

const tagsOf = async (vpcId: string) => Object.fromEntries(((await plane.describeVpc(vpcId))?.Tags ?? []).map((t) => [t.Key!, t.Value!]));
const readyVpc = (name: string) =>
  eventually(async () => {
    const v = await plane.getVpc(name);
    return condition(v, 'Ready')?.status === 'True' && condition(v, 'Synced')?.status === 'True' && v;
  }, `${name} to be Ready`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('VPC policies', () => {
  it('pauses: no change reaches EC2 and Synced says ReconcilePaused; resuming applies it', async () => {
    await plane.apply(vpcManifest('paused', { cidrBlock: '10.40.0.0/16', tags: { stage: 'one' } }));
    const vpc = await readyVpc('paused');
    const vpcId = vpc.metadata.annotations!['crossplane.io/external-name']!;
    await plane.kubectl(['annotate', 'vpc', 'paused', 'crossplane.io/paused=true']);
    await eventually(async () => condition(await plane.getVpc('paused'), 'Synced')?.reason === 'ReconcilePaused', 'ReconcilePaused');
    await plane.kubectl([
      'patch',
      'vpc',
      'paused',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { forProvider: { tags: { stage: 'two' } } } }),
    ]);
    await sleep(5_000); // longer than the 3 s poll and 1 s pending intervals
    expect((await tagsOf(vpcId)).stage).toBe('one');

    await plane.kubectl(['annotate', 'vpc', 'paused', 'crossplane.io/paused-']);
    await eventually(async () => (await tagsOf(vpcId)).stage === 'two', 'the change to apply after resuming');
    await eventually(async () => condition(await plane.getVpc('paused'), 'Synced')?.reason === 'ReconcileSuccess', 'Synced again');
  });

  it('observes without changing anything under managementPolicies ["Observe"]', async () => {
    const made = await plane.ec2.send(
      new CreateVpcCommand({
        CidrBlock: '10.50.0.0/16',
        TagSpecifications: [{ ResourceType: 'vpc', Tags: [{ Key: 'owner', Value: 'another-team' }] }],
      }),
    );
    const vpcId = made.Vpc!.VpcId!;
    await plane.apply(
      vpcManifest(
        'observed',
        { cidrBlock: '10.50.0.0/16', tags: { owner: 'us' }, enableDnsHostnames: true },
        {
          annotations: { 'crossplane.io/external-name': vpcId },
          spec: { managementPolicies: ['Observe'] },
        },
      ),
    );
    const vpc = await readyVpc('observed');
    expect(vpc.status!.atProvider).toMatchObject({ vpcId, state: 'available' });
    await sleep(4_000);
    expect(await tagsOf(vpcId)).toEqual({ owner: 'another-team' });
    const hostnames = await plane.ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' }));
    expect(hostnames.EnableDnsHostnames?.Value).toBe(false);

    await plane.kubectl(['delete', 'vpc', 'observed', '--timeout=60s']);
    expect((await plane.describeVpc(vpcId))?.State).toBe('available');
  });

  it('reports an observe-only resource that does not exist, without creating it', async () => {
    await plane.apply(vpcManifest('ghost', { cidrBlock: '10.51.0.0/16' }, { spec: { managementPolicies: ['Observe'] } }));
    const vpc = await eventually(async () => {
      const v = await plane.getVpc('ghost');
      return condition(v, 'Synced')?.status === 'False' && v;
    }, 'Synced=False');
    expect(condition(vpc, 'Synced')!.message).toContain('do not allow Create');
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);
  });

  it('adopts an existing VPC named by crossplane.io/external-name instead of creating one', async () => {
    const made = await plane.ec2.send(new CreateVpcCommand({ CidrBlock: '10.60.0.0/16' }));
    const vpcId = made.Vpc!.VpcId!;
    await plane.apply(
      vpcManifest(
        'adopted',
        { cidrBlock: '10.60.0.0/16', tags: { adopted: 'yes' } },
        { annotations: { 'crossplane.io/external-name': vpcId } },
      ),
    );
    const vpc = await readyVpc('adopted');
    expect(vpc.metadata.annotations!['crossplane.io/external-name']).toBe(vpcId);
    await eventually(async () => (await tagsOf(vpcId)).adopted === 'yes', 'the adopted VPC to be tagged');
    expect((await tagsOf(vpcId))['crossplane-name']).toBe('adopted');
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toHaveLength(1);
  });

  it('shows an invalid CIDR as Synced=False with EC2\u2019s message, and backs off its retries', async () => {
    await plane.apply(vpcManifest('too-big', { cidrBlock: '10.0.0.0/8' }));
    const vpc = await eventually(async () => {
      const v = await plane.getVpc('too-big');
      return condition(v, 'Synced')?.status === 'False' && v;
    }, 'Synced=False');
    expect(condition(vpc, 'Synced')).toMatchObject({ reason: 'ReconcileError' });
    expect(condition(vpc, 'Synced')!.message).toMatch(/cannot create VPC: InvalidVpc\.Range/);
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);

    const events = await plane.kubectl([
      'get',
      'events',
      '--field-selector',
      `involvedObject.name=too-big`,
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    expect(events).toContain('ReconcileError');

    // Backoff doubles from 5 s: attempts at about 0, 5 and 15 s. Without it, the 1 s pending
    // poll would have made about 20 attempts in this window.
    await sleep(20_000);
    const handle = plane.temporal.workflow.getHandle(workflowIdFor(refFor(vpcApi, plane.namespace, 'too-big')));
    const creates = ((await handle.fetchHistory()).events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'createExternal',
    );
    expect(creates.length).toBeGreaterThanOrEqual(2);
    expect(creates.length).toBeLessThanOrEqual(4);
    expect((await handle.query(stateQuery)).consecutiveFailures).toBeGreaterThanOrEqual(creates.length);
    await plane.kubectl(['delete', 'vpc', 'too-big', '--timeout=60s']);
  });
});
