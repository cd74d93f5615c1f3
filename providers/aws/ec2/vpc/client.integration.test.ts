// Drives the real VpcExternalClient against the real moto server, without Kubernetes: observe,
// and the sweep's observeMany, which must agree with it on everything it can read in bulk.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { DeleteTagsCommand, DeleteVpcCommand, EC2Client, ModifyVpcAttributeCommand } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { readEc2CallCounts, summarizeEc2Calls } from '#bench/ec2-call-counter';
import { Ec2Api } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { VpcExternalClient } from './client';
import type { VpcObservation, VpcParameters } from './schema';

const endpoint = inject('ec2Endpoint');
// An access key of this file's own, so moto's request counts tell its calls apart.
const accessKeyId = `vpc-client-${randomBytes(3).toString('hex')}`;
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId, secretAccessKey: 'testing' } });
const client = new VpcExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type VpcResource = ManagedResource<VpcParameters, VpcObservation>;
const vpcResource = (forProvider: Omit<VpcParameters, 'region'>, uid = randomUUID()): VpcResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'VPC',
  metadata: { name: `vpc-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: VpcResource, externalName: string): VpcResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});

/** What moto counted for this file's access key while `body` ran, by action. */
async function callsDuring(body: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await readEc2CallCounts(endpoint);
  await body();
  return summarizeEc2Calls(before, await readEc2CallCounts(endpoint), { accessKeyId }).byAction;
}

describe('VPC client against moto', () => {
  const vpcs: VpcResource[] = [];

  it('creates VPCs and observes each Available and up to date, DNS attributes included', async () => {
    for (const [i, dns] of [true, false, true].entries()) {
      const mr = vpcResource({ cidrBlock: `10.8${i}.0.0/16`, enableDnsHostnames: dns, enableDnsSupport: true, tags: { team: 'net' } });
      vpcs.push(named(mr, (await client.create(mr)).externalName));
    }
    for (const mr of vpcs) {
      const observed = await client.observe(mr);
      expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available' });
      expect(observed.atProvider).toMatchObject({ vpcId: mr.metadata.annotations![EXTERNAL_NAME], state: 'available' });
    }
  });

  it('observes them all in one call, answering as observe does', async () => {
    expect(await callsDuring(() => client.observeMany(vpcs))).toEqual({ DescribeVpcs: 1 });
    await expectSweepAgrees(client, vpcs);
  });

  it('finds tag drift, a vanished VPC, and leaves out a resource with no external name', async () => {
    const [tagged, , gone] = vpcs as [VpcResource, VpcResource, VpcResource];
    const taggedId = tagged.metadata.annotations![EXTERNAL_NAME]!;
    await sdk.send(new DeleteTagsCommand({ Resources: [taggedId], Tags: [{ Key: 'team' }] }));
    await sdk.send(new DeleteVpcCommand({ VpcId: gone.metadata.annotations![EXTERNAL_NAME]! }));
    const unnamed = vpcResource({ cidrBlock: '10.89.0.0/16' });

    const swept = await client.observeMany([...vpcs, unnamed]);
    expect(swept.get(tagged.metadata.uid)).toMatchObject({ resourceUpToDate: false, diff: 'tag team: want "net"' });
    expect(swept.get(vpcs[1]!.metadata.uid)).toMatchObject({ resourceUpToDate: true });
    expect(swept.get(gone.metadata.uid)).toEqual({ resourceExists: false, resourceUpToDate: false });
    expect(swept.has(unnamed.metadata.uid)).toBe(false);
    await client.update(tagged);
    vpcs.splice(2, 1);
  });

  it('leaves the DNS attributes to observe: the sweep cannot read them in bulk', async () => {
    const mr = vpcs[0]!;
    await sdk.send(
      new ModifyVpcAttributeCommand({ VpcId: mr.metadata.annotations![EXTERNAL_NAME]!, EnableDnsHostnames: { Value: false } }),
    );
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: false, diff: 'enableDnsHostnames: want true, have false' });
    const calls = await callsDuring(async () => {
      expect((await client.observeMany([mr])).get(mr.metadata.uid)).toMatchObject({ resourceUpToDate: true });
    });
    expect(calls).toEqual({ DescribeVpcs: 1 }); // and no DescribeVpcAttribute
    await client.update(mr);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true });
  });

  it('makes no call for nothing to observe', async () => {
    const calls = await callsDuring(async () =>
      expect((await client.observeMany([vpcResource({ cidrBlock: '10.90.0.0/16' })])).size).toBe(0),
    );
    expect(calls).toEqual({});
  });

  it('observes a VPC being deleted with one call: only its existence matters then', async () => {
    const mr = vpcs[0]!;
    const deleting = { ...mr, metadata: { ...mr.metadata, deletionTimestamp: new Date().toISOString() } };
    const calls = await callsDuring(async () => expect(await client.observe(deleting)).toMatchObject({ resourceExists: true }));
    expect(calls).toEqual({ DescribeVpcs: 1 });
  });

  it('answers a first create with one call, and with what observe then reports, spec defaults included', async () => {
    for (const forProvider of [{ cidrBlock: '10.91.0.0/16' }, { cidrBlock: '10.92.0.0/16', enableDnsHostnames: true, tags: { a: 'b' } }]) {
      const mr = vpcResource(forProvider);
      let created: Awaited<ReturnType<typeof client.create>> | undefined;
      const calls = await callsDuring(async () => (created = await client.create(mr, { mayExist: false })));
      // No search for an earlier attempt's VPC: none can exist.
      expect(calls).toEqual(forProvider.enableDnsHostnames ? { CreateVpc: 1, ModifyVpcAttribute: 1 } : { CreateVpc: 1 });
      const recorded = named(mr, created!.externalName);
      vpcs.push(recorded);
      expect(created!.observation).toEqual(await client.observe(recorded));
    }
  });

  it("finds an earlier attempt's VPC whenever one may exist, instead of making a twin", async () => {
    const mr = vpcResource({ cidrBlock: '10.93.0.0/16' });
    const first = await client.create(mr, { mayExist: false });
    const retried = await client.create(mr, { mayExist: true });
    expect(retried).toMatchObject({ externalName: first.externalName, summary: expect.stringContaining('earlier attempt') });
    vpcs.push(named(mr, first.externalName));
  });

  it('deletes what it made, and says it is gone at once', async () => {
    for (const mr of vpcs) expect(await client.delete(mr)).toMatchObject({ gone: true });
    expect([...(await client.observeMany(vpcs)).values()].every((o) => !o.resourceExists)).toBe(true);
  });
});
