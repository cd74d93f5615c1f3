// Drives the real InstanceExternalClient against the real moto server, without Kubernetes: the
// four verbs, one instance after a retried create, user data read from a Secret and its change
// reported without its value, the stop-modify-start type change across update calls, in-place
// changes, late initialization and the sweep's agreement. The Secret reads come from an
// in-process ConnectContext; EC2 is moto.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CreateKeyPairCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  EC2Client,
  StartInstancesCommand,
  StopInstancesCommand,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { UID_TAG } from '../../tags';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { InstanceExternalClient } from './client';
import { clientToken } from './launch';
import { RESIZE_TAG } from './convert';
import type { InstanceObservation, InstanceParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });

/** Secrets by namespace/name/key: the one thing the client reads from Kubernetes. */
const secrets = new Map<string, string>();
const client = new InstanceExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }), {
  getSecretValue: async (namespace, name, key) => secrets.get(`${namespace}/${name}/${key}`),
});

const IMAGE = 'ami-1e749f67'; // one of moto's built-in AMIs (Ubuntu)
const SCRIPT = '#cloud-config\nruncmd:\n  - echo hello-from-user-data\n';
const NEW_SCRIPT = '#cloud-config\nruncmd:\n  - echo changed-user-data\n';

type InstanceResource = ManagedResource<InstanceParameters, InstanceObservation>;
const instanceResource = (
  forProvider: Omit<InstanceParameters, 'region' | 'imageId' | 'instanceType'> & Partial<InstanceParameters>,
  uid = randomUUID(),
): InstanceResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'Instance',
  metadata: { name: `web-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', imageId: IMAGE, instanceType: 't3.micro', ...forProvider } },
});
const named = (mr: InstanceResource, externalName: string): InstanceResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const withSpec = (mr: InstanceResource, change: Partial<InstanceParameters>): InstanceResource => ({
  ...mr,
  spec: { forProvider: { ...mr.spec.forProvider, ...change } },
});
const instancesWithUid = async (uid: string) =>
  (await sdk.send(new DescribeInstancesCommand({ Filters: uidFilter(uid) }))).Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
const instance = async (id: string) =>
  (await sdk.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations![0]!.Instances![0]!;

let subnetId: string;
let groupId: string;
let otherGroupId: string;
let keyName: string;
beforeAll(async () => {
  const vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.61.0.0/16' }))).Vpc!.VpcId!;
  subnetId = (await sdk.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.61.1.0/24', AvailabilityZone: 'us-east-1b' }))).Subnet!
    .SubnetId!;
  const group = (name: string) => sdk.send(new CreateSecurityGroupCommand({ VpcId: vpcId, GroupName: name, Description: name }));
  groupId = (await group(`web-${randomUUID().slice(0, 8)}`)).GroupId!;
  otherGroupId = (await group(`admin-${randomUUID().slice(0, 8)}`)).GroupId!;
  keyName = `admin-${randomUUID().slice(0, 8)}`;
  await sdk.send(new CreateKeyPairCommand({ KeyName: keyName }));
  secrets.set('default/web-user-data/user-data', SCRIPT);
});

describe('Instance client against moto', () => {
  let mr: InstanceResource;
  let instanceId: string;

  it('reports no instance before one is recorded', async () => {
    expect(await client.observe(instanceResource({}))).toEqual({ resourceExists: false, resourceUpToDate: false });
  });

  it('launches a tagged instance with its user data from the Secret, then observes it Available and up to date', async () => {
    mr = instanceResource({
      subnetId,
      securityGroupIds: [groupId],
      keyName,
      userDataSecretRef: { name: 'web-user-data', key: 'user-data' },
      metadataOptions: { httpTokens: 'optional' },
      tags: { tier: 'web' },
    });
    const created = await client.create(mr);
    instanceId = created.externalName;
    expect(instanceId).toMatch(/^i-/);
    expect(created.summary).toBe(`launched t3.micro instance ${instanceId} of ${IMAGE} in subnet ${subnetId}`);
    expect(created.connectionDetails).toBeUndefined();
    mr = named(mr, instanceId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    expect(observed.atProvider).toMatchObject({
      instanceId,
      state: 'running',
      instanceType: 't3.micro',
      imageId: IMAGE,
      subnetId,
      availabilityZone: 'us-east-1b',
      privateIpAddress: expect.stringMatching(/^10\.61\.1\./),
      launchTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(observed.connectionDetails).toMatchObject({
      instanceId,
      privateIp: observed.atProvider!.privateIpAddress,
      privateDnsName: expect.any(String),
    });
    expect(Object.values(observed.connectionDetails!).every((v) => v !== '')).toBe(true);
    await expectSweepAgrees(client, [mr]);

    const launched = await instance(instanceId);
    expect(launched.KeyName).toBe(keyName);
    expect(launched.SecurityGroups!.map((g) => g.GroupId)).toEqual([groupId]);
    expect(Object.fromEntries(launched.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      tier: 'web',
      'crossplane-kind': 'instance.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      [UID_TAG]: mr.metadata.uid,
    });
    const userData = await sdk.send(new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }));
    expect(Buffer.from(userData.UserData!.Value!, 'base64').toString('utf8')).toBe(SCRIPT);
  });

  it('late-initializes the zone, the private address and the tenancy EC2 chose', async () => {
    const observed = await client.observe(mr);
    expect(observed.lateInitialized).toEqual({
      availabilityZone: 'us-east-1b',
      privateIpAddress: observed.atProvider!.privateIpAddress,
      tenancy: 'default',
    });
    mr = withSpec(mr, observed.lateInitialized!);
    expect((await client.observe(mr)).lateInitialized).toBeUndefined();
  });

  it('adopts the instance of an earlier attempt instead of launching a second one', async () => {
    const retry = { ...mr, metadata: { ...mr.metadata, annotations: {} } };
    expect(clientToken(retry)).toBe(clientToken({ ...retry }));
    expect(await client.create(retry)).toEqual({
      externalName: instanceId,
      summary: `found instance ${instanceId} launched by an earlier attempt`,
    });
    expect((await instancesWithUid(mr.metadata.uid)).map((i) => i.InstanceId)).toEqual([instanceId]);
  });

  it('reports changed user data as drift that needs a replacement, never its value, and the sweep leaves it to the instance', async () => {
    secrets.set('default/web-user-data/user-data', NEW_SCRIPT);
    const observed = await client.observe(mr);
    expect(observed).toMatchObject({
      resourceExists: true,
      resourceUpToDate: false,
      readiness: 'Available',
      diff: 'userData changed (needs replacement)',
    });
    for (const value of [SCRIPT, NEW_SCRIPT, 'hello-from-user-data', 'changed-user-data'])
      expect(JSON.stringify(observed)).not.toContain(value);
    // A per-instance read: the sweep takes it as the spec has it (unsweptFields).
    expect((await client.observeMany([mr])).get(mr.metadata.uid)).toMatchObject({ resourceUpToDate: true });

    const failure = (await client.update(mr).catch((e: unknown) => e)) as Error & { failureClass: string };
    expect(failure).toMatchObject({ failureClass: 'InvalidInput' });
    expect(failure.message).toBe(
      `cannot update instance ${instanceId}: userData changed (needs replacement); EC2 runs user data at first boot only, so delete and recreate the Instance to apply it, or restore the Secret's previous value`,
    );
    expect(failure.message).not.toContain('changed-user-data');

    secrets.delete('default/web-user-data/user-data');
    expect((await client.observe(mr)).diff).toBe('userData: Secret default/web-user-data has no key user-data, so it cannot be checked');
    await expect(client.update(mr)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: `cannot update instance ${instanceId}: userData: Secret default/web-user-data has no key user-data, so it cannot be checked`,
    });
    secrets.set('default/web-user-data/user-data', SCRIPT);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('changes the instance type by stopping, modifying and starting it, one step per update call', async () => {
    mr = withSpec(mr, { instanceType: 't3.small' });
    expect(await client.observe(mr)).toMatchObject({
      resourceUpToDate: false,
      readiness: 'Available',
      diff: 'instanceType: want t3.small, have t3.micro (stop, change, start)',
    });

    expect(await client.update(mr)).toBe(`updated instance ${instanceId}: stopping to change instance type from t3.micro to t3.small`);
    const stopped = await client.observe(mr);
    expect(stopped).toMatchObject({
      resourceUpToDate: false,
      readiness: 'Unavailable',
      readinessMessage: 'stopped to change instance type from t3.micro to t3.small',
      atProvider: { state: 'stopped', instanceType: 't3.micro' },
    });
    await expectSweepAgrees(client, [mr]);

    expect(await client.update(mr)).toBe(
      `updated instance ${instanceId}: changed instance type from t3.micro to t3.small and started it again`,
    );
    const resized = await client.observe(mr);
    expect(resized).toMatchObject({
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { state: 'running', instanceType: 't3.small' },
    });
    expect((await instance(instanceId)).Tags!.map((t) => t.Key)).not.toContain(RESIZE_TAG);
    expect(await client.update(mr)).toBe(`updated instance ${instanceId}: already up to date`);
  });

  it('starts again an instance it stopped for a type change even when the worker was lost after the change', async () => {
    await sdk.send(new CreateTagsCommand({ Resources: [instanceId], Tags: [{ Key: RESIZE_TAG, Value: 't3.small' }] }));
    await sdk.send(new StopInstancesCommand({ InstanceIds: [instanceId] }));
    expect(await client.observe(mr)).toMatchObject({
      resourceUpToDate: false,
      readiness: 'Unavailable',
      readinessMessage: 'stopped to change instance type to t3.small; starting it again',
      diff: 'instanceType: the change to t3.small is not finished',
    });
    expect(await client.update(mr)).toBe(`updated instance ${instanceId}: started instance ${instanceId} again after changing its type`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, readiness: 'Available' });
  });

  it('leaves alone an instance someone else stopped, and says why it is unavailable', async () => {
    await sdk.send(new StopInstancesCommand({ InstanceIds: [instanceId] }));
    expect(await client.observe(mr)).toMatchObject({
      resourceUpToDate: true,
      readiness: 'Unavailable',
      readinessMessage: 'instance is stopped; Chronoplane starts only an instance it stopped itself',
    });
    await sdk.send(new StartInstancesCommand({ InstanceIds: [instanceId] }));
  });

  it('changes security groups, metadata options and tags in place', async () => {
    await sdk.send(new CreateTagsCommand({ Resources: [instanceId], Tags: [{ Key: 'rogue', Value: '1' }] }));
    mr = withSpec(mr, { securityGroupIds: [groupId, otherGroupId], metadataOptions: { httpTokens: 'required' } });
    const sorted = [groupId, otherGroupId].sort().join(', ');
    expect((await client.observe(mr)).diff).toBe(
      `securityGroupIds: want [${sorted}], have [${groupId}]; metadataOptions.httpTokens: want required, have optional; tag rogue: not in spec`,
    );
    await expectSweepAgrees(client, [mr]);
    expect(await client.update(mr)).toBe(
      `updated instance ${instanceId}: removed tags rogue; securityGroupIds=[${sorted}]; metadataOptions={"httpTokens":"required"}`,
    );
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('refuses to launch without the user data Secret, naming the Secret but no value', async () => {
    const missing = instanceResource({ subnetId, userDataSecretRef: { name: 'nowhere', key: 'user-data' } });
    await expect(client.create(missing)).rejects.toMatchObject({
      failureClass: 'MissingConfiguration',
      message: 'cannot read user data: Secret default/nowhere has no key user-data',
    });
    expect(await instancesWithUid(missing.metadata.uid)).toEqual([]);
  });

  it('terminates, observes it gone, and terminates again without error', async () => {
    expect(await client.delete(mr)).toBe(`terminating instance ${instanceId}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`instance ${instanceId} was already gone`);
  });

  it('launches a new instance when the recorded one was terminated, with a client token of its own', async () => {
    const fresh = { ...mr, metadata: { ...mr.metadata, annotations: {} } };
    expect(clientToken(mr)).not.toBe(clientToken(fresh));
    // moto never releases a terminated instance's private address (EC2 does), so the recreate
    // asks for none rather than the one the spec adopted.
    const created = await client.create(withSpec(mr, { privateIpAddress: undefined }));
    expect(created.externalName).not.toBe(instanceId);
    const live = (await instancesWithUid(mr.metadata.uid)).filter((i) => i.State?.Name !== 'terminated');
    expect(live.map((i) => i.InstanceId)).toEqual([created.externalName]);
    await client.delete(named(mr, created.externalName));
  });
});
