// Drives the real InternetGatewayExternalClient against the real moto server, without
// Kubernetes: the four verbs, the idempotency guarantee, the attachment as a mutable field,
// drift, and detach-before-delete.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteVpcCommand,
  DescribeInternetGatewaysCommand,
  DetachInternetGatewayCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { InternetGatewayExternalClient } from './client';
import type { InternetGatewayObservation, InternetGatewayParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new InternetGatewayExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type GatewayResource = ManagedResource<InternetGatewayParameters, InternetGatewayObservation>;
const gatewayResource = (forProvider: Omit<InternetGatewayParameters, 'region'>, uid = randomUUID()): GatewayResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'InternetGateway',
  metadata: { name: `igw-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: GatewayResource, externalName: string): GatewayResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const withSpec = (mr: GatewayResource, change: Partial<InternetGatewayParameters>): GatewayResource => ({
  ...mr,
  spec: { forProvider: { ...mr.spec.forProvider, ...change } },
});
const gatewaysWithUid = async (uid: string) =>
  (await sdk.send(new DescribeInternetGatewaysCommand({ Filters: uidFilter(uid) }))).InternetGateways ?? [];
const attachmentsOf = async (igwId: string) =>
  (await sdk.send(new DescribeInternetGatewaysCommand({ InternetGatewayIds: [igwId] }))).InternetGateways![0]!.Attachments;
const newVpc = async (cidr: string) => (await sdk.send(new CreateVpcCommand({ CidrBlock: cidr }))).Vpc!.VpcId!;

let vpcA: string;
let vpcB: string;
beforeAll(async () => {
  vpcA = await newVpc('10.51.0.0/16');
  vpcB = await newVpc('10.52.0.0/16');
});

describe('InternetGateway client against moto', () => {
  let mr: GatewayResource;
  let igwId: string;

  it('creates a tagged gateway attached to its VPC, then observes it Available and up to date', async () => {
    mr = gatewayResource({ vpcId: vpcA, tags: { team: 'net' } });
    const created = await client.create(mr);
    igwId = created.externalName;
    expect(igwId).toMatch(/^igw-/);
    expect(created.summary).toBe(`created internet gateway ${igwId} in us-east-1; attached to VPC ${vpcA}`);
    mr = named(mr, igwId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({ internetGatewayId: igwId, attachments: [{ vpcId: vpcA, state: 'available' }] });
    expect(observed.atProvider!.ownerId).toMatch(/^\d{12}$/);
    expect(observed.lateInitialized).toBeUndefined();

    const [igw] = await gatewaysWithUid(mr.metadata.uid);
    expect(Object.fromEntries(igw!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'internetgateway.ec2.aws.chronoplane.io',
      'chronoplane.io/uid': mr.metadata.uid,
    });
  });

  it('adopts the gateway of an earlier attempt instead of making a second one', async () => {
    const again = await client.create({ ...mr, metadata: { ...mr.metadata, annotations: {} } });
    expect(again).toEqual({ externalName: igwId, summary: `found internet gateway ${igwId} made by an earlier attempt` });
    expect((await gatewaysWithUid(mr.metadata.uid)).map((g) => g.InternetGatewayId)).toEqual([igwId]);
    expect(await attachmentsOf(igwId)).toEqual([{ VpcId: vpcA, State: 'available' }]);
  });

  it('finishes an earlier attempt that was interrupted before attaching', async () => {
    const detached = gatewayResource({});
    const first = await client.create(detached);
    const finished = await client.create(withSpec(detached, { vpcId: vpcB }));
    expect(finished).toEqual({
      externalName: first.externalName,
      summary: `found internet gateway ${first.externalName} made by an earlier attempt; attached to VPC ${vpcB}`,
    });
    expect(await attachmentsOf(first.externalName)).toEqual([{ VpcId: vpcB, State: 'available' }]);
    expect(await client.delete(named(detached, first.externalName))).toBe(
      `deleted internet gateway ${first.externalName}; detached from VPC ${vpcB}`,
    );
  });

  it('keeps a gateway without vpcId detached, and Ready', async () => {
    const loose = gatewayResource({});
    const created = await client.create(loose);
    expect(created.summary).toBe(`created internet gateway ${created.externalName} in us-east-1`);
    expect(await client.observe(named(loose, created.externalName))).toMatchObject({
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { attachments: [] },
    });
    await client.delete(named(loose, created.externalName));
  });

  it('reports an out-of-band detach and tag, and update repairs both', async () => {
    await sdk.send(new DetachInternetGatewayCommand({ InternetGatewayId: igwId, VpcId: vpcA }));
    await sdk.send(new CreateTagsCommand({ Resources: [igwId], Tags: [{ Key: 'rogue', Value: '1' }] }));
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted).toMatchObject({ resourceUpToDate: false, readiness: 'Unavailable' });
    expect(drifted.diff).toBe(`vpcId: want ${vpcA}, attached to nothing; tag rogue: not in spec`);

    expect(await client.update(mr)).toBe(`updated internet gateway ${igwId}: attached to VPC ${vpcA}; removed tags rogue`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, readiness: 'Available' });
  });

  it('moves the gateway when vpcId changes: detach from the old VPC, attach to the new', async () => {
    mr = withSpec(mr, { vpcId: vpcB });
    expect((await client.observe(mr)).diff).toBe(`vpcId: want ${vpcB}, attached to ${vpcA}`);
    expect(await client.update(mr)).toBe(`updated internet gateway ${igwId}: detached from VPC ${vpcA}; attached to VPC ${vpcB}`);
    expect(await attachmentsOf(igwId)).toEqual([{ VpcId: vpcB, State: 'available' }]);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, readiness: 'Available' });
  });

  it('detaches when vpcId is unset', async () => {
    mr = withSpec(mr, { vpcId: undefined });
    expect((await client.observe(mr)).diff).toBe(`vpcId: want detached, attached to ${vpcB}`);
    expect(await client.update(mr)).toBe(`updated internet gateway ${igwId}: detached from VPC ${vpcB}`);
    expect(await attachmentsOf(igwId)).toEqual([]);
    expect(await client.update(mr)).toBe(`updated internet gateway ${igwId}: already up to date`);
  });

  it('detaches before deleting, so the VPC can go; deleting again is a success', async () => {
    mr = withSpec(mr, { vpcId: vpcA });
    await client.update(mr);
    // moto refuses DeleteInternetGateway while attached (as EC2 does), so this proves the detach;
    // its DeleteVpc, unlike EC2's, would not refuse an attached gateway.
    expect(await client.delete(mr)).toBe(`deleted internet gateway ${igwId}; detached from VPC ${vpcA}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`internet gateway ${igwId} was already gone`);
    await sdk.send(new DeleteVpcCommand({ VpcId: vpcA }));
  });

  it('records a new gateway whose VPC does not exist, reports EC2\u2019s words at the update, and deleting it leaves nothing', async () => {
    const missingVpc = 'vpc-0000000000000dead';
    const orphan = gatewayResource({ vpcId: missingVpc });
    // The gateway exists once CreateInternetGateway answers: the create returns it, so that it is
    // recorded and deleted with its object, and leaves the failed attach to the update.
    const created = await client.create(orphan);
    const igwId = created.externalName;
    expect(igwId).toMatch(/^igw-/);
    expect(created.summary).toMatch(
      new RegExp(
        `^created internet gateway ${igwId} in us-east-1; left for an update: cannot attach internet gateway ${igwId} to VPC ${missingVpc}: InvalidVpcID.NotFound`,
      ),
    );
    const recorded = named(orphan, igwId);
    expect(await client.observe(recorded)).toMatchObject({
      resourceExists: true,
      resourceUpToDate: false,
      readiness: 'Unavailable',
      diff: `vpcId: want ${missingVpc}, attached to nothing`,
    });
    await expect(client.update(recorded)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining(`cannot attach internet gateway ${igwId} to VPC ${missingVpc}: InvalidVpcID.NotFound`),
    });
    expect(await client.delete(recorded)).toBe(`deleted internet gateway ${igwId}`);
    expect(await gatewaysWithUid(orphan.metadata.uid)).toEqual([]);
  });
});
