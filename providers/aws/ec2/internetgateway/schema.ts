// The InternetGateway API: forProvider mirrors EC2's CreateInternetGateway input plus the one
// attachment AttachInternetGateway makes (vpcId); atProvider mirrors DescribeInternetGateways
// output, with EC2's field names in camelCase (seed 001, "Field Names").
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString } from '#core/schema';
import { ec2KindApi, Region, Tags } from '../fields';

export const internetGatewayApi = ec2KindApi({
  kind: 'InternetGateway',
  plural: 'internetgateways',
  singular: 'internetgateway',
  shortNames: ['ec2igw'],
  description: 'An AWS EC2 internet gateway and its VPC attachment, provisioned and kept in sync by Chronoplane.',
});

export const InternetGatewayParameters = Doc('The desired state of the internet gateway, in EC2\u2019s terms.', {
  region: Region('internet gateway'),
  // Mutable on purpose: an attachment is not part of the gateway's identity, and EC2 can move
  // a gateway by detaching it from one VPC and attaching it to another.
  vpcId: Type.Optional(
    DocString(
      'The ID of the VPC to attach the gateway to; changing it moves the gateway to the new VPC, and leaving it unset keeps the gateway detached. A VPC can have only one internet gateway.',
    ),
  ),
  tags: Tags('internet gateway'),
});
export type InternetGatewayParameters = Static<typeof InternetGatewayParameters>;

const InternetGatewayAttachment = Doc('An attachment of the gateway to a VPC.', {
  vpcId: Type.Optional(DocString('The ID of the VPC.')),
  state: Type.Optional(DocString('The state of the attachment: attaching, attached (EC2 reports available), detaching or detached.')),
});

export const InternetGatewayObservation = Doc('The internet gateway as EC2 last reported it.', {
  internetGatewayId: Type.Optional(DocString('The ID of the internet gateway.')),
  ownerId: Type.Optional(DocString('The AWS account that owns the internet gateway.')),
  attachments: Type.Optional(Type.Array(InternetGatewayAttachment, { description: 'The VPCs the gateway is attached to: at most one.' })),
});
export type InternetGatewayObservation = Static<typeof InternetGatewayObservation>;
