// The Address API (an Elastic IP address): forProvider mirrors EC2's AllocateAddress input,
// atProvider mirrors DescribeAddresses output, with EC2's field names in camelCase (seed 001).
// An address is named by its allocation id, which is also what a NATGateway's allocationIdRef
// takes from it.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, immutable } from '#core/schema';
import { ec2KindApi, Region, Tags } from '../fields';

export const addressApi = ec2KindApi({
  kind: 'Address',
  plural: 'addresses',
  singular: 'address',
  shortNames: ['ec2eip'],
  description: 'An AWS EC2 Elastic IP address, allocated and kept in sync by Chronoplane. Its external name is its allocation ID.',
});

export const AddressParameters = Doc('The desired state of the Elastic IP address, in EC2\u2019s terms.', {
  region: Region('Elastic IP address'),
  domain: Type.Optional(
    immutable(
      Type.Union([Type.Literal('vpc'), Type.Literal('standard')], {
        default: 'vpc',
        description:
          'vpc (the default) for an address used in a VPC. standard was for EC2-Classic, which AWS has retired; Chronoplane needs the allocation ID only vpc addresses have. Set at creation.',
      }),
      'domain',
    ),
  ),
  publicIpv4Pool: Type.Optional(
    immutable(
      DocString(
        'The ID of an address pool you brought to AWS (BYOIP) to allocate from; Amazon\u2019s pool (amazon) when omitted, and the spec adopts what EC2 reports. Set at creation.',
        { maxLength: 64 },
      ),
      'publicIpv4Pool',
    ),
  ),
  networkBorderGroup: Type.Optional(
    immutable(
      DocString(
        'The zones from which AWS advertises the address, such as us-east-1 or a Local Zone group like us-west-2-lax-1; the region when omitted, and the spec adopts what EC2 reports. Set at creation.',
        { maxLength: 64 },
      ),
      'networkBorderGroup',
    ),
  ),
  tags: Tags('Elastic IP address'),
});
export type AddressParameters = Static<typeof AddressParameters>;

export const AddressObservation = Doc('The Elastic IP address as EC2 last reported it.', {
  allocationId: Type.Optional(DocString('The allocation ID: the address\u2019s ID, and its external name.')),
  publicIp: Type.Optional(DocString('The public IPv4 address.')),
  domain: Type.Optional(DocString('vpc or standard.')),
  associationId: Type.Optional(DocString('The ID of the association with an instance or network interface, while it is associated.')),
  instanceId: Type.Optional(DocString('The instance the address is associated with, if any.')),
  networkInterfaceId: Type.Optional(
    DocString('The network interface the address is associated with, if any (a NAT gateway\u2019s, for its address).'),
  ),
  networkInterfaceOwnerId: Type.Optional(DocString('The AWS account that owns that network interface.')),
  privateIpAddress: Type.Optional(DocString('The private IPv4 address the public address maps to while associated.')),
  publicIpv4Pool: Type.Optional(DocString('The pool the address was allocated from.')),
  networkBorderGroup: Type.Optional(DocString('The zones from which AWS advertises the address.')),
});
export type AddressObservation = Static<typeof AddressObservation>;
