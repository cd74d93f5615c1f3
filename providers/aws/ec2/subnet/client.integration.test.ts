// Drives the real SubnetExternalClient against the real moto server, without Kubernetes:
// the four verbs, the idempotency guarantee, drift and late initialization.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CreateTagsCommand, CreateVpcCommand, DescribeSubnetsCommand, EC2Client, ModifySubnetAttributeCommand } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { SubnetExternalClient } from './client';
import type { SubnetObservation, SubnetParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new SubnetExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type SubnetResource = ManagedResource<SubnetParameters, SubnetObservation>;
const subnetResource = (forProvider: Omit<SubnetParameters, 'region'>, uid = randomUUID()): SubnetResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'Subnet',
  metadata: { name: `subnet-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: SubnetResource, externalName: string): SubnetResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const subnetsWithUid = async (uid: string) => (await sdk.send(new DescribeSubnetsCommand({ Filters: uidFilter(uid) }))).Subnets ?? [];

let vpcId: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.42.0.0/16' }))).Vpc!.VpcId!;
});

describe('Subnet client against moto', () => {
  let mr: SubnetResource;
  let subnetId: string;

  it('reports no subnet before one is recorded', async () => {
    expect(await client.observe(subnetResource({ vpcId, cidrBlock: '10.42.0.0/24' }))).toEqual({
      resourceExists: false,
      resourceUpToDate: false,
    });
  });

  it('creates a tagged subnet with its attributes, then observes it Available and up to date', async () => {
    mr = subnetResource({ vpcId, cidrBlock: '10.42.1.0/24', mapPublicIpOnLaunch: true, tags: { team: 'net' } });
    const created = await client.create(mr);
    subnetId = created.externalName;
    expect(subnetId).toMatch(/^subnet-/);
    expect(created.summary).toContain(`created subnet ${subnetId} (10.42.1.0/24) in VPC ${vpcId}`);
    mr = named(mr, subnetId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({ subnetId, vpcId, state: 'available', defaultForAz: false, availableIpAddressCount: 251 });
    expect(observed.atProvider!.subnetArn).toContain(subnetId);
    expect(observed.atProvider!.ownerId).toMatch(/^\d{12}$/);
    expect(observed.atProvider!.availabilityZoneId).toBeTruthy();

    const [subnet] = await subnetsWithUid(mr.metadata.uid);
    expect(subnet!.MapPublicIpOnLaunch).toBe(true);
    expect(Object.fromEntries(subnet!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'subnet.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      'chronoplane.io/uid': mr.metadata.uid,
    });
  });

  it('late-initializes the Availability Zone and the flag the spec left empty', async () => {
    const observed = await client.observe(mr);
    expect(observed.lateInitialized).toEqual({
      availabilityZone: expect.stringMatching(/^us-east-1[a-z]$/),
      assignIpv6AddressOnCreation: false,
    });
    const filled = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, ...observed.lateInitialized } } };
    expect((await client.observe(filled)).lateInitialized).toBeUndefined();
  });

  it('creates in the Availability Zone the spec names', async () => {
    const zoned = subnetResource({ vpcId, cidrBlock: '10.42.2.0/24', availabilityZone: 'us-east-1c' });
    const observed = await client.observe(named(zoned, (await client.create(zoned)).externalName));
    expect(observed.lateInitialized).toEqual({ mapPublicIpOnLaunch: false, assignIpv6AddressOnCreation: false });
    await client.delete(named(zoned, observed.atProvider!.subnetId!));
  });

  it('adopts the subnet of an earlier attempt instead of making a second one', async () => {
    const again = await client.create({ ...mr, metadata: { ...mr.metadata, annotations: {} } });
    expect(again).toEqual({ externalName: subnetId, summary: `found subnet ${subnetId} made by an earlier attempt` });
    expect((await subnetsWithUid(mr.metadata.uid)).map((s) => s.SubnetId)).toEqual([subnetId]);
  });

  it('reports an out-of-band change with a readable diff, and update repairs it', async () => {
    await sdk.send(new ModifySubnetAttributeCommand({ SubnetId: subnetId, MapPublicIpOnLaunch: { Value: false } }));
    await sdk.send(new CreateTagsCommand({ Resources: [subnetId], Tags: [{ Key: 'rogue', Value: '1' }] }));
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted.resourceUpToDate).toBe(false);
    expect(drifted.diff).toBe('mapPublicIpOnLaunch: want true, have false; tag rogue: not in spec');

    expect(await client.update(mr)).toBe(`updated subnet ${subnetId}: mapPublicIpOnLaunch=true; removed tags rogue`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('applies a spec edit of a mutable field and of the tags', async () => {
    mr = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, mapPublicIpOnLaunch: false, tags: { team: 'platform' } } } };
    expect((await client.observe(mr)).diff).toBe('mapPublicIpOnLaunch: want false, have true; tag team: want "platform"');
    expect(await client.update(mr)).toBe(`updated subnet ${subnetId}: mapPublicIpOnLaunch=false; set tags team`);
    expect((await client.observe(mr)).resourceUpToDate).toBe(true);
  });

  it('returns EC2\u2019s own words as InvalidInput for a CIDR outside the VPC', async () => {
    await expect(client.create(subnetResource({ vpcId, cidrBlock: '10.99.0.0/24' }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining('InvalidSubnet.Range'),
    });
  });

  it('refuses to create without a vpcId', async () => {
    await expect(client.create(subnetResource({ cidrBlock: '10.42.3.0/24' }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'vpcId is required: set vpcId, vpcIdRef or vpcIdSelector',
    });
  });

  it('deletes, observes it gone, and deletes again without error', async () => {
    expect(await client.delete(mr)).toEqual({ summary: `deleted subnet ${subnetId}`, gone: true });
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toEqual({ summary: `subnet ${subnetId} was already gone`, gone: true });
  });
});
