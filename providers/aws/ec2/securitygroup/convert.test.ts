import { describe, expect, it } from 'vitest';
import type { SecurityGroupRule } from '@aws-sdk/client-ec2';
import { carriesUid } from '../../tags';
import { defaultEgressRuleIds, differences, groupNameFor, lateInitialize, readinessOf, toAtProvider } from './convert';
import type { SecurityGroupParameters } from './schema';

const spec: SecurityGroupParameters = { region: 'us-east-1', description: 'web servers', tags: { team: 'net' } };
const group = {
  GroupId: 'sg-1',
  GroupName: 'web',
  Description: 'web servers',
  OwnerId: '123',
  VpcId: 'vpc-1',
  SecurityGroupArn: 'arn:aws:ec2:us-east-1:123:security-group/sg-1',
  IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
  IpPermissionsEgress: [{ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
  Tags: [
    { Key: 'team', Value: 'net' },
    { Key: 'crossplane-name', Value: 'web' },
  ],
};
const desiredTags = { team: 'net', 'crossplane-name': 'web' };

describe('security group conversion', () => {
  it('maps DescribeSecurityGroups output to atProvider, without the rules', () => {
    expect(toAtProvider(group)).toEqual({
      groupId: 'sg-1',
      groupName: 'web',
      ownerId: '123',
      vpcId: 'vpc-1',
      securityGroupArn: 'arn:aws:ec2:us-east-1:123:security-group/sg-1',
    });
  });

  it('is ready as soon as EC2 lists it', () => {
    expect(readinessOf(group)).toBe('Available');
  });

  it.each([
    { groupName: undefined, objectName: 'web', want: 'web' },
    { groupName: 'custom', objectName: 'web', want: 'custom' },
  ])('asks EC2 for the name $want when groupName is $groupName', ({ groupName, objectName, want }) => {
    expect(groupNameFor({ ...spec, groupName }, objectName)).toBe(want);
  });

  it.each([
    { name: 'fills the default name and VPC', spec, want: { groupName: 'web', vpcId: 'vpc-1' } },
    { name: 'keeps what the spec says', spec: { ...spec, groupName: 'web', vpcId: 'vpc-1' }, want: undefined },
    { name: 'fills only the empty field', spec: { ...spec, vpcId: 'vpc-1' }, want: { groupName: 'web' } },
  ])('late-initialization $name', ({ spec: s, want }) => {
    expect(lateInitialize(s, group)).toEqual(want);
  });

  it('is up to date when the tags match, whatever rules the group has', () => {
    expect(differences(group, desiredTags)).toEqual([]);
    expect(differences({ ...group, IpPermissions: [], IpPermissionsEgress: [] }, desiredTags)).toEqual([]);
  });

  it('reports changed tags and tags added outside Chronoplane', () => {
    const drifted = { ...group, Tags: [...group.Tags, { Key: 'rogue', Value: '1' }] };
    expect(differences(drifted, { ...desiredTags, team: 'platform' })).toEqual(['tag team: want "platform"', 'tag rogue: not in spec']);
  });

  it.each([
    { tags: [{ Key: 'chronoplane.io/uid', Value: 'u-1' }], want: true },
    { tags: [{ Key: 'chronoplane.io/uid', Value: 'u-2' }], want: false },
    { tags: [{ Key: 'Name', Value: 'u-1' }], want: false },
    { tags: undefined, want: false },
  ])('carriesUid($tags) is $want', ({ tags, want }) => {
    expect(carriesUid(tags, 'u-1')).toBe(want);
  });

  it('picks only EC2\u2019s untagged allow-all egress rules to revoke', () => {
    const rule = (id: string, r: Partial<SecurityGroupRule>): SecurityGroupRule => ({
      SecurityGroupRuleId: id,
      IsEgress: true,
      IpProtocol: '-1',
      FromPort: -1,
      ToPort: -1,
      Tags: [],
      ...r,
    });
    const rules = [
      rule('sgr-v4', { CidrIpv4: '0.0.0.0/0' }),
      rule('sgr-v6', { CidrIpv6: '::/0' }),
      rule('sgr-ingress', { CidrIpv4: '0.0.0.0/0', IsEgress: false }),
      rule('sgr-tcp', { CidrIpv4: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443 }),
      rule('sgr-narrow', { CidrIpv4: '10.0.0.0/8' }),
      rule('sgr-managed', { CidrIpv4: '0.0.0.0/0', Tags: [{ Key: 'chronoplane.io/uid', Value: 'x' }] }),
    ];
    expect(defaultEgressRuleIds(rules)).toEqual(['sgr-v4', 'sgr-v6']);
  });
});
