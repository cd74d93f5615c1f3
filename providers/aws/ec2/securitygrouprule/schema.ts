// The SecurityGroupRule API: one inbound or outbound rule of a security group, its own kind
// (seed 001) because EC2 gives each rule an id (sgr-…), tags and a lifecycle of its own.
// forProvider mirrors EC2's SecurityGroupRuleRequest with a type for the direction; atProvider
// mirrors DescribeSecurityGroupRules output, with EC2's field names in camelCase.
import { Type, type Static } from '@sinclair/typebox';
import { celHasValueOrReference } from '#core/references/fields';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { cidrNetworkRule, ec2KindApi, ImmutableId, Region, Tags } from '../fields';

export const securityGroupRuleApi = ec2KindApi({
  kind: 'SecurityGroupRule',
  plural: 'securitygrouprules',
  singular: 'securitygrouprule',
  shortNames: ['ec2sgr'],
  description: 'One inbound or outbound rule of an AWS EC2 security group, provisioned and kept in sync by Chronoplane.',
});

/** Protocol names EC2 knows, -1 for all, or a protocol number 0-255. */
const PROTOCOL_PATTERN = '^(tcp|udp|icmp|icmpv6|-1|[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])$';

const Port = (field: string, description: string) =>
  Type.Optional(immutable(Type.Integer({ description, minimum: -1, maximum: 65535 }), field));

/** A network in canonical CIDR notation, so that what we send is what EC2 reports back. */
const Cidr = (field: string, family: 4 | 6, example: string, maxLength: number) =>
  Type.Optional(
    withRules(
      immutable(
        DocString(
          `The IPv${family} range the rule allows, in CIDR notation such as ${example}. Exactly one of cidrIpv4, cidrIpv6, referencedGroupId and prefixListId is set.`,
          { maxLength },
        ),
        field,
      ),
      cidrNetworkRule(field, family, example),
    ),
  );

const TCP_OR_UDP = "self.ipProtocol in ['tcp', 'udp', '6', '17']";
const ICMP = "self.ipProtocol in ['icmp', 'icmpv6', '1', '58']";

export const SecurityGroupRuleParameters = withRules(
  Doc('The desired state of the security group rule, in EC2\u2019s terms.', {
    region: Region('security group rule'),
    securityGroupId: ImmutableId(
      'securityGroupId',
      'The ID of the security group the rule belongs to (EC2\u2019s GroupId). Set it, or let securityGroupIdRef or securityGroupIdSelector fill it in.',
    ),
    type: immutable(
      Type.Union([Type.Literal('ingress'), Type.Literal('egress')], {
        description: 'ingress for an inbound rule, egress for an outbound one.',
      }),
      'type',
    ),
    ipProtocol: immutable(
      DocString(
        'The IP protocol: tcp, udp, icmp, icmpv6, -1 for all protocols, or a protocol number such as 50. With -1, or a number other than tcp (6), udp (17), icmp (1) and icmpv6 (58), every port is allowed and the ports are ignored.',
        { pattern: PROTOCOL_PATTERN },
      ),
      'ipProtocol',
    ),
    fromPort: Port(
      'fromPort',
      'The start of the port range for tcp and udp, or the ICMP type for icmp and icmpv6 (-1 for all types). Required for tcp and udp; filled in from EC2 when omitted.',
    ),
    toPort: Port(
      'toPort',
      'The end of the port range for tcp and udp, or the ICMP code for icmp and icmpv6 (-1 for all codes). Required for tcp and udp; filled in from EC2 when omitted.',
    ),
    cidrIpv4: Cidr('cidrIpv4', 4, '10.0.0.0/16', 18),
    cidrIpv6: Cidr('cidrIpv6', 6, '2001:db8::/32', 43),
    referencedGroupId: ImmutableId(
      'referencedGroupId',
      'The ID of the security group whose members the rule allows. Set it, or let referencedGroupIdRef or referencedGroupIdSelector fill it in. Exactly one of cidrIpv4, cidrIpv6, referencedGroupId and prefixListId is set.',
    ),
    prefixListId: ImmutableId(
      'prefixListId',
      'The ID of the managed prefix list the rule allows, such as pl-12345678. Exactly one of cidrIpv4, cidrIpv6, referencedGroupId and prefixListId is set.',
    ),
    description: Type.Optional(
      withRules(DocString('A description of the rule, up to 255 characters. Can be changed.', { maxLength: 255 }), {
        // What EC2 takes in a rule's description; anything else (a newline, a non-ASCII letter)
        // it refuses, and moto takes and then cannot list.
        rule: "self.matches(r'^[a-zA-Z0-9 ._:/()#,@\\[\\]+=;{}!$*-]*$')",
        message: 'description may contain only letters a-z and A-Z, digits, spaces and ._-:/()#,@[]+=;{}!$*',
      }),
    ),
    tags: Tags('security group rule'),
  }),
  {
    // referencedGroupId may come from referencedGroupIdRef or referencedGroupIdSelector (declared in index.ts).
    rule:
      '(has(self.cidrIpv4) ? 1 : 0) + (has(self.cidrIpv6) ? 1 : 0) + (has(self.prefixListId) ? 1 : 0)' +
      ` + (${celHasValueOrReference({ field: 'referencedGroupId' })} ? 1 : 0) == 1`,
    message: 'exactly one of cidrIpv4, cidrIpv6, prefixListId and referencedGroupId (or its Ref or Selector) is required',
  },
  { rule: `!(${TCP_OR_UDP}) || (has(self.fromPort) && has(self.toPort))`, message: 'tcp and udp rules need fromPort and toPort' },
  {
    rule: `!(${TCP_OR_UDP}) || !has(self.fromPort) || !has(self.toPort) || (self.fromPort >= 0 && self.fromPort <= self.toPort)`,
    message: 'for tcp and udp, fromPort must be between 0 and toPort',
  },
  {
    // An ICMP type and code are a byte each; the port range the schema allows does not apply.
    rule: `!(${ICMP}) || ((!has(self.fromPort) || self.fromPort <= 255) && (!has(self.toPort) || self.toPort <= 255))`,
    message: 'for icmp and icmpv6, fromPort (the type) and toPort (the code) are -1 or 0 to 255',
  },
);
export type SecurityGroupRuleParameters = Static<typeof SecurityGroupRuleParameters>;

const ReferencedSecurityGroup = Doc('The security group a rule refers to.', {
  groupId: Type.Optional(DocString('The ID of the referenced security group.')),
  userId: Type.Optional(DocString('The AWS account that owns the referenced security group.')),
  vpcId: Type.Optional(DocString('The VPC of the referenced security group, when it is in a peered VPC.')),
  vpcPeeringConnectionId: Type.Optional(DocString('The VPC peering connection, when the group is in a peered VPC.')),
  peeringStatus: Type.Optional(DocString('The status of the VPC peering connection, if any.')),
});

export const SecurityGroupRuleObservation = Doc('The security group rule as EC2 last reported it.', {
  securityGroupRuleId: Type.Optional(DocString('The ID of the rule (sgr-…).')),
  securityGroupRuleArn: Type.Optional(DocString('The Amazon Resource Name (ARN) of the rule.')),
  groupId: Type.Optional(DocString('The ID of the security group the rule belongs to.')),
  groupOwnerId: Type.Optional(DocString('The AWS account that owns the security group.')),
  isEgress: Type.Optional(Type.Boolean({ description: 'Whether this is an outbound rule.' })),
  ipProtocol: Type.Optional(DocString('The IP protocol, as EC2 names it: tcp, udp, icmp, icmpv6, -1 or a number.')),
  fromPort: Type.Optional(Type.Integer({ description: 'The start of the port range, or the ICMP type; -1 means all.' })),
  toPort: Type.Optional(Type.Integer({ description: 'The end of the port range, or the ICMP code; -1 means all.' })),
  cidrIpv4: Type.Optional(DocString('The IPv4 range of the rule.')),
  cidrIpv6: Type.Optional(DocString('The IPv6 range of the rule.')),
  prefixListId: Type.Optional(DocString('The prefix list of the rule.')),
  referencedGroupInfo: Type.Optional(ReferencedSecurityGroup),
  description: Type.Optional(DocString('The description of the rule.')),
});
export type SecurityGroupRuleObservation = Static<typeof SecurityGroupRuleObservation>;
