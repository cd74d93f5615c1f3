// Drives the real RouteTableExternalClient against the real moto server, without Kubernetes:
// the four verbs, the idempotency guarantee, drift and late initialization.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AssociateRouteTableCommand,
  CreateSubnetCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DescribeRouteTablesCommand,
  DisassociateRouteTableCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { RouteTableExternalClient } from './client';
import type { RouteTableObservation, RouteTableParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new RouteTableExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type RouteTableResource = ManagedResource<RouteTableParameters, RouteTableObservation>;
const routeTableResource = (forProvider: Omit<RouteTableParameters, 'region'>, uid: string = randomUUID()): RouteTableResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'RouteTable',
  metadata: { name: `rtb-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: RouteTableResource, externalName: string): RouteTableResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const tablesWithUid = async (uid: string) =>
  (await sdk.send(new DescribeRouteTablesCommand({ Filters: uidFilter(uid) }))).RouteTables ?? [];

let vpcId: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.51.0.0/16' }))).Vpc!.VpcId!;
});

describe('RouteTable client against moto', () => {
  let mr: RouteTableResource;
  let routeTableId: string;

  it('reports no route table before one is recorded', async () => {
    expect(await client.observe(routeTableResource({ vpcId }))).toEqual({ resourceExists: false, resourceUpToDate: false });
  });

  it('creates a tagged route table, then observes it Available and up to date with its local route', async () => {
    mr = routeTableResource({ vpcId, tags: { team: 'net' } });
    const created = await client.create(mr);
    routeTableId = created.externalName;
    expect(routeTableId).toMatch(/^rtb-/);
    expect(created.summary).toBe(`created route table ${routeTableId} in VPC ${vpcId} in us-east-1`);
    mr = named(mr, routeTableId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({
      routeTableId,
      vpcId,
      routes: [{ destinationCidrBlock: '10.51.0.0/16', gatewayId: 'local', state: 'active', origin: 'CreateRouteTable' }],
    });
    expect(observed.atProvider!.ownerId).toMatch(/^\d{12}$/);

    const [table] = await tablesWithUid(mr.metadata.uid);
    expect(Object.fromEntries(table!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'routetable.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      'chronoplane.io/uid': mr.metadata.uid,
    });
  });

  it('adopts the first route table when create is retried for the same object', async () => {
    const again = await client.create(routeTableResource({ vpcId, tags: { team: 'net' } }, mr.metadata.uid));
    expect(again).toEqual({ externalName: routeTableId, summary: `found route table ${routeTableId} made by an earlier attempt` });
    expect(await tablesWithUid(mr.metadata.uid)).toHaveLength(1);
  });

  it('shows associations made by others in atProvider', async () => {
    const subnetId = (await sdk.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.51.1.0/24' }))).Subnet!.SubnetId!;
    const { AssociationId } = await sdk.send(new AssociateRouteTableCommand({ RouteTableId: routeTableId, SubnetId: subnetId }));
    const observed = await client.observe(mr);
    expect(observed.atProvider!.associations).toEqual([
      { routeTableAssociationId: AssociationId, subnetId, main: false, associationState: 'associated' },
    ]);
    await sdk.send(new DisassociateRouteTableCommand({ AssociationId }));
  });

  it('late-initializes vpcId for a route table imported by its id', async () => {
    const imported = named(routeTableResource({}, mr.metadata.uid), routeTableId);
    expect((await client.observe(imported)).lateInitialized).toEqual({ vpcId });
    expect((await client.observe(mr)).lateInitialized).toBeUndefined();
  });

  it('reports tags changed outside Chronoplane, and update puts them back', async () => {
    await sdk.send(
      new CreateTagsCommand({
        Resources: [routeTableId],
        Tags: [
          { Key: 'team', Value: 'rogue' },
          { Key: 'extra', Value: '1' },
        ],
      }),
    );
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted.resourceUpToDate).toBe(false);
    expect(drifted.diff).toBe('tag team: want "net"; tag extra: not in spec');

    expect(await client.update(mr)).toBe(`updated route table ${routeTableId}: set tags team; removed tags extra`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('refuses to move a route table to another VPC, which only a new table can do', async () => {
    const otherVpc = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.52.0.0/16' }))).Vpc!.VpcId!;
    const moved = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, vpcId: otherVpc } } };
    expect((await client.observe(moved)).diff).toBe(`vpcId: want ${otherVpc}, have ${vpcId}`);
    await expect(client.update(moved)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining('set at creation only'),
    });
  });

  it('says vpcId is required when no reference filled it in', async () => {
    await expect(client.create(routeTableResource({}))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'vpcId is required: set vpcId, vpcIdRef or vpcIdSelector',
    });
  });

  it('reports a VPC that does not exist as invalid input, in EC2’s words', async () => {
    await expect(client.create(routeTableResource({ vpcId: 'vpc-0000000000000dead' }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(/^cannot create route table in VPC vpc-0000000000000dead: InvalidVpcID.NotFound/),
    });
  });

  it('deletes the route table; a second delete is a success', async () => {
    expect(await client.delete(mr)).toEqual({ summary: `deleted route table ${routeTableId}`, gone: true });
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toEqual({ summary: `route table ${routeTableId} was already gone`, gone: true });
    expect(await client.delete(routeTableResource({ vpcId }))).toEqual({
      summary: 'no route table was recorded; nothing to delete',
      gone: true,
    });
  });
});
