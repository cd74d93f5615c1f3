// Drives the real RouteExternalClient against the real moto server, without Kubernetes: the
// four verbs, idempotency by content (EC2 cannot tag routes), drift and late initialization;
// and asks the real API server whether the CRD's rules admit what they should.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AllocateAddressCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateNatGatewayCommand,
  CreateRouteTableCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DeleteRouteTableCommand,
  DescribeRouteTablesCommand,
  EC2Client,
  ReplaceRouteCommand,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { runKubectl } from '#test/integration/kubectl';
import { Ec2Api } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { RouteExternalClient } from './client';
import type { RouteObservation, RouteParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new RouteExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type RouteResource = ManagedResource<RouteParameters, RouteObservation>;
const routeResource = (forProvider: Omit<RouteParameters, 'region'>, uid: string = randomUUID()): RouteResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'Route',
  metadata: { name: `route-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: RouteResource, externalName: string): RouteResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const withSpec = (mr: RouteResource, forProvider: Omit<RouteParameters, 'region'>): RouteResource => ({
  ...mr,
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const routesTo = async (routeTableId: string, destination: string) => {
  const [table] = (await sdk.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }))).RouteTables!;
  return table!.Routes!.filter((r) => r.DestinationCidrBlock === destination);
};
const newTable = async (vpcId: string) => (await sdk.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
const newGateway = async () => (await sdk.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;

let vpcId: string;
let routeTableId: string;
let igw1: string;
let igw2: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.61.0.0/16' }))).Vpc!.VpcId!;
  routeTableId = await newTable(vpcId);
  [igw1, igw2] = [await newGateway(), await newGateway()];
  await sdk.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw1, VpcId: vpcId }));
});

describe('Route client against moto', () => {
  let mr: RouteResource;
  let externalName: string;

  it('reports no route before one is recorded', async () => {
    expect(await client.observe(routeResource({ routeTableId, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw1 }))).toEqual({
      resourceExists: false,
      resourceUpToDate: false,
    });
  });

  it('creates the route, named by its table and destination, then observes it Available and up to date', async () => {
    mr = routeResource({ routeTableId, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw1 });
    const created = await client.create(mr);
    externalName = created.externalName;
    expect(externalName).toBe(`${routeTableId}_0.0.0.0/0`);
    expect(created.summary).toBe(`created route 0.0.0.0/0 to gatewayId ${igw1} in route table ${routeTableId} in us-east-1`);
    mr = named(mr, externalName);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({
      routeTableId,
      destinationCidrBlock: '0.0.0.0/0',
      gatewayId: igw1,
      state: 'active',
      origin: 'CreateRoute',
    });
  });

  it('adopts the route when create is retried, and never makes a second', async () => {
    const again = await client.create(routeResource({ routeTableId, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw1 }, mr.metadata.uid));
    expect(again).toEqual({ externalName, summary: `found route 0.0.0.0/0 to gatewayId ${igw1} already in route table ${routeTableId}` });
    expect(await routesTo(routeTableId, '0.0.0.0/0')).toHaveLength(1);
  });

  it('adopts a route that appeared between its look and CreateRoute (RouteAlreadyExists)', async () => {
    // A client whose first look at the table misses the route, as when two attempts race.
    const racing = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
    let looks = 0;
    const send = racing.send.bind(racing) as (command: unknown) => Promise<{ RouteTables?: { Routes?: unknown[] }[] }>;
    (racing as unknown as { send: typeof send }).send = async (command) => {
      const answer = await send(command);
      if (command instanceof DescribeRouteTablesCommand && looks++ === 0) answer.RouteTables?.forEach((t) => (t.Routes = []));
      return answer;
    };
    const raced = await new RouteExternalClient(new Ec2Api(racing, { region: 'us-east-1', endpoint })).create(
      routeResource({ routeTableId, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw1 }, mr.metadata.uid),
    );
    expect(raced).toEqual({ externalName, summary: `found route 0.0.0.0/0 to gatewayId ${igw1} already in route table ${routeTableId}` });
    expect(looks).toBe(2);
    expect(await routesTo(routeTableId, '0.0.0.0/0')).toHaveLength(1);
  });

  it('never takes over a route to another target', async () => {
    await expect(
      client.create(routeResource({ routeTableId, destinationCidrBlock: '0.0.0.0/0', natGatewayId: 'nat-0123456789abcdef0' })),
    ).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining(
        `route table ${routeTableId} already has a route for 0.0.0.0/0 to gatewayId ${igw1}, not to natGatewayId`,
      ),
    });
  });

  it('late-initializes routeTableId for a route imported by its external name', async () => {
    const imported = named(routeResource({ destinationCidrBlock: '0.0.0.0/0', gatewayId: igw1 }), externalName);
    expect((await client.observe(imported)).lateInitialized).toEqual({ routeTableId });
    expect((await client.observe(mr)).lateInitialized).toBeUndefined();
  });

  it('reports a route repointed outside Chronoplane, and update points it back', async () => {
    await sdk.send(new ReplaceRouteCommand({ RouteTableId: routeTableId, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw2 }));
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted).toMatchObject({
      resourceExists: true,
      resourceUpToDate: false,
      diff: `target: want gatewayId ${igw1}, have gatewayId ${igw2}`,
    });

    expect(await client.update(mr)).toBe(`pointed route 0.0.0.0/0 in route table ${routeTableId} at gatewayId ${igw1}`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
    expect((await routesTo(routeTableId, '0.0.0.0/0'))[0]!.GatewayId).toBe(igw1);
  });

  it('follows a spec that changes the target', async () => {
    const repointed = withSpec(mr, { routeTableId, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw2 });
    expect((await client.observe(repointed)).diff).toBe(`target: want gatewayId ${igw2}, have gatewayId ${igw1}`);
    await client.update(repointed);
    expect(await client.observe(repointed)).toMatchObject({ resourceUpToDate: true });
    await client.update(mr);
  });

  it('reports a target EC2 does not know as invalid input, in EC2’s words', async () => {
    await expect(
      client.create(routeResource({ routeTableId, destinationCidrBlock: '10.99.0.0/16', gatewayId: 'igw-0000000000000dead' })),
    ).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(
        new RegExp(`^cannot create route 10.99.0.0/16 in route table ${routeTableId}: InvalidInternetGatewayID.NotFound`),
      ),
    });
  });

  it('says what is missing when no reference filled it in, and rejects a malformed external name', async () => {
    await expect(client.create(routeResource({ destinationCidrBlock: '0.0.0.0/0', gatewayId: igw1 }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'routeTableId is required: set routeTableId, routeTableIdRef or routeTableIdSelector',
    });
    await expect(client.create(routeResource({ routeTableId, destinationCidrBlock: '0.0.0.0/0' }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
    });
    await expect(client.observe(named(mr, routeTableId))).rejects.toMatchObject({ failureClass: 'InvalidInput' });
  });

  it('routes to a NAT gateway by natGatewayId', async () => {
    const subnetId = (await sdk.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.61.1.0/24' }))).Subnet!.SubnetId!;
    const allocationId = (await sdk.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId!;
    const natGatewayId = (await sdk.send(new CreateNatGatewayCommand({ SubnetId: subnetId, AllocationId: allocationId }))).NatGateway!
      .NatGatewayId!;
    const viaNat = routeResource({ routeTableId, destinationCidrBlock: '10.90.0.0/16', natGatewayId });
    const created = await client.create(viaNat);
    expect(created).toEqual({
      externalName: `${routeTableId}_10.90.0.0/16`,
      summary: `created route 10.90.0.0/16 to natGatewayId ${natGatewayId} in route table ${routeTableId} in us-east-1`,
    });
    const recorded = named(viaNat, created.externalName);
    expect(await client.observe(recorded)).toMatchObject({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { natGatewayId, state: 'active' },
    });
    await expectSweepAgrees(client, [recorded]);
    expect((await client.create(viaNat)).summary).toBe(
      `found route 10.90.0.0/16 to natGatewayId ${natGatewayId} already in route table ${routeTableId}`,
    );
    expect(await client.delete(recorded)).toBe(`deleted route 10.90.0.0/16 from route table ${routeTableId}`);
  });

  it('deletes the route; a second delete, or one after the table is gone, is a success', async () => {
    expect(await client.delete(mr)).toBe(`deleted route 0.0.0.0/0 from route table ${routeTableId}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`route 0.0.0.0/0 in route table ${routeTableId} was already gone`);

    const doomedTable = await newTable(vpcId);
    const doomed = routeResource({ routeTableId: doomedTable, destinationCidrBlock: '10.70.0.0/16', gatewayId: igw1 });
    const { externalName: doomedName } = await client.create(doomed);
    await sdk.send(new DeleteRouteTableCommand({ RouteTableId: doomedTable }));
    expect(await client.observe(named(doomed, doomedName))).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [named(doomed, doomedName)]);
    expect(await client.delete(named(doomed, doomedName))).toBe(`route 10.70.0.0/16 in route table ${doomedTable} was already gone`);
  });
});

describe('Route admission rules on the real API server', () => {
  const manifest = (forProvider: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'Route',
      metadata: { name: `route-${randomUUID().slice(0, 8)}`, namespace: 'default' },
      spec: { forProvider: { region: 'us-east-1', destinationCidrBlock: '0.0.0.0/0', ...forProvider } },
    });
  const dryRun = (forProvider: Record<string, unknown>) => runKubectl(['apply', '--dry-run=server', '-f', '-'], manifest(forProvider));

  it('admits one target, counting gatewayIdRef as gatewayId', async () => {
    await expect(dryRun({ routeTableId: 'rtb-1', gatewayId: 'igw-1' })).resolves.toContain('created (server dry run)');
    await expect(dryRun({ routeTableIdRef: { name: 'rt' }, gatewayIdRef: { name: 'igw' } })).resolves.toContain('created (server dry run)');
    await expect(dryRun({ routeTableId: 'rtb-1', gatewayId: 'igw-1', gatewayIdRef: { name: 'igw' } })).resolves.toContain(
      'created (server dry run)',
    );
  });

  it('admits a NAT gateway target given by natGatewayIdRef or natGatewayIdSelector', async () => {
    await expect(dryRun({ routeTableIdRef: { name: 'rt' }, natGatewayIdRef: { name: 'nat' } })).resolves.toContain(
      'created (server dry run)',
    );
    await expect(dryRun({ routeTableId: 'rtb-1', natGatewayIdSelector: { matchLabels: { tier: 'nat' } } })).resolves.toContain(
      'created (server dry run)',
    );
  });

  it.each([
    [{ routeTableId: 'rtb-1' }, 'set exactly one target'],
    [{ routeTableId: 'rtb-1', gatewayIdRef: { name: 'igw' }, natGatewayId: 'nat-1' }, 'set exactly one target'],
    [{ routeTableId: 'rtb-1', gatewayId: 'igw-1', natGatewayIdRef: { name: 'nat' } }, 'set exactly one target'],
    [{ gatewayId: 'igw-1' }, 'one of routeTableId, routeTableIdRef or routeTableIdSelector is required'],
    [
      { routeTableId: 'rtb-1', gatewayId: 'igw-1', destinationCidrBlock: '10.0.0.1/16' },
      'destinationCidrBlock must be an IPv4 network in canonical CIDR notation (host bits zero)',
    ],
    [{ routeTableId: 'rtb-1', gatewayId: 'igw-1', destinationCidrBlock: '::/0' }, 'must be an IPv4 network'],
  ])('rejects %j', async (forProvider, message) => {
    await expect(dryRun(forProvider)).rejects.toThrow(message);
  });
});
