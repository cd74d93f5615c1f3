// The NATGateway API: forProvider mirrors EC2's CreateNatGateway input, atProvider mirrors
// DescribeNatGateways output, with EC2's field names in camelCase (seed 001). A public gateway
// takes an Elastic IP address by its allocation ID, which allocationIdRef takes from an Address.
import { Type, type Static } from '@sinclair/typebox';
import { celHasValueOrReference } from '#core/references/fields';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { ec2KindApi, ImmutableId, Region, Tags } from '../fields';

export const natGatewayApi = ec2KindApi({
  kind: 'NATGateway',
  plural: 'natgateways',
  singular: 'natgateway',
  shortNames: ['ec2nat'],
  description: 'An AWS EC2 NAT gateway in a subnet, provisioned and kept in sync by Chronoplane.',
});

// allocationId may come from allocationIdRef or allocationIdSelector (declared in index.ts);
// connectivityType always has a value once the API server applied its default.
const hasAllocation = celHasValueOrReference({ field: 'allocationId' });
const isPrivate = "has(self.connectivityType) && self.connectivityType == 'private'";

export const NatGatewayParameters = withRules(
  Doc('The desired state of the NAT gateway, in EC2\u2019s terms.', {
    region: Region('NAT gateway'),
    subnetId: ImmutableId(
      'subnetId',
      'The ID of the subnet the gateway lives in (a public subnet, for a public gateway). Set at creation; or use subnetIdRef or subnetIdSelector.',
    ),
    allocationId: ImmutableId(
      'allocationId',
      'The allocation ID of the Elastic IP address a public gateway uses. Set at creation; or use allocationIdRef or allocationIdSelector to take it from an Address.',
    ),
    connectivityType: Type.Optional(
      immutable(
        Type.Union([Type.Literal('public'), Type.Literal('private')], {
          default: 'public',
          description:
            'public (the default) for a gateway that reaches the internet through its Elastic IP address; private for one that reaches other VPCs and on-premises networks only, with no Elastic IP address. Set at creation.',
        }),
        'connectivityType',
      ),
    ),
    tags: Tags('NAT gateway'),
  }),
  {
    rule: `(${isPrivate}) || ${hasAllocation}`,
    message: 'a public NAT gateway needs allocationId, allocationIdRef or allocationIdSelector',
  },
  {
    rule: `!(${isPrivate}) || !(${hasAllocation})`,
    message: 'a private NAT gateway takes no allocationId, allocationIdRef or allocationIdSelector',
  },
);
export type NatGatewayParameters = Static<typeof NatGatewayParameters>;

const NatGatewayAddress = Doc('An IP address of the gateway.', {
  allocationId: Type.Optional(DocString('The allocation ID of its Elastic IP address (public gateways).')),
  associationId: Type.Optional(DocString('The ID of the association of that Elastic IP address with the gateway.')),
  networkInterfaceId: Type.Optional(DocString('The ID of the gateway\u2019s network interface.')),
  privateIp: Type.Optional(DocString('The private IPv4 address.')),
  publicIp: Type.Optional(DocString('The public IPv4 address (public gateways).')),
  isPrimary: Type.Optional(Type.Boolean({ description: 'Whether this is the gateway\u2019s primary address.' })),
  status: Type.Optional(DocString('assigning, unassigning, associating, disassociating, succeeded or failed.')),
  failureMessage: Type.Optional(DocString('Why assigning or associating the address failed.')),
});

export const NatGatewayObservation = Doc('The NAT gateway as EC2 last reported it.', {
  natGatewayId: Type.Optional(DocString('The ID of the NAT gateway.')),
  state: Type.Optional(DocString('pending, available, failed, deleting or deleted.')),
  failureCode: Type.Optional(DocString('Why the gateway failed, as a code, such as Gateway.NotAttached.')),
  failureMessage: Type.Optional(DocString('Why the gateway failed, in EC2\u2019s words.')),
  vpcId: Type.Optional(DocString('The ID of the VPC the gateway is in.')),
  subnetId: Type.Optional(DocString('The ID of the subnet the gateway is in.')),
  connectivityType: Type.Optional(DocString('public or private.')),
  createTime: Type.Optional(DocString('When the gateway was created (RFC 3339).')),
  natGatewayAddresses: Type.Optional(Type.Array(NatGatewayAddress, { description: 'The IP addresses of the gateway.' })),
});
export type NatGatewayObservation = Static<typeof NatGatewayObservation>;
