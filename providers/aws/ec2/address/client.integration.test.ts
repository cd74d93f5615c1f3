// Drives the real AddressExternalClient against the real moto server, without Kubernetes: the
// four verbs, the idempotency guarantee, drift and late initialization; and asks the real API
// server whether the CRD's rules admit what they should.
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { CreateTagsCommand, DescribeAddressesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { runKubectl } from '#test/integration/kubectl';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { AddressExternalClient } from './client';
import type { AddressObservation, AddressParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new AddressExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type AddressResource = ManagedResource<AddressParameters, AddressObservation>;
const addressResource = (forProvider: Omit<AddressParameters, 'region'>, uid = randomUUID()): AddressResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'Address',
  metadata: { name: `eip-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: AddressResource, externalName: string): AddressResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const addressesWithUid = async (uid: string) => (await sdk.send(new DescribeAddressesCommand({ Filters: uidFilter(uid) }))).Addresses ?? [];

describe('Address client against moto', () => {
  let mr: AddressResource;
  let allocationId: string;

  it('reports no address before one is recorded', async () => {
    expect(await client.observe(addressResource({ domain: 'vpc' }))).toEqual({ resourceExists: false, resourceUpToDate: false });
  });

  it('allocates a tagged address, then observes it Available and up to date', async () => {
    mr = addressResource({ tags: { team: 'net' } });
    const created = await client.create(mr);
    allocationId = created.externalName;
    expect(allocationId).toMatch(/^eipalloc-/);
    expect(created.summary).toMatch(new RegExp(`^allocated address ${allocationId} \\(\\d+\\.\\d+\\.\\d+\\.\\d+\\) in us-east-1$`));
    mr = named(mr, allocationId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({ allocationId, domain: 'vpc', publicIp: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    expect(observed.atProvider!.associationId).toBeUndefined();
    expect(observed.atProvider!.networkInterfaceId).toBeUndefined();

    const [address] = await addressesWithUid(mr.metadata.uid);
    expect(Object.fromEntries(address!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'address.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      'chronoplane.io/uid': mr.metadata.uid,
    });
  });

  it('late-initializes the domain the spec left empty', async () => {
    const observed = await client.observe(mr);
    expect(observed.lateInitialized).toEqual({ domain: 'vpc' });
    const filled = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, ...observed.lateInitialized } } };
    expect((await client.observe(filled)).lateInitialized).toBeUndefined();
  });

  it('adopts the address of an earlier attempt instead of allocating a second one', async () => {
    const again = await client.create({ ...mr, metadata: { ...mr.metadata, annotations: {} } });
    expect(again).toEqual({
      externalName: allocationId,
      summary: expect.stringMatching(new RegExp(`^found address ${allocationId} \\(.+\\) made by an earlier attempt$`)),
    });
    expect((await addressesWithUid(mr.metadata.uid)).map((a) => a.AllocationId)).toEqual([allocationId]);
  });

  it('reports tags changed outside Chronoplane with a readable diff, and update repairs them', async () => {
    await sdk.send(new CreateTagsCommand({ Resources: [allocationId], Tags: [{ Key: 'rogue', Value: '1' }] }));
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted).toMatchObject({ resourceUpToDate: false, diff: 'tag rogue: not in spec' });

    expect(await client.update(mr)).toBe(`updated address ${allocationId}: removed tags rogue`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('applies a spec edit of the tags', async () => {
    mr = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, tags: { team: 'platform' } } } };
    expect((await client.observe(mr)).diff).toBe('tag team: want "platform"');
    expect(await client.update(mr)).toBe(`updated address ${allocationId}: set tags team`);
    expect((await client.observe(mr)).resourceUpToDate).toBe(true);
  });

  it('sweeps many addresses in one call, leaving out those with no external name', async () => {
    const other = addressResource({ domain: 'vpc' });
    const otherNamed = named(other, (await client.create(other)).externalName);
    const unnamed = addressResource({ domain: 'vpc' });
    await expectSweepAgrees(client, [mr, otherNamed]);
    const swept = await client.observeMany([mr, otherNamed, unnamed]);
    expect([...swept.keys()].sort()).toEqual([mr.metadata.uid, other.metadata.uid].sort());
    await client.delete(otherNamed);
  });

  it('refuses an EC2-Classic address, and leaves none behind', async () => {
    const classic = addressResource({ domain: 'standard' });
    await expect(client.create(classic)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining('use domain vpc'),
    });
    const all = (await sdk.send(new DescribeAddressesCommand({}))).Addresses ?? [];
    expect(all.filter((a) => a.Domain === 'standard' && (a.Tags ?? []).some((t) => t.Value === classic.metadata.uid))).toEqual([]);
  });

  it('releases, observes it gone, and releases again without error', async () => {
    expect(await client.delete(mr)).toBe(`released address ${allocationId}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`address ${allocationId} was already gone`);
    expect(await client.delete(addressResource({}))).toBe('no address was recorded; nothing to delete');
  });
});

describe('Address admission rules on the real API server', () => {
  const manifest = (forProvider: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'Address',
      metadata: { name: `eip-${randomUUID().slice(0, 8)}`, namespace: 'default' },
      spec: { forProvider: { region: 'us-east-1', ...forProvider } },
    });
  const dryRun = (forProvider: Record<string, unknown>) =>
    runKubectl(['apply', '--dry-run=server', '-o', 'json', '-f', '-'], manifest(forProvider));

  it('admits an address and defaults its domain to vpc', async () => {
    const admitted = JSON.parse(await dryRun({ tags: { team: 'net' } }));
    expect(admitted.spec.forProvider.domain).toBe('vpc');
  });

  it.each([
    [{ domain: 'classic' }, 'supported values: "vpc", "standard"'],
    [{ tags: { 'crossplane-name': 'x' } }, 'reserved'],
  ])('rejects %j', async (forProvider, message) => {
    await expect(dryRun(forProvider)).rejects.toThrow(message);
  });
});
