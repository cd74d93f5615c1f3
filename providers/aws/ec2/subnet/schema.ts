// The Subnet API: forProvider mirrors EC2's CreateSubnet and ModifySubnetAttribute inputs,
// atProvider mirrors DescribeSubnets output, with EC2's field names in camelCase (seed 001).
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, immutable, withRules, type CelRule } from '#core/schema';
import { CidrBlockState, cidrNetworkRule, ec2KindApi, ImmutableId, Region, Tags } from '../fields';

export const subnetApi = ec2KindApi({
  kind: 'Subnet',
  plural: 'subnets',
  singular: 'subnet',
  shortNames: ['ec2subnet'],
  description: 'An AWS EC2 subnet of a VPC, provisioned and kept in sync by Chronoplane.',
});

/**
 * A zone's name is its region's and a letter (us-east-1a), or a Local Zone's beside it
 * (us-west-2-lax-1a): one of another region is a typo the API server can see. Used by Instance too.
 */
export const AVAILABILITY_ZONE_IN_REGION: CelRule = {
  rule: '!has(self.availabilityZone) || self.availabilityZone.startsWith(self.region)',
  message: 'availabilityZone must be a zone of the region: its name starts with the region\u2019s, as us-east-1a does with us-east-1',
};

export const SubnetParameters = withRules(
  Doc('The desired state of the subnet, in EC2\u2019s terms.', {
    region: Region('subnet'),
    vpcId: ImmutableId('vpcId', 'The ID of the VPC the subnet belongs to. Set it, or let vpcIdRef or vpcIdSelector fill it in.'),
    cidrBlock: withRules(
      immutable(
        DocString(
          'The IPv4 network range of the subnet in CIDR notation, such as 10.0.1.0/24. It must lie within the VPC\u2019s range and not overlap its other subnets; EC2 accepts netmasks from /16 to /28.',
        ),
        'cidrBlock',
      ),
      cidrNetworkRule('cidrBlock', 4, '10.0.1.0/24'),
      // EC2 refuses any other size at create, and moto takes a /29: refused here, the mistake
      // shows at once and the same way against either.
      {
        rule: '!isCIDR(self) || (cidr(self).prefixLength() >= 16 && cidr(self).prefixLength() <= 28)',
        message: 'cidrBlock is too large or too small: EC2 accepts netmasks from /16 to /28',
      },
    ),
    availabilityZone: Type.Optional(
      immutable(
        DocString(
          'The Availability Zone of the subnet, such as us-east-1a. Set at creation; EC2 picks one when omitted, and the spec adopts it.',
          {
            maxLength: 64,
          },
        ),
        'availabilityZone',
      ),
    ),
    mapPublicIpOnLaunch: Type.Optional(
      Type.Boolean({ description: 'Whether network interfaces created in the subnet get a public IPv4 address. EC2 defaults to false.' }),
    ),
    assignIpv6AddressOnCreation: Type.Optional(
      Type.Boolean({
        description:
          'Whether network interfaces created in the subnet get an IPv6 address. EC2 defaults to false, and allows true only when the subnet has an IPv6 CIDR block.',
      }),
    ),
    tags: Tags('subnet'),
  }),
  AVAILABILITY_ZONE_IN_REGION,
);
export type SubnetParameters = Static<typeof SubnetParameters>;

const SubnetIpv6CidrBlockAssociation = Doc('An IPv6 CIDR block associated with the subnet.', {
  associationId: Type.Optional(DocString('The association ID.')),
  ipv6CidrBlock: Type.Optional(DocString('The IPv6 CIDR block.')),
  ipv6CidrBlockState: CidrBlockState,
});

export const SubnetObservation = Doc('The subnet as EC2 last reported it.', {
  subnetId: Type.Optional(DocString('The ID of the subnet.')),
  subnetArn: Type.Optional(DocString('The Amazon Resource Name (ARN) of the subnet.')),
  state: Type.Optional(DocString('pending, available, unavailable, failed or failed-insufficient-capacity.')),
  vpcId: Type.Optional(DocString('The ID of the VPC the subnet is in.')),
  availabilityZoneId: Type.Optional(DocString('The ID of the subnet\u2019s Availability Zone, such as use1-az1; stable across accounts.')),
  availableIpAddressCount: Type.Optional(
    Type.Integer({
      description: 'The number of unused private IPv4 addresses in the subnet; addresses of stopped instances count as used.',
    }),
  ),
  defaultForAz: Type.Optional(Type.Boolean({ description: 'Whether this is the default subnet of its Availability Zone.' })),
  ownerId: Type.Optional(DocString('The AWS account that owns the subnet.')),
  ipv6CidrBlockAssociationSet: Type.Optional(
    Type.Array(SubnetIpv6CidrBlockAssociation, { description: 'The IPv6 CIDR blocks of the subnet.' }),
  ),
});
export type SubnetObservation = Static<typeof SubnetObservation>;
