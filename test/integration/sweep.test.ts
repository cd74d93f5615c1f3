// Drift found by the kind's sweep rather than by each resource's poll: a settled VPC's own
// workflow waits on its six-hour safety net, costs no pass and one DescribeVpcs per sweep
// while nothing drifts, and is woken by the sweep when its VPC drifts or vanishes in EC2. The
// DNS attributes, which no sweep can read, are found by the safety-net pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteTagsCommand,
  DeleteVpcCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcAttributeCommand,
  DisassociateRouteTableCommand,
  ModifySubnetAttributeCommand,
  ModifyVpcAttributeCommand,
} from '@aws-sdk/client-ec2';
import type { WorkflowHandle } from '@temporalio/client';
import { readEc2CallCounts } from '#bench/ec2-call-counter';
import { managedKinds } from '#providers/registry';
import { SAFETY_NET_SECONDS } from '#providers/aws/ec2/bulk-observation';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';
import { sweepStateQuery, sweepWorkflowIdFor } from '#contract/sweep-workflow';
import { ControlPlane, eventually } from './harness';
import {
  ec2Calls,
  managedObjects,
  managedOnly,
  networkManifests,
  ownProviderConfigRef,
  useOwnProviderConfig,
  withProviderConfig,
} from './network';

/** The wait a workflow started last, in seconds: what it sleeps until its next pass, absent a signal. */
async function lastTimerSeconds(handle: WorkflowHandle): Promise<number | undefined> {
  const timers = ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerStartedEventAttributes);
  const timeout = timers.at(-1)?.timerStartedEventAttributes?.startToFireTimeout;
  return timeout ? Number(timeout.seconds ?? 0) + (timeout.nanos ?? 0) / 1e9 : undefined;
}

/** The workflows that signalled this one, by workflow id, in order. */
async function signalledBy(handle: WorkflowHandle): Promise<string[]> {
  return ((await handle.fetchHistory()).events ?? []).flatMap((e) => {
    const from = e.workflowExecutionSignaledEventAttributes?.externalWorkflowExecution?.workflowId;
    return from ? [from] : [];
  });
}

describe('drift detection by sweep', () => {
  let plane: ControlPlane;
  let providerConfig: string;
  beforeAll(async () => {
    plane = await ControlPlane.start('sweep'); // steady polls, and so sweeps, every 3 s
    providerConfig = await useOwnProviderConfig(plane);
  });
  afterAll(async () => {
    await plane?.stop();
  });

  const vpcSweep = () =>
    plane.temporal.workflow.getHandle(sweepWorkflowIdFor({ group: vpcApi.group, kind: vpcApi.kind, namespace: plane.namespace }));
  const vpcWorkflow = (name: string) => plane.temporal.workflow.getHandle(workflowIdFor(refFor(vpcApi, plane.namespace, name)));
  const externalName = async (name: string) => (await plane.getVpc(name))!.metadata.annotations!['crossplane.io/external-name']!;
  const tagsOf = async (vpcId: string) => Object.fromEntries(((await plane.describeVpc(vpcId))?.Tags ?? []).map((t) => [t.Key!, t.Value!]));
  const sweeps = async () => (await vpcSweep().query(sweepStateQuery)).sweeps;

  it('runs one sweep workflow per kind with bulk observation, for the namespace the worker serves', async () => {
    const swept = managedKinds.filter((k) => k.bulkObservation);
    expect(swept.map((k) => k.api.kind)).toContain('VPC');
    for (const kind of swept) {
      const handle = plane.temporal.workflow.getHandle(
        sweepWorkflowIdFor({ group: kind.api.group, kind: kind.api.kind, namespace: plane.namespace }),
      );
      await eventually(async () => (await handle.query(sweepStateQuery)).sweeps > 0, `the first ${kind.api.kind} sweep`);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    }
  });

  it('settles a VPC whose workflow then waits on the safety net, not on the steady poll', async () => {
    await plane.apply({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'VPC',
      metadata: { name: 'swept' },
      spec: {
        forProvider: { region: 'us-east-1', cidrBlock: '10.120.0.0/16', tags: { team: 'net' } },
        providerConfigRef: ownProviderConfigRef(providerConfig),
      },
    });
    await plane.ready('vpc', 'swept');
    await eventually(async () => (await lastTimerSeconds(vpcWorkflow('swept'))) === SAFETY_NET_SECONDS, 'the safety-net wait');
  });

  it('costs no pass of its own and one DescribeVpcs per sweep while nothing drifts', async () => {
    const passes = (await vpcWorkflow('swept').query(stateQuery)).passes;
    const [calls, sweptBefore] = await Promise.all([readEc2CallCounts(plane.ec2Endpoint), sweeps()]);
    await eventually(async () => (await sweeps()) >= sweptBefore + 3, 'three more sweeps');
    const [spent, sweptAfter] = await Promise.all([ec2Calls(plane, calls), sweeps()]);
    expect(Object.keys(spent.byAction)).toEqual(['DescribeVpcs']); // no DescribeVpcAttribute: no pass ran
    expect(spent.byAction.DescribeVpcs).toBeLessThanOrEqual(sweptAfter - sweptBefore + 1); // one a sweep, one perhaps in flight
    expect((await vpcWorkflow('swept').query(stateQuery)).passes).toBe(passes);
  });

  it('restores a tag removed in EC2 within the poll interval: the sweep wakes the VPC, whose own pass corrects it', async () => {
    const vpcId = await externalName('swept');
    await plane.ec2.send(new DeleteTagsCommand({ Resources: [vpcId], Tags: [{ Key: 'team' }] }));
    await eventually(async () => (await tagsOf(vpcId)).team === 'net', 'the tag to be restored', 30_000);
    expect(await signalledBy(vpcWorkflow('swept'))).toContain(vpcSweep().workflowId);
    expect((await vpcSweep().query(sweepStateQuery)).woken).toBeGreaterThanOrEqual(1);
    // Settled again, it goes back to waiting on the safety net.
    await eventually(async () => (await lastTimerSeconds(vpcWorkflow('swept'))) === SAFETY_NET_SECONDS, 'the safety-net wait again');
  });

  it('makes a new VPC when its VPC is deleted in EC2, woken by the sweep', async () => {
    const vpcId = await externalName('swept');
    await plane.ec2.send(new DeleteVpcCommand({ VpcId: vpcId }));
    const replaced = await eventually(
      async () => {
        const now = await externalName('swept');
        return now !== vpcId && (await plane.describeVpc(now))?.State === 'available' && now;
      },
      'a new VPC to be recorded',
      30_000,
    );
    expect((await tagsOf(replaced)).team).toBe('net');
    await plane.ready('vpc', 'swept');
  });

  it('keeps a settled network of every kind quiet, and corrects drift in its subnet, group and association', async () => {
    const applied = withProviderConfig(await networkManifests(), providerConfig);
    const manifests = managedOnly(applied);
    await plane.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: applied }));
    for (const m of manifests) await plane.ready(m.kind.toLowerCase(), m.metadata.name, 120_000);
    const workflows = manifests.map((m) =>
      plane.temporal.workflow.getHandle(
        workflowIdFor({ group: vpcApi.group, kind: m.kind, namespace: plane.namespace, name: m.metadata.name }),
      ),
    );
    await eventually(
      async () => (await Promise.all(workflows.map(lastTimerSeconds))).every((s) => s === SAFETY_NET_SECONDS),
      'every workflow to wait on its safety net',
      120_000,
    );

    const sweepOf = (kind: string) =>
      plane.temporal.workflow.getHandle(sweepWorkflowIdFor({ group: vpcApi.group, kind, namespace: plane.namespace }));
    const kinds = [...new Set(manifests.map((m) => m.kind))];
    const passes = async () => Promise.all(workflows.map(async (w) => (await w.query(stateQuery)).passes));
    const moreSweeps = async (more: number, what: string) => {
      const sweptBefore = await Promise.all(kinds.map(async (k) => (await sweepOf(k).query(sweepStateQuery)).sweeps));
      await eventually(
        async () =>
          (await Promise.all(kinds.map(async (k, i) => (await sweepOf(k).query(sweepStateQuery)).sweeps >= sweptBefore[i]! + more))).every(
            Boolean,
          ),
        what,
      );
    };
    // A resource that settled before its dependents existed (a route table before its routes
    // and associations) shows a stale atProvider, and the first sweep after rightly wakes it
    // once to refresh its status. The second sweep ends after that pass (a sweep counts itself
    // before it wakes anyone, and sweeps are an interval apart).
    await moreSweeps(2, 'two sweeps of every kind since the network settled');

    // Three sweeps of every kind then find nothing to wake: each kind's atProvider survives the
    // round trip through the API server unchanged, so no settled resource is woken in vain.
    const before = await passes();
    await moreSweeps(3, 'three more sweeps of every kind');
    expect(await passes()).toEqual(before);

    const name = async (kind: string, n: string) => (await plane.getObject(kind, n))!.metadata.annotations!['crossplane.io/external-name']!;
    const [subnetId, groupId, associationId] = await Promise.all([
      name('subnet', 'public-a'),
      name('securitygroup', 'web'),
      name('routetableassociation', 'public-a'),
    ]);
    await plane.ec2.send(new ModifySubnetAttributeCommand({ SubnetId: subnetId, MapPublicIpOnLaunch: { Value: false } }));
    await plane.ec2.send(new DeleteTagsCommand({ Resources: [groupId], Tags: [{ Key: 'crossplane-name' }] }));
    await plane.ec2.send(new DisassociateRouteTableCommand({ AssociationId: associationId }));
    await eventually(
      async () => {
        const [subnet, group, association] = await Promise.all([
          plane.ec2.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] })),
          plane.ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] })),
          name('routetableassociation', 'public-a'),
        ]);
        return (
          subnet.Subnets?.[0]?.MapPublicIpOnLaunch === true &&
          group.SecurityGroups?.[0]?.Tags?.some((t) => t.Key === 'crossplane-name' && t.Value === 'web') &&
          association !== associationId
        );
      },
      'the subnet, the group and the association to be corrected',
      60_000,
    );
    await plane.ready('routetableassociation', 'public-a');

    await plane.kubectl(['delete', '--wait=false', ...applied.map((m) => `${m.kind.toLowerCase()}/${m.metadata.name}`)]);
    await eventually(async () => (await managedObjects(plane)).every((o) => o.endsWith('/swept')), 'the network to be gone', 120_000);
  });
});

describe('the safety net', () => {
  let plane: ControlPlane;
  beforeAll(async () => {
    // A short safety net, to see it find what the sweep cannot read.
    plane = await ControlPlane.start('safety-net', { CHRONOPLANE_POLL_SAFETY_NET_SECONDS: '5' });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it('finds DNS attribute drift, which no sweep reads, at the settled VPC’s own next pass', async () => {
    await plane.apply({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'VPC',
      metadata: { name: 'dns' },
      spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.121.0.0/16', enableDnsHostnames: true } },
    });
    const vpcId = (await plane.ready('vpc', 'dns')).metadata.annotations!['crossplane.io/external-name']!;
    await plane.ec2.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsHostnames: { Value: false } }));
    const hostnames = async () =>
      (await plane.ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' }))).EnableDnsHostnames?.Value;
    await eventually(async () => (await hostnames()) === true, 'enableDnsHostnames to be restored', 60_000);
  });
});
