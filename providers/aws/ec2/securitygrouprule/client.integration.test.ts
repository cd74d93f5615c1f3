// Drives the real SecurityGroupRuleExternalClient against the real moto server, without
// Kubernetes: the four verbs, the idempotency guarantee (by content and uid tag), adoption of
// an untagged twin, conflicts, drift of description and tags, and late initialization.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteSecurityGroupCommand,
  DescribeSecurityGroupRulesCommand,
  EC2Client,
  ModifySecurityGroupRulesCommand,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { Ec2Api } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { SecurityGroupRuleExternalClient } from './client';
import type { SecurityGroupRuleObservation, SecurityGroupRuleParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new SecurityGroupRuleExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type RuleResource = ManagedResource<SecurityGroupRuleParameters, SecurityGroupRuleObservation>;
const ruleResource = (forProvider: Omit<SecurityGroupRuleParameters, 'region'>, uid = randomUUID()): RuleResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'SecurityGroupRule',
  metadata: { name: `sgr-test-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: RuleResource, externalName: string): RuleResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const rulesOf = async (groupId: string) =>
  (await sdk.send(new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }] }))).SecurityGroupRules ?? [];
const newGroup = async (name: string) =>
  (await sdk.send(new CreateSecurityGroupCommand({ GroupName: name, Description: name, VpcId: vpcId }))).GroupId!;

const http = { type: 'ingress' as const, ipProtocol: 'tcp', fromPort: 80, toPort: 80 };

let vpcId: string;
let groupId: string;
let peerGroupId: string;
beforeAll(async () => {
  vpcId = (await sdk.send(new CreateVpcCommand({ CidrBlock: '10.53.0.0/16' }))).Vpc!.VpcId!;
  groupId = await newGroup('app');
  peerGroupId = await newGroup('peer');
});

describe('SecurityGroupRule client against moto', () => {
  let mr: RuleResource;
  let ruleId: string;

  it('reports no rule before one is recorded', async () => {
    expect(await client.observe(ruleResource({ securityGroupId: groupId, ...http, cidrIpv4: '10.0.0.0/8' }))).toEqual({
      resourceExists: false,
      resourceUpToDate: false,
    });
  });

  it('authorizes a tagged ingress rule, then observes it Available and up to date', async () => {
    mr = ruleResource({
      securityGroupId: groupId,
      type: 'ingress',
      ipProtocol: 'tcp',
      fromPort: 443,
      toPort: 443,
      cidrIpv4: '10.1.0.0/16',
      description: 'https',
      tags: { team: 'net' },
    });
    const created = await client.create(mr);
    ruleId = created.externalName;
    expect(ruleId).toMatch(/^sgr-/);
    expect(created.summary).toBe(`authorized ingress rule ${ruleId} in ${groupId}`);
    mr = named(mr, ruleId);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    await expectSweepAgrees(client, [mr]);
    expect(observed.atProvider).toMatchObject({
      securityGroupRuleId: ruleId,
      groupId,
      isEgress: false,
      ipProtocol: 'tcp',
      fromPort: 443,
      toPort: 443,
      cidrIpv4: '10.1.0.0/16',
      description: 'https',
    });
    expect(observed.lateInitialized).toBeUndefined();

    const [rule] = (await rulesOf(groupId)).filter((r) => r.SecurityGroupRuleId === ruleId);
    expect(Object.fromEntries(rule!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'net',
      'crossplane-kind': 'securitygrouprule.ec2.aws.chronoplane.io',
      'chronoplane.io/uid': mr.metadata.uid,
    });
  });

  it('makes exactly one rule when create is called again for the same object', async () => {
    const again = await client.create({ ...mr, metadata: { ...mr.metadata, annotations: {} } });
    expect(again).toEqual({ externalName: ruleId, summary: `adopted the identical ingress rule ${ruleId} already in ${groupId}` });
    expect((await rulesOf(groupId)).filter((r) => r.CidrIpv4 === '10.1.0.0/16')).toHaveLength(1);
  });

  it('refuses an identical rule that another object owns', async () => {
    const twin = ruleResource({ ...mr.spec.forProvider, tags: undefined });
    await expect(client.create(twin)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining(
        `security group ${groupId} already has an identical ingress rule ${ruleId}, and it belongs to securitygrouprule.ec2.aws.chronoplane.io default/${mr.metadata.name}`,
      ),
    });
  });

  it('reports a description and tags changed outside Chronoplane, and update puts them back', async () => {
    await sdk.send(
      new ModifySecurityGroupRulesCommand({
        GroupId: groupId,
        SecurityGroupRules: [
          {
            SecurityGroupRuleId: ruleId,
            SecurityGroupRule: { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIpv4: '10.1.0.0/16', Description: 'rogue' },
          },
        ],
      }),
    );
    await sdk.send(new CreateTagsCommand({ Resources: [ruleId], Tags: [{ Key: 'extra', Value: '1' }] }));
    const drifted = await client.observe(mr);
    await expectSweepAgrees(client, [mr]);
    expect(drifted).toMatchObject({ resourceExists: true, resourceUpToDate: false });
    expect(drifted.diff).toBe('description: want "https", have "rogue"; tag extra: not in spec');

    expect(await client.update(mr)).toBe(`updated security group rule ${ruleId}: set description "https"; removed tags extra`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('changes and clears the description when the spec does', async () => {
    const edited = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, description: 'tls' } } };
    expect((await client.observe(edited)).diff).toBe('description: want "tls", have "https"');
    await client.update(edited);
    expect(await client.observe(edited)).toMatchObject({ resourceUpToDate: true, atProvider: { description: 'tls' } });

    const cleared = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, description: undefined } } };
    expect(await client.update(cleared)).toBe(`updated security group rule ${ruleId}: cleared description`);
    expect(await client.observe(cleared)).toMatchObject({ resourceUpToDate: true });
  });

  it('revokes the rule, then finds it gone, and revoking again succeeds', async () => {
    expect(await client.delete(mr)).toBe(`revoked security group rule ${ruleId} of ${groupId}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`security group rule ${ruleId} was already gone`);
  });
});

describe('SecurityGroupRule adoption and peers', () => {
  it('adopts EC2\u2019s untagged default egress rule when the spec describes it, and tags it on update', async () => {
    const [defaultEgress] = (await rulesOf(groupId)).filter((r) => r.IsEgress);
    const mr = ruleResource({ securityGroupId: groupId, type: 'egress', ipProtocol: '-1', cidrIpv4: '0.0.0.0/0' });
    const created = await client.create(mr);
    expect(created.externalName).toBe(defaultEgress!.SecurityGroupRuleId);
    const observed = await client.observe(named(mr, created.externalName));
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: false, lateInitialized: { fromPort: -1, toPort: -1 } });
    expect(observed.diff).toContain(`tag chronoplane.io/uid: want "${mr.metadata.uid}"`);
    await client.update(named(mr, created.externalName));
    expect(await client.observe(named(mr, created.externalName))).toMatchObject({ resourceUpToDate: true });
  });

  it('adopts an identical rule someone authorized by hand without tags', async () => {
    const spec = {
      securityGroupId: groupId,
      type: 'ingress' as const,
      ipProtocol: 'udp',
      fromPort: 53,
      toPort: 53,
      cidrIpv4: '10.2.0.0/16',
    };
    const byHand = await sdk.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [{ IpProtocol: 'udp', FromPort: 53, ToPort: 53, IpRanges: [{ CidrIp: '10.2.0.0/16' }] }],
      }),
    );
    const created = await client.create(ruleResource(spec));
    expect(created.externalName).toBe(byHand.SecurityGroupRules![0]!.SecurityGroupRuleId);
  });

  it('allows a referenced group on an ICMP rule, and converges on its description', async () => {
    const mr = ruleResource({
      securityGroupId: groupId,
      type: 'ingress',
      ipProtocol: 'icmp',
      referencedGroupId: peerGroupId,
      description: 'ping',
    });
    const created = await client.create(mr);
    const rule = named(mr, created.externalName);
    // moto drops the description of a group or prefix-list peer at authorize (real EC2 keeps
    // it); one update, as the engine would run, sets it.
    if (!(await client.observe(rule)).resourceUpToDate) await client.update(rule);
    const observed = await client.observe(rule);
    expect(observed).toMatchObject({
      resourceUpToDate: true,
      atProvider: { ipProtocol: 'icmp', fromPort: -1, toPort: -1, referencedGroupInfo: { groupId: peerGroupId }, description: 'ping' },
      lateInitialized: { fromPort: -1, toPort: -1 },
    });
  });

  it('treats a rule of a deleted group as gone', async () => {
    const lonely = await newGroup('lonely');
    const mr = ruleResource({
      securityGroupId: lonely,
      type: 'egress',
      ipProtocol: 'tcp',
      fromPort: 5432,
      toPort: 5432,
      cidrIpv6: '2001:db8::/32',
    });
    const rule = named(mr, (await client.create(mr)).externalName);
    await sdk.send(new DeleteSecurityGroupCommand({ GroupId: lonely }));
    expect(await client.observe(rule)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [rule]);
    expect(await client.delete(rule)).toBe(`security group rule ${rule.metadata.annotations![EXTERNAL_NAME]} was already gone`);
  });

  it('says what is missing when a reference has not filled the ids', async () => {
    const noGroup = ruleResource({ ...http, cidrIpv4: '10.0.0.0/8' });
    await expect(client.create(noGroup)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(/^securityGroupId is required/),
    });
    const noPeer = ruleResource({ securityGroupId: groupId, ...http });
    await expect(client.create(noPeer)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(/^one of cidrIpv4/),
    });
  });

  it('reports a group that does not exist as invalid input, with EC2\u2019s words', async () => {
    const mr = ruleResource({ securityGroupId: 'sg-0000000000000dead', ...http, cidrIpv4: '10.0.0.0/8' });
    await expect(client.create(mr)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(/^cannot authorize ingress rule in security group sg-0000000000000dead: InvalidGroup.NotFound/),
    });
  });
});
