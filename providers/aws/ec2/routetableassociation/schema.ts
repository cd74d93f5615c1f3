// The RouteTableAssociation API: forProvider mirrors EC2's AssociateRouteTable input, atProvider
// the association as DescribeRouteTables lists it, with EC2's field names in camelCase (seed
// 001). Nothing of an association can change: a new table or subnet means a new association.
import { Type, type Static } from '@sinclair/typebox';
import { celHasValueOrReference } from '#core/references/fields';
import { Doc, DocString, withRules } from '#core/schema';
import { AssociationState, ec2KindApi, ImmutableId, Region } from '../fields';

export const routeTableAssociationApi = ec2KindApi({
  kind: 'RouteTableAssociation',
  plural: 'routetableassociations',
  singular: 'routetableassociation',
  shortNames: ['ec2rtbassoc'],
  description: 'An association of an AWS EC2 route table with a subnet or a gateway, provisioned by Chronoplane.',
});

export const RouteTableAssociationParameters = withRules(
  Doc('The desired state of the association, in EC2\u2019s terms.', {
    region: Region('association'),
    routeTableId: ImmutableId(
      'routeTableId',
      'The ID of the route table to associate. Set at creation; or use routeTableIdRef or routeTableIdSelector.',
    ),
    subnetId: ImmutableId(
      'subnetId',
      'The ID of the subnet to associate the route table with; or use subnetIdRef or subnetIdSelector. Set at creation.',
    ),
    gatewayId: ImmutableId(
      'gatewayId',
      'The ID of an internet gateway or virtual private gateway to associate the route table with (an edge association). Set at creation.',
    ),
  }),
  {
    // subnetId may come from subnetIdRef or subnetIdSelector (declared in index.ts).
    rule: `(${celHasValueOrReference({ field: 'subnetId' })} ? 1 : 0) + (has(self.gatewayId) ? 1 : 0) == 1`,
    message: 'set exactly one of subnetId (or subnetIdRef or subnetIdSelector) and gatewayId',
  },
);
export type RouteTableAssociationParameters = Static<typeof RouteTableAssociationParameters>;

export const RouteTableAssociationObservation = Doc('The association as EC2 last reported it.', {
  routeTableAssociationId: Type.Optional(DocString('The ID of the association.')),
  routeTableId: Type.Optional(DocString('The ID of the route table.')),
  subnetId: Type.Optional(DocString('The associated subnet, if any.')),
  gatewayId: Type.Optional(DocString('The associated gateway, if any.')),
  main: Type.Optional(Type.Boolean({ description: 'Whether this is the VPC\u2019s main route table association.' })),
  associationState: AssociationState(
    'associating, associated, disassociating, disassociated or failed.',
    'A message about the state, such as why it failed.',
  ),
});
export type RouteTableAssociationObservation = Static<typeof RouteTableAssociationObservation>;
