// The VPC API: forProvider mirrors EC2's CreateVpc and ModifyVpcAttribute inputs, atProvider
// mirrors DescribeVpcs output, with EC2's field names in camelCase (seed 001, "Field Names").
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { CidrBlockState, cidrNetworkRule, ec2KindApi, Region, Tags } from '../fields';

export const vpcApi = ec2KindApi({
  kind: 'VPC',
  plural: 'vpcs',
  singular: 'vpc',
  shortNames: ['ec2vpc'],
  description: 'An AWS EC2 Virtual Private Cloud, provisioned and kept in sync by Chronoplane.',
});

export const VpcParameters = Doc('The desired state of the VPC, in EC2\u2019s terms.', {
  region: Region('VPC'),
  cidrBlock: withRules(
    immutable(
      DocString('The IPv4 network range of the VPC in CIDR notation, such as 10.0.0.0/16. EC2 accepts netmasks from /16 to /28.'),
      'cidrBlock',
    ),
    cidrNetworkRule('cidrBlock', 4, '10.0.0.0/16'),
  ),
  enableDnsSupport: Type.Optional(
    Type.Boolean({ description: 'Whether the Amazon DNS server resolves names in the VPC. EC2 defaults to true.' }),
  ),
  enableDnsHostnames: Type.Optional(
    Type.Boolean({ description: 'Whether instances with public IP addresses get public DNS hostnames. EC2 defaults to false.' }),
  ),
  instanceTenancy: Type.Optional(
    immutable(
      Type.Union([Type.Literal('default'), Type.Literal('dedicated'), Type.Literal('host')], {
        description: 'The tenancy of instances launched into the VPC. Set at creation; filled in from EC2 when omitted.',
      }),
      'instanceTenancy',
    ),
  ),
  tags: Tags('VPC'),
});
export type VpcParameters = Static<typeof VpcParameters>;

const VpcCidrBlockAssociation = Doc('An IPv4 CIDR block associated with the VPC.', {
  associationId: Type.Optional(DocString('The association ID.')),
  cidrBlock: Type.Optional(DocString('The IPv4 CIDR block.')),
  cidrBlockState: CidrBlockState,
});

export const VpcObservation = Doc('The VPC as EC2 last reported it.', {
  vpcId: Type.Optional(DocString('The ID of the VPC.')),
  state: Type.Optional(DocString('pending or available.')),
  ownerId: Type.Optional(DocString('The AWS account that owns the VPC.')),
  dhcpOptionsId: Type.Optional(DocString('The ID of the DHCP options set associated with the VPC.')),
  isDefault: Type.Optional(Type.Boolean({ description: 'Whether this is the region\u2019s default VPC.' })),
  cidrBlockAssociationSet: Type.Optional(Type.Array(VpcCidrBlockAssociation, { description: 'The IPv4 CIDR blocks of the VPC.' })),
});
export type VpcObservation = Static<typeof VpcObservation>;
