// The RouteTable API: forProvider mirrors EC2's CreateRouteTable input, atProvider mirrors
// DescribeRouteTables output, with EC2's field names in camelCase (seed 001, "Field Names").
// Routes and associations are kinds of their own (Route, RouteTableAssociation), so they are
// only observed here, never managed inline.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString } from '#core/schema';
import { ec2KindApi, ImmutableId, Region, Tags } from '../fields';

export const routeTableApi = ec2KindApi({
  kind: 'RouteTable',
  plural: 'routetables',
  singular: 'routetable',
  shortNames: ['ec2rtb'],
  description: 'An AWS EC2 route table of a VPC, provisioned and kept in sync by Chronoplane.',
});

export const RouteTableParameters = Doc('The desired state of the route table, in EC2\u2019s terms.', {
  region: Region('route table'),
  vpcId: ImmutableId('vpcId', 'The ID of the VPC the route table belongs to. Set at creation; or use vpcIdRef or vpcIdSelector.'),
  tags: Tags('route table'),
});
export type RouteTableParameters = Static<typeof RouteTableParameters>;

const RouteTableRoute = Doc('A route in the route table, including those managed by Route objects.', {
  destinationCidrBlock: Type.Optional(DocString('The IPv4 CIDR block the route matches.')),
  gatewayId: Type.Optional(DocString('The internet or virtual private gateway the route targets, or local for the VPC route.')),
  natGatewayId: Type.Optional(DocString('The NAT gateway the route targets.')),
  instanceId: Type.Optional(DocString('The instance the route targets.')),
  networkInterfaceId: Type.Optional(DocString('The network interface the route targets.')),
  vpcPeeringConnectionId: Type.Optional(DocString('The VPC peering connection the route targets.')),
  state: Type.Optional(DocString('active, or blackhole when the target is gone.')),
  origin: Type.Optional(DocString('How the route was made: CreateRouteTable, CreateRoute or EnableVgwRoutePropagation.')),
});

const RouteTableAssociationObservation = Doc('An association of the route table with a subnet or a gateway.', {
  routeTableAssociationId: Type.Optional(DocString('The ID of the association.')),
  subnetId: Type.Optional(DocString('The associated subnet, if any.')),
  gatewayId: Type.Optional(DocString('The associated internet or virtual private gateway, if any.')),
  main: Type.Optional(Type.Boolean({ description: 'Whether this is the VPC\u2019s main route table association.' })),
  associationState: Type.Optional(DocString('associating, associated, disassociating, disassociated or failed.')),
});

export const RouteTableObservation = Doc('The route table as EC2 last reported it.', {
  routeTableId: Type.Optional(DocString('The ID of the route table.')),
  ownerId: Type.Optional(DocString('The AWS account that owns the route table.')),
  vpcId: Type.Optional(DocString('The ID of the VPC.')),
  routes: Type.Optional(Type.Array(RouteTableRoute, { description: 'The routes in the route table.' })),
  associations: Type.Optional(Type.Array(RouteTableAssociationObservation, { description: 'The associations of the route table.' })),
});
export type RouteTableObservation = Static<typeof RouteTableObservation>;
