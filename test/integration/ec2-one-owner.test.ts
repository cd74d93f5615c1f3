// EC2 resources through the whole engine, where a create is more than one call or the resource
// carries no tags to name its owner (issue 21): an internet gateway whose attach fails is
// recorded and deleted with its object, not leaked; and of two Route (or RouteTableAssociation)
// objects that name the same route (association), the second is refused, naming the first,
// and deleting it leaves the first one's resource alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateRouteTableCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeInternetGatewaysCommand,
  DescribeRouteTablesCommand,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import { ControlPlane, condition, eventually } from './harness';
import { ownProviderConfigRef, useOwnProviderConfig } from './network';

let plane: ControlPlane;
let providerConfig: string;
beforeAll(async () => {
  plane = await ControlPlane.start('one-owner');
  providerConfig = await useOwnProviderConfig(plane);
});
afterAll(async () => {
  await plane?.stop();
});

const region = 'us-east-1';
const managed = (kind: string, name: string, forProvider: object, annotations?: Record<string, string>) => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind,
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { forProvider: { region, ...forProvider }, providerConfigRef: ownProviderConfigRef(providerConfig) },
});
const gone = (kind: string, name: string) =>
  eventually(async () => (await plane.getObject(kind, name)) === undefined, `${kind} ${name} to be deleted`);
const synced = (kind: string, name: string) =>
  eventually(async () => {
    const c = condition(await plane.getObject(kind, name), 'Synced');
    return c?.status === 'False' && c;
  }, `${kind} ${name} to be Synced=False`);

/** A VPC with a route table and a subnet, made at EC2 directly: raw ids the objects below name. */
async function network(cidr: string) {
  const vpcId = (await plane.ec2.send(new CreateVpcCommand({ CidrBlock: cidr }))).Vpc!.VpcId!;
  const routeTableId = (await plane.ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
  const subnetId = (await plane.ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr.replace('.0.0/16', '.1.0/24') }))).Subnet!
    .SubnetId!;
  const igwId = (await plane.ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
  await plane.ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igwId, VpcId: vpcId }));
  return { vpcId, routeTableId, subnetId, igwId };
}
const routesOf = async (routeTableId: string) =>
  ((await plane.ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }))).RouteTables?.[0]?.Routes ?? []).filter(
    (r) => r.Origin !== 'CreateRouteTable',
  );
const associationsOf = async (routeTableId: string) =>
  ((await plane.ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }))).RouteTables?.[0]?.Associations ?? []).filter(
    (a) => !a.Main,
  );

describe('an internet gateway whose VPC does not exist', () => {
  it('shows EC2\u2019s error, and deleting the object leaves no gateway at EC2', async () => {
    const missingVpc = 'vpc-0000000000000beef';
    await plane.apply(managed('InternetGateway', 'nowhere', { vpcId: missingVpc }));
    const error = await synced('internetgateway', 'nowhere');
    expect(error.message).toContain(`to VPC ${missingVpc}: InvalidVpcID.NotFound`);
    const object = (await plane.getObject('internetgateway', 'nowhere'))!;
    expect(condition(object, 'Ready')?.status).toBe('False');
    const igwId = object.metadata.annotations?.[EXTERNAL_NAME];
    expect(igwId).toMatch(/^igw-/);

    await plane.kubectl(['delete', 'internetgateway', 'nowhere', '--wait=false']);
    await gone('internetgateway', 'nowhere');
    const left = await plane.ec2.send(
      new DescribeInternetGatewaysCommand({ Filters: [{ Name: 'tag:chronoplane.io/uid', Values: [object.metadata.uid] }] }),
    );
    expect(left.InternetGateways ?? []).toEqual([]);
  });
});

describe('two objects, one untagged external resource', () => {
  it('refuses a second Route to the same table and destination, naming the first; deleting it keeps the first one\u2019s route', async () => {
    const { routeTableId, igwId } = await network('10.160.0.0/16');
    const route = { routeTableId, destinationCidrBlock: '0.0.0.0/0', gatewayId: igwId };
    await plane.apply(managed('Route', 'first', route));
    const first = await plane.ready('route', 'first');
    const externalName = `${routeTableId}_0.0.0.0/0`;
    expect(first.metadata.annotations?.[EXTERNAL_NAME]).toBe(externalName);

    await plane.apply(managed('Route', 'second', route));
    const refused = await synced('route', 'second');
    expect(refused.message).toContain(`managed by Route ${plane.namespace}/first (uid ${first.metadata.uid}): it is not adopted`);
    const second = (await plane.getObject('route', 'second'))!;
    expect(condition(second, 'Ready')?.status).toBe('False');
    expect(second.metadata.annotations?.[EXTERNAL_NAME]).toBeUndefined();

    // The same name set by hand on a third is refused too, by the engine's ownership check.
    await plane.apply(managed('Route', 'third', route, { [EXTERNAL_NAME]: externalName }));
    const third = await synced('route', 'third');
    expect(third.message).toBe(
      `Route ${externalName} belongs to Route ${plane.namespace}/first (uid ${first.metadata.uid}): it is not adopted`,
    );

    await plane.kubectl(['delete', 'route', 'second', 'third', '--wait=false']);
    await Promise.all([gone('route', 'second'), gone('route', 'third')]);
    expect((await routesOf(routeTableId)).map((r) => [r.DestinationCidrBlock, r.GatewayId])).toEqual([['0.0.0.0/0', igwId]]);
    await plane.ready('route', 'first');

    await plane.kubectl(['delete', 'route', 'first', '--wait=false']);
    await gone('route', 'first');
    expect(await routesOf(routeTableId)).toEqual([]);
  });

  it('refuses a second RouteTableAssociation of the same table and subnet, naming the first', async () => {
    const { routeTableId, subnetId } = await network('10.161.0.0/16');
    const association = { routeTableId, subnetId };
    await plane.apply(managed('RouteTableAssociation', 'first', association));
    const first = await plane.ready('routetableassociation', 'first');
    const associationId = first.metadata.annotations?.[EXTERNAL_NAME];

    await plane.apply(managed('RouteTableAssociation', 'second', association));
    const refused = await synced('routetableassociation', 'second');
    expect(refused.message).toContain(
      `managed by RouteTableAssociation ${plane.namespace}/first (uid ${first.metadata.uid}): it is not adopted`,
    );

    await plane.kubectl(['delete', 'routetableassociation', 'second', '--wait=false']);
    await gone('routetableassociation', 'second');
    expect((await associationsOf(routeTableId)).map((a) => [a.RouteTableAssociationId, a.SubnetId])).toEqual([[associationId, subnetId]]);
    await plane.ready('routetableassociation', 'first');

    await plane.kubectl(['delete', 'routetableassociation', 'first', '--wait=false']);
    await gone('routetableassociation', 'first');
    expect(await associationsOf(routeTableId)).toEqual([]);
  });
});
