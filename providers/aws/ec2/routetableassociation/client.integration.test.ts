// Drives the real RouteTableAssociationExternalClient against the real moto server, without
// Kubernetes: the four verbs, idempotency by content (EC2 cannot tag associations), changes
// made outside Chronoplane and late initialization; and asks the real API server whether the
// CRD's rules admit what they should.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CreateInternetGatewayCommand,
  CreateRouteTableCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeRouteTablesCommand,
  EC2Client,
  ReplaceRouteTableAssociationCommand,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { runKubectl } from '#test/integration/kubectl';
import { Ec2Api } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { RouteTableAssociationExternalClient } from './client';
import type { RouteTableAssociationObservation, RouteTableAssociationParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new RouteTableAssociationExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type AssociationResource = ManagedResource<RouteTableAssociationParameters, RouteTableAssociationObservation>;
const associationResource = (
  forProvider: Omit<RouteTableAssociationParameters, 'region'>,
  uid: string = randomUUID(),
): AssociationResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'RouteTableAssociation',
  metadata: { name: `rtbassoc-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: AssociationResource, externalName: string): AssociationResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const associationsOfSubnet = async (subnetId: string) => {
  const tables = (await sdk.send(new DescribeRouteTablesCommand({ Filters: [{ Name: 'association.subnet-id', Values: [subnetId] }] })))
    .RouteTables!;
  return tables.flatMap((t) => t.Associations ?? []).filter((a) => a.SubnetId === subnetId);
};
const newTable = async () => (await sdk.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
const newSubnet = async (cidr: string) => (await sdk.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr }))).Subnet!.SubnetId!;

let vpcId: string;
let routeTableId: string;
let otherTableId: string;
let subnetId: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.71.0.0/16' }))).Vpc!.VpcId!;
  [routeTableId, otherTableId] = [await newTable(), await newTable()];
  subnetId = await newSubnet('10.71.1.0/24');
});

describe('RouteTableAssociation client against moto', () => {
  let mr: AssociationResource;
  let associationId: string;

  it('reports no association before one is recorded', async () => {
    expect(await client.observe(associationResource({ routeTableId, subnetId }))).toEqual({
      resourceExists: false,
      resourceUpToDate: false,
    });
  });

  it('associates the table with a subnet, then observes it Available and up to date', async () => {
    mr = associationResource({ routeTableId, subnetId });
    const created = await client.create(mr);
    associationId = created.externalName;
    expect(associationId).toMatch(/^rtbassoc-/);
    expect(created.summary).toBe(`associated route table ${routeTableId} with subnetId ${subnetId} (${associationId}) in us-east-1`);
    mr = named(mr, associationId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      diff: undefined,
      lateInitialized: undefined,
    });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toEqual({
      routeTableAssociationId: associationId,
      routeTableId,
      subnetId,
      main: false,
      associationState: { state: 'associated' },
    });
  });

  it('adopts the association when create is retried, and never makes a second', async () => {
    const again = await client.create(associationResource({ routeTableId, subnetId }, mr.metadata.uid));
    expect(again).toEqual({
      externalName: associationId,
      summary: `found association ${associationId} of route table ${routeTableId} with subnetId ${subnetId}`,
    });
    expect(await associationsOfSubnet(subnetId)).toHaveLength(1);
  });

  it('refuses a subnet that another table already has, naming that table', async () => {
    await expect(client.create(associationResource({ routeTableId: otherTableId, subnetId }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: `subnetId ${subnetId} is already associated with route table ${routeTableId} (association ${associationId}), not ${otherTableId}: a subnet has one route table; remove that association first`,
    });
    expect(await associationsOfSubnet(subnetId)).toHaveLength(1);
  });

  it('late-initializes the table and the subnet of an association imported by its id', async () => {
    const imported = named(associationResource({}), associationId);
    expect(await client.observe(imported)).toMatchObject({ resourceUpToDate: true, lateInitialized: { routeTableId, subnetId } });
  });

  it('reports an association whose spec names another table, and update says only a new one can fix it', async () => {
    const wrong = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, routeTableId: otherTableId } } };
    expect(await client.observe(wrong)).toMatchObject({
      resourceUpToDate: false,
      diff: `routeTableId: want ${otherTableId}, have ${routeTableId}`,
    });
    await expect(client.update(wrong)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining('make a new RouteTableAssociation'),
    });
  });

  it('sees an association replaced outside Chronoplane as gone, and then names the table that took the subnet', async () => {
    const moved = await newSubnet('10.71.2.0/24');
    const movedMr = associationResource({ routeTableId, subnetId: moved });
    const { externalName } = await client.create(movedMr);
    await sdk.send(new ReplaceRouteTableAssociationCommand({ AssociationId: externalName, RouteTableId: otherTableId }));
    expect(await client.observe(named(movedMr, externalName))).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [named(movedMr, externalName)]);
    await expect(client.create(movedMr)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining(`is already associated with route table ${otherTableId}`),
    });
  });

  it('associates a gateway (an edge association), idempotently', async () => {
    const igw = (await sdk.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
    const edge = associationResource({ routeTableId: otherTableId, gatewayId: igw });
    const { externalName } = await client.create(edge);
    expect(await client.create(edge)).toMatchObject({ externalName, summary: expect.stringMatching(/^found association/) });
    expect(await client.observe(named(edge, externalName))).toMatchObject({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { routeTableAssociationId: externalName, routeTableId: otherTableId, gatewayId: igw },
    });
    expect(await client.delete(named(edge, externalName))).toBe(`disassociated ${externalName}`);
  });

  it('says what is missing when no reference filled it in', async () => {
    await expect(client.create(associationResource({ subnetId }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'routeTableId is required: set routeTableId, routeTableIdRef or routeTableIdSelector',
    });
    await expect(client.create(associationResource({ routeTableId }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'subnetId is required: set subnetId, subnetIdRef or subnetIdSelector, or gatewayId',
    });
  });

  it('disassociates; a second delete is a success', async () => {
    expect(await client.delete(mr)).toBe(`disassociated ${associationId}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await associationsOfSubnet(subnetId)).toHaveLength(0);
    expect(await client.delete(mr)).toBe(`association ${associationId} was already gone`);
    expect(await client.delete(associationResource({ routeTableId, subnetId }))).toBe('no association was recorded; nothing to delete');
  });
});

describe('RouteTableAssociation admission rules on the real API server', () => {
  const dryRun = (forProvider: Record<string, unknown>) =>
    runKubectl(
      ['apply', '--dry-run=server', '-f', '-'],
      JSON.stringify({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'RouteTableAssociation',
        metadata: { name: `rtbassoc-${randomUUID().slice(0, 8)}`, namespace: 'default' },
        spec: { forProvider: { region: 'us-east-1', ...forProvider } },
      }),
    );

  it.each([
    { routeTableId: 'rtb-1', subnetId: 'subnet-1' },
    { routeTableIdRef: { name: 'rt' }, subnetIdSelector: { matchLabels: { a: 'b' } } },
    { routeTableId: 'rtb-1', gatewayId: 'igw-1' },
  ])('admits %j', async (forProvider) => {
    await expect(dryRun(forProvider)).resolves.toContain('created (server dry run)');
  });

  it.each([
    [{ routeTableId: 'rtb-1' }, 'set exactly one of subnetId'],
    [{ routeTableId: 'rtb-1', subnetIdRef: { name: 's' }, gatewayId: 'igw-1' }, 'set exactly one of subnetId'],
    [{ subnetId: 'subnet-1' }, 'one of routeTableId, routeTableIdRef or routeTableIdSelector is required'],
  ])('rejects %j', async (forProvider, message) => {
    await expect(dryRun(forProvider)).rejects.toThrow(message);
  });
});
