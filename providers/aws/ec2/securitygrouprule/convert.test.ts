import { describe, expect, it } from 'vitest';
import type { SecurityGroupRule } from '@aws-sdk/client-ec2';
import {
  differences,
  earlierRule,
  hasPeer,
  ipPermissionFor,
  lateInitialize,
  ownerOf,
  protocolNumber,
  readinessOf,
  ruleRequestFor,
  sameContent,
  toAtProvider,
} from './convert';
import type { SecurityGroupRuleParameters } from './schema';

const spec: SecurityGroupRuleParameters = {
  region: 'us-east-1',
  securityGroupId: 'sg-1',
  type: 'ingress',
  ipProtocol: 'tcp',
  fromPort: 443,
  toPort: 443,
  cidrIpv4: '10.0.0.0/16',
  description: 'https',
};
const rule: SecurityGroupRule = {
  SecurityGroupRuleId: 'sgr-1',
  GroupId: 'sg-1',
  GroupOwnerId: '123',
  IsEgress: false,
  IpProtocol: 'tcp',
  FromPort: 443,
  ToPort: 443,
  CidrIpv4: '10.0.0.0/16',
  Description: 'https',
  Tags: [{ Key: 'chronoplane.io/uid', Value: 'u-1' }],
};
const desiredTags = { 'chronoplane.io/uid': 'u-1' };

describe('security group rule conversion', () => {
  it.each([
    ['tcp', '6'],
    ['6', '6'],
    ['UDP', '17'],
    ['icmpv6', '58'],
    ['-1', '-1'],
    ['50', '50'],
  ])('protocol %s is number %s', (name, number) => {
    expect(protocolNumber(name)).toBe(number);
  });

  it.each([
    {
      name: 'an IPv4 rule with ports and description',
      spec,
      want: { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: '10.0.0.0/16', Description: 'https' }] },
    },
    {
      name: 'an all-protocol rule without ports',
      spec: {
        ...spec,
        ipProtocol: '-1',
        fromPort: undefined,
        toPort: undefined,
        cidrIpv4: undefined,
        cidrIpv6: '::/0',
        description: undefined,
      },
      want: { IpProtocol: '-1', Ipv6Ranges: [{ CidrIpv6: '::/0', Description: undefined }] },
    },
    {
      name: 'an ICMP rule for all types',
      spec: { ...spec, ipProtocol: 'icmp', fromPort: undefined, toPort: undefined, cidrIpv4: undefined, referencedGroupId: 'sg-2' },
      want: { IpProtocol: 'icmp', FromPort: -1, ToPort: -1, UserIdGroupPairs: [{ GroupId: 'sg-2', Description: 'https' }] },
    },
    {
      name: 'a prefix-list rule',
      spec: { ...spec, cidrIpv4: undefined, prefixListId: 'pl-1', description: '' },
      want: { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, PrefixListIds: [{ PrefixListId: 'pl-1', Description: undefined }] },
    },
  ])('builds the IpPermission for $name', ({ spec: s, want }) => {
    expect(ipPermissionFor(s)).toEqual(want);
  });

  it('knows when the peer is still missing', () => {
    expect(hasPeer(spec)).toBe(true);
    expect(hasPeer({ ...spec, cidrIpv4: undefined })).toBe(false);
  });

  it('rewrites a rule from EC2\u2019s own view, changing only the description', () => {
    const ref = {
      ...rule,
      CidrIpv4: undefined,
      IpProtocol: '-1',
      FromPort: -1,
      ToPort: -1,
      ReferencedGroupInfo: { GroupId: 'sg-2', UserId: '1' },
    };
    expect(ruleRequestFor(ref, 'new')).toEqual({
      IpProtocol: '-1',
      FromPort: -1,
      ToPort: -1,
      CidrIpv4: undefined,
      CidrIpv6: undefined,
      PrefixListId: undefined,
      ReferencedGroupId: 'sg-2',
      Description: 'new',
    });
    expect(ruleRequestFor(rule, undefined).Description).toBe('');
  });

  it.each([
    { name: 'the same rule', rule, want: true },
    { name: 'the same rule, protocol by number', rule: { ...rule, IpProtocol: '6' }, want: true },
    { name: 'another direction', rule: { ...rule, IsEgress: true }, want: false },
    { name: 'another port', rule: { ...rule, ToPort: 444 }, want: false },
    { name: 'another protocol', rule: { ...rule, IpProtocol: 'udp' }, want: false },
    { name: 'another CIDR', rule: { ...rule, CidrIpv4: '10.1.0.0/16' }, want: false },
    {
      name: 'a group peer instead of a CIDR',
      rule: { ...rule, CidrIpv4: undefined, ReferencedGroupInfo: { GroupId: 'sg-2' } },
      want: false,
    },
    { name: 'another description (not content)', rule: { ...rule, Description: 'x' }, want: true },
  ])('sameContent: $name is $want', ({ rule: r, want }) => {
    expect(sameContent(spec, r)).toBe(want);
  });

  it('ignores ports for protocols that have none', () => {
    const all = { ...spec, ipProtocol: '-1', fromPort: undefined, toPort: undefined };
    expect(sameContent(all, { ...rule, IpProtocol: '-1', FromPort: -1, ToPort: -1 })).toBe(true);
    expect(sameContent({ ...all, fromPort: 0, toPort: 0 }, { ...rule, IpProtocol: '-1', FromPort: -1, ToPort: -1 })).toBe(true);
  });

  it.each([
    { name: 'adopts our own rule', rules: [rule], want: { adopt: rule } },
    { name: 'adopts an untagged twin', rules: [{ ...rule, Tags: [] }], want: { adopt: { ...rule, Tags: [] } } },
    {
      name: 'prefers ours over an untagged twin',
      rules: [{ ...rule, SecurityGroupRuleId: 'sgr-0', Tags: undefined }, rule],
      want: { adopt: rule },
    },
    {
      name: 'reports a twin that belongs to someone else',
      rules: [{ ...rule, Tags: [{ Key: 'chronoplane.io/uid', Value: 'u-2' }] }],
      want: { conflict: { ...rule, Tags: [{ Key: 'chronoplane.io/uid', Value: 'u-2' }] } },
    },
    { name: 'finds nothing among other rules', rules: [{ ...rule, FromPort: 80, ToPort: 80 }], want: undefined },
  ])('earlierRule $name', ({ rules, want }) => {
    expect(earlierRule(spec, 'u-1', rules)).toEqual(want);
  });

  it('names the owner of a conflicting rule', () => {
    const tags = [
      { Key: 'crossplane-kind', Value: 'securitygrouprule.ec2.aws.chronoplane.io' },
      { Key: 'crossplane-namespace', Value: 'team-a' },
      { Key: 'crossplane-name', Value: 'https' },
    ];
    expect(ownerOf({ ...rule, Tags: tags })).toBe('it belongs to securitygrouprule.ec2.aws.chronoplane.io team-a/https');
    expect(ownerOf({ ...rule, Tags: [{ Key: 'Name', Value: 'x' }] })).toBe('it carries tags of its own');
  });

  it('maps DescribeSecurityGroupRules output to atProvider', () => {
    expect(toAtProvider({ ...rule, ReferencedGroupInfo: { GroupId: 'sg-2', UserId: '123' } })).toEqual({
      securityGroupRuleId: 'sgr-1',
      securityGroupRuleArn: undefined,
      groupId: 'sg-1',
      groupOwnerId: '123',
      isEgress: false,
      ipProtocol: 'tcp',
      fromPort: 443,
      toPort: 443,
      cidrIpv4: '10.0.0.0/16',
      cidrIpv6: undefined,
      prefixListId: undefined,
      referencedGroupInfo: {
        groupId: 'sg-2',
        userId: '123',
        vpcId: undefined,
        vpcPeeringConnectionId: undefined,
        peeringStatus: undefined,
      },
      description: 'https',
    });
  });

  it('is ready as soon as EC2 lists it', () => {
    expect(readinessOf(rule)).toBe('Available');
  });

  it('late-initializes only the ports the spec left empty', () => {
    const all = { ...spec, ipProtocol: '-1', fromPort: undefined, toPort: undefined };
    expect(lateInitialize(all, { ...rule, IpProtocol: '-1', FromPort: -1, ToPort: -1 })).toEqual({ fromPort: -1, toPort: -1 });
    expect(lateInitialize(spec, rule)).toBeUndefined();
  });

  it.each([
    { name: 'matching description and tags', spec, rule, want: [] },
    { name: 'no description on either side', spec: { ...spec, description: undefined }, rule: { ...rule, Description: '' }, want: [] },
    { name: 'a changed description', spec: { ...spec, description: 'tls' }, rule, want: ['description: want "tls", have "https"'] },
    { name: 'a description to clear', spec: { ...spec, description: undefined }, rule, want: ['description: want "", have "https"'] },
    {
      name: 'a tag added outside Chronoplane',
      spec,
      rule: { ...rule, Tags: [...rule.Tags!, { Key: 'rogue', Value: '1' }] },
      want: ['tag rogue: not in spec'],
    },
  ])('differences with $name', ({ spec: s, rule: r, want }) => {
    expect(differences(s, r, desiredTags)).toEqual(want);
  });
});
