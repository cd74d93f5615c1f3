// Drives the real NatGatewayExternalClient against the real moto server, without Kubernetes:
// the four verbs, idempotent create (uid tag and client token), drift, readiness through a
// gateway's life and its deletion; and asks the real API server whether the CRD's rules admit
// what they should. moto 5.2 makes a gateway available at once and deletes it at once, so the
// states in between are shown to the client by rewriting DescribeNatGateways answers.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AllocateAddressCommand,
  CreateNatGatewayCommand,
  CreateSubnetCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteNatGatewayCommand,
  DescribeAddressesCommand,
  DescribeNatGatewaysCommand,
  EC2Client,
  type CreateNatGatewayCommandInput,
  type NatGateway,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { runKubectl } from '#test/integration/kubectl';
import { carriesUid } from '../../tags';
import { Ec2Api } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { NatGatewayExternalClient } from './client';
import type { NatGatewayObservation, NatGatewayParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const newSdk = () => new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const sdk = newSdk();
const client = new NatGatewayExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

/**
 * A client whose SDK records every command it sends, and whose DescribeNatGateways answers
 * show the gateways as `rewrite` says: the states moto skips.
 */
function instrumentedClient(rewrite: (gateway: NatGateway) => NatGateway = (g) => g) {
  const instrumented = newSdk();
  const sent: unknown[] = [];
  const send = instrumented.send.bind(instrumented) as (command: unknown) => Promise<{ NatGateways?: NatGateway[] }>;
  (instrumented as unknown as { send: typeof send }).send = async (command) => {
    sent.push(command);
    const answer = await send(command);
    if (command instanceof DescribeNatGatewaysCommand) answer.NatGateways = answer.NatGateways?.map(rewrite);
    return answer;
  };
  return { client: new NatGatewayExternalClient(new Ec2Api(instrumented, { region: 'us-east-1', endpoint })), sent };
}

type NatGatewayResource = ManagedResource<NatGatewayParameters, NatGatewayObservation>;
const natResource = (forProvider: Omit<NatGatewayParameters, 'region'>, uid = randomUUID()): NatGatewayResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'NATGateway',
  metadata: { name: `nat-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: NatGatewayResource, externalName: string): NatGatewayResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const unnamed = (mr: NatGatewayResource): NatGatewayResource => ({ ...mr, metadata: { ...mr.metadata, annotations: {} } });
/** moto ignores tag filters on DescribeNatGateways, so the uid tag is checked here. */
const gatewaysWithUid = async (uid: string) =>
  ((await sdk.send(new DescribeNatGatewaysCommand({}))).NatGateways ?? []).filter((g) => carriesUid(g.Tags, uid));
const newAddress = async () => (await sdk.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId!;
const createInputs = (sent: unknown[]): CreateNatGatewayCommandInput[] =>
  sent.filter((c) => c instanceof CreateNatGatewayCommand).map((c) => (c as CreateNatGatewayCommand).input);

let vpcId: string;
let subnetId: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.43.0.0/16' }))).Vpc!.VpcId!;
  subnetId = (await sdk.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.43.1.0/24' }))).Subnet!.SubnetId!;
});

describe('NATGateway client against moto', () => {
  let mr: NatGatewayResource;
  let natGatewayId: string;
  let allocationId: string;

  it('reports no gateway before one is recorded, or when the recorded one is unknown', async () => {
    const absent = { resourceExists: false, resourceUpToDate: false };
    expect(await client.observe(natResource({ subnetId, allocationId: 'eipalloc-1' }))).toEqual(absent);
    expect(await client.observe(named(natResource({ subnetId, allocationId: 'eipalloc-1' }), 'nat-0123456789abcdef0'))).toEqual(absent);
  });

  it('creates a tagged public gateway with the uid as client token, then observes it Available and up to date', async () => {
    allocationId = await newAddress();
    mr = natResource({ subnetId, allocationId, tags: { team: 'net' } });
    const { client: recording, sent } = instrumentedClient();
    const created = await recording.create(mr);
    natGatewayId = created.externalName;
    expect(natGatewayId).toMatch(/^nat-/);
    expect(created.summary).toBe(
      `created NAT gateway ${natGatewayId} in subnet ${subnetId} with address ${allocationId}, us-east-1; it is available`,
    );
    expect(createInputs(sent)).toEqual([
      expect.objectContaining({ ClientToken: mr.metadata.uid, SubnetId: subnetId, AllocationId: allocationId }),
    ]);
    mr = named(mr, natGatewayId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    expect(observed.readinessMessage).toBeUndefined();
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({ natGatewayId, state: 'available', subnetId, vpcId });
    expect(observed.atProvider!.natGatewayAddresses).toEqual([
      expect.objectContaining({ allocationId, publicIp: expect.any(String), networkInterfaceId: expect.stringMatching(/^eni-/) }),
    ]);

    const [gateway] = await gatewaysWithUid(mr.metadata.uid);
    expect(Object.fromEntries(gateway!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'natgateway.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      'chronoplane.io/uid': mr.metadata.uid,
    });
    // The address now shows what uses it.
    const [address] = (await sdk.send(new DescribeAddressesCommand({ AllocationIds: [allocationId] }))).Addresses!;
    expect(address!.AssociationId).toMatch(/^eipassoc-/);
  });

  it('adopts the gateway of an earlier attempt instead of making a second one, even among other gateways', async () => {
    // Someone else's gateway in the same subnet: moto lists it under our tag filter too.
    await sdk.send(new CreateNatGatewayCommand({ SubnetId: subnetId, AllocationId: await newAddress() }));
    const { client: recording, sent } = instrumentedClient();
    expect(await recording.create(unnamed(mr))).toEqual({
      externalName: natGatewayId,
      summary: `found NAT gateway ${natGatewayId} (available) made by an earlier attempt`,
    });
    expect(createInputs(sent)).toEqual([]);
    expect((await gatewaysWithUid(mr.metadata.uid)).map((g) => g.NatGatewayId)).toEqual([natGatewayId]);
  });

  it('reports tags changed outside Chronoplane with a readable diff, and update repairs them', async () => {
    await sdk.send(new CreateTagsCommand({ Resources: [natGatewayId], Tags: [{ Key: 'rogue', Value: '1' }] }));
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted).toMatchObject({ resourceUpToDate: false, diff: 'tag rogue: not in spec' });

    expect(await client.update(mr)).toBe(`updated NAT gateway ${natGatewayId}: removed tags rogue`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('reports a pending gateway as Creating, in observe and in the sweep alike', async () => {
    const { client: pending } = instrumentedClient((g) => ({ ...g, State: 'pending' }));
    expect(await pending.observe(mr)).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Creating' });
    await expectSweepAgrees(pending, [mr]);
  });

  it('reports a failed gateway as Unavailable, in EC2\u2019s words', async () => {
    const failureMessage = `Network ${vpcId} has no Internet gateway attached`;
    const { client: failed } = instrumentedClient((g) => ({
      ...g,
      State: 'failed',
      FailureCode: 'Gateway.NotAttached',
      FailureMessage: failureMessage,
    }));
    const observed = await failed.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, readiness: 'Unavailable', readinessMessage: failureMessage });
    expect(observed.atProvider).toMatchObject({ state: 'failed', failureCode: 'Gateway.NotAttached', failureMessage });
    await expectSweepAgrees(failed, [mr]);
  });

  it('keeps a deleting gateway existing (Deleting), and does not ask EC2 to delete it again', async () => {
    const { client: deleting, sent } = instrumentedClient((g) => ({ ...g, State: 'deleting' }));
    expect(await deleting.observe(mr)).toMatchObject({ resourceExists: true, readiness: 'Deleting' });
    await expectSweepAgrees(deleting, [mr]);
    expect(await deleting.delete(mr)).toBe(`NAT gateway ${natGatewayId} is being deleted`);
    expect(sent.some((c) => c instanceof DeleteNatGatewayCommand)).toBe(false);
  });

  it('treats a deleted gateway EC2 still lists as gone', async () => {
    const { client: deleted, sent } = instrumentedClient((g) => ({ ...g, State: 'deleted' }));
    expect(await deleted.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(deleted, [mr]);
    expect(await deleted.delete(mr)).toBe(`NAT gateway ${natGatewayId} was already gone`);
    expect(await deleted.update(mr)).toBe(`NAT gateway ${natGatewayId} is gone; nothing to update`);
    expect(sent.some((c) => c instanceof DeleteNatGatewayCommand)).toBe(false);
  });

  it('creates a private gateway without an address', async () => {
    const priv = natResource({ subnetId, connectivityType: 'private' });
    const { externalName } = await client.create(priv);
    const observed = await client.observe(named(priv, externalName));
    expect(observed).toMatchObject({ resourceExists: true, readiness: 'Available', atProvider: { connectivityType: 'private' } });
    expect(observed.atProvider!.natGatewayAddresses![0]!.allocationId).toBeUndefined();
    await client.delete(named(priv, externalName));
  });

  it('says what is missing when no reference filled it in, and returns EC2\u2019s own words for a subnet it does not know', async () => {
    await expect(client.create(natResource({ allocationId }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'subnetId is required: set subnetId, subnetIdRef or subnetIdSelector',
    });
    await expect(client.create(natResource({ subnetId }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'allocationId is required: set allocationId, allocationIdRef or allocationIdSelector',
    });
    await expect(
      client.create(natResource({ subnetId: 'subnet-0123456789abcdef0', allocationId: await newAddress() })),
    ).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(/^cannot create NAT gateway in subnet subnet-0123456789abcdef0: InvalidSubnetID.NotFound/),
    });
  });

  it('deletes, observes it gone (EC2 still lists it as deleted), and deletes again without error', async () => {
    expect(await client.delete(mr)).toBe(`deleting NAT gateway ${natGatewayId}`);
    const [listed] = (await sdk.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [natGatewayId] }))).NatGateways!;
    expect(listed!.State).toBe('deleted');
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`NAT gateway ${natGatewayId} was already gone`);
    expect(await client.delete(natResource({ subnetId, allocationId }))).toBe('no NAT gateway was recorded; nothing to delete');
  });

  it('makes a new gateway, with a new client token, once the earlier one is deleted', async () => {
    // moto leaves a deleted gateway's address associated, so the new one takes a fresh address.
    const again = { ...unnamed(mr), spec: { forProvider: { ...mr.spec.forProvider, allocationId: await newAddress() } } };
    const { client: recording, sent } = instrumentedClient();
    const created = await recording.create(again);
    expect(created.externalName).not.toBe(natGatewayId);
    const [token] = createInputs(sent).map((input) => input.ClientToken);
    expect(token).toMatch(new RegExp(`^${mr.metadata.uid}-[0-9a-f]{16}$`));
    expect((await gatewaysWithUid(mr.metadata.uid)).map((g) => [g.NatGatewayId, g.State])).toEqual([
      [natGatewayId, 'deleted'],
      [created.externalName, 'available'],
    ]);
    await client.delete(named(again, created.externalName));
  });
});

describe('NATGateway admission rules on the real API server', () => {
  const manifest = (forProvider: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'NATGateway',
      metadata: { name: `nat-${randomUUID().slice(0, 8)}`, namespace: 'default' },
      spec: { forProvider: { region: 'us-east-1', ...forProvider } },
    });
  const dryRun = (forProvider: Record<string, unknown>) =>
    runKubectl(['apply', '--dry-run=server', '-o', 'json', '-f', '-'], manifest(forProvider));

  it('admits a public gateway by reference, defaulting its connectivity type, and a private one without an address', async () => {
    const admitted = JSON.parse(await dryRun({ subnetIdRef: { name: 'public-a' }, allocationIdRef: { name: 'nat' } }));
    expect(admitted.spec.forProvider.connectivityType).toBe('public');
    await expect(dryRun({ subnetId: 'subnet-1', allocationId: 'eipalloc-1' })).resolves.toContain('"kind": "NATGateway"');
    await expect(dryRun({ subnetId: 'subnet-1', connectivityType: 'private' })).resolves.toContain('"private"');
  });

  it.each([
    [{ subnetId: 'subnet-1' }, 'a public NAT gateway needs allocationId, allocationIdRef or allocationIdSelector'],
    [
      { subnetId: 'subnet-1', connectivityType: 'private', allocationIdRef: { name: 'nat' } },
      'a private NAT gateway takes no allocationId',
    ],
    [{ allocationId: 'eipalloc-1' }, 'one of subnetId, subnetIdRef or subnetIdSelector is required'],
    [{ subnetId: 'subnet-1', allocationId: 'eipalloc-1', connectivityType: 'both' }, 'supported values: "public", "private"'],
  ])('rejects %j', async (forProvider, message) => {
    await expect(dryRun(forProvider)).rejects.toThrow(message);
  });
});
