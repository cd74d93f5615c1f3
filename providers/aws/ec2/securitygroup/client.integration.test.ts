// Drives the real SecurityGroupExternalClient against the real moto server, without Kubernetes:
// the four verbs, the idempotency guarantee, name clashes, default egress, drift (tags only,
// never rules) and late initialization.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { SecurityGroupExternalClient } from './client';
import type { SecurityGroupObservation, SecurityGroupParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new SecurityGroupExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type GroupResource = ManagedResource<SecurityGroupParameters, SecurityGroupObservation>;
const groupResource = (forProvider: Omit<SecurityGroupParameters, 'region'>, uid = randomUUID()): GroupResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'SecurityGroup',
  metadata: { name: `sg-test-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: GroupResource, externalName: string): GroupResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const groupsWithUid = async (uid: string) =>
  (await sdk.send(new DescribeSecurityGroupsCommand({ Filters: uidFilter(uid) }))).SecurityGroups ?? [];
const egressOf = async (groupId: string) =>
  (
    (await sdk.send(new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }] }))).SecurityGroupRules ?? []
  ).filter((r) => r.IsEgress);

let vpcId: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.52.0.0/16' }))).Vpc!.VpcId!;
});

describe('SecurityGroup client against moto', () => {
  let mr: GroupResource;
  let groupId: string;

  it('reports no group before one is recorded', async () => {
    expect(await client.observe(groupResource({ vpcId, description: 'x' }))).toEqual({ resourceExists: false, resourceUpToDate: false });
  });

  it('creates a tagged group that keeps EC2\u2019s default egress, then observes it Available and up to date', async () => {
    mr = groupResource({ vpcId, groupName: 'web', description: 'web servers', tags: { team: 'net' } });
    const created = await client.create(mr);
    groupId = created.externalName;
    expect(groupId).toMatch(/^sg-/);
    expect(created.summary).toBe(`created security group ${groupId} (web) in VPC ${vpcId}`);
    mr = named(mr, groupId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({ groupId, groupName: 'web', vpcId });
    expect(observed.atProvider!.ownerId).toMatch(/^\d{12}$/);
    expect(observed.atProvider!.securityGroupArn).toContain(groupId);
    expect(observed.lateInitialized).toBeUndefined();

    const [group] = await groupsWithUid(mr.metadata.uid);
    expect(group!.Description).toBe('web servers');
    expect(Object.fromEntries(group!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'securitygroup.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      'chronoplane.io/uid': mr.metadata.uid,
    });
    expect(await egressOf(groupId)).toMatchObject([{ IpProtocol: '-1', CidrIpv4: '0.0.0.0/0' }]);
  });

  it('makes exactly one group when create is called again for the same object', async () => {
    const again = await client.create({ ...mr, metadata: { ...mr.metadata, annotations: {} } });
    expect(again).toEqual({ externalName: groupId, summary: `found security group ${groupId} made by an earlier attempt` });
    expect(await groupsWithUid(mr.metadata.uid)).toHaveLength(1);
  });

  it('does not count rules as drift: they belong to SecurityGroupRule objects', async () => {
    await sdk.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '10.0.0.0/8' }] }],
      }),
    );
    expect(await client.observe(mr)).toMatchObject({ resourceExists: true, resourceUpToDate: true });
  });

  it('reports tags changed outside Chronoplane, and update puts them back', async () => {
    await sdk.send(
      new CreateTagsCommand({
        Resources: [groupId],
        Tags: [
          { Key: 'team', Value: 'rogue' },
          { Key: 'extra', Value: '1' },
        ],
      }),
    );
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted).toMatchObject({ resourceExists: true, resourceUpToDate: false });
    expect(drifted.diff).toBe('tag team: want "net"; tag extra: not in spec');

    expect(await client.update(mr)).toBe(`updated security group ${groupId}: set tags team; removed tags extra`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
    expect(await client.update(mr)).toBe(`updated security group ${groupId}: already up to date`);
  });

  it('deletes the group, then finds it gone, and deleting again succeeds', async () => {
    expect(await client.delete(mr)).toEqual({ summary: `deleted security group ${groupId}`, gone: true });
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toEqual({ summary: `security group ${groupId} was already gone`, gone: true });
    expect(await client.delete(groupResource({ vpcId, description: 'x' }))).toEqual({
      summary: 'no security group was recorded; nothing to delete',
      gone: true,
    });
  });
});

describe('SecurityGroup creation choices', () => {
  it('revokes EC2\u2019s default egress only when revokeDefaultEgress is true, also on a retried create', async () => {
    const mr = groupResource({ vpcId, groupName: 'locked', description: 'no way out', revokeDefaultEgress: true });
    const created = await client.create(mr);
    expect(created.summary).toMatch(
      new RegExp(`^created security group ${created.externalName} \\(locked\\) in VPC ${vpcId}; revoked default egress sgr-`),
    );
    expect(await egressOf(created.externalName)).toEqual([]);
    const again = await client.create(mr);
    expect(again).toEqual({
      externalName: created.externalName,
      summary: `found security group ${created.externalName} made by an earlier attempt`,
    });
  });

  it('names the group after the object and uses the default VPC when the spec does not say, and late-initializes both', async () => {
    const mr = groupResource({ description: 'defaults' });
    const created = await client.create(mr);
    expect(created.summary).toBe(`created security group ${created.externalName} (${mr.metadata.name}) in the default VPC`);
    const observed = await client.observe(named(mr, created.externalName));
    expect(observed.lateInitialized).toEqual({ groupName: mr.metadata.name, vpcId: expect.stringMatching(/^vpc-/) });
    expect(observed.lateInitialized!.vpcId).not.toBe(vpcId);
    await client.delete(named(mr, created.externalName));
  });

  it('refuses to adopt a group of the same name that someone else made', async () => {
    const theirs = await sdk.send(new CreateSecurityGroupCommand({ GroupName: 'taken', Description: 'not ours', VpcId: vpcId }));
    const mr = groupResource({ vpcId, groupName: 'taken', description: 'ours' });
    await expect(client.create(mr)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: `cannot create security group taken: a security group of that name already exists in VPC ${vpcId} (${theirs.GroupId}); choose another groupName`,
    });
    expect(await groupsWithUid(mr.metadata.uid)).toHaveLength(0);
  });
});
