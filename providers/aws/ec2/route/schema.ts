// The Route API: forProvider mirrors EC2's CreateRoute and ReplaceRoute inputs, atProvider the
// route as DescribeRouteTables lists it, with EC2's field names in camelCase (seed 001). EC2
// gives routes no id: a route is its table plus its destination, which is also its external name.
import { Type, type Static } from '@sinclair/typebox';
import { celHasValueOrReference } from '#core/references/fields';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { cidrNetworkRule, ec2KindApi, ImmutableId, Region } from '../fields';

export const routeApi = ec2KindApi({
  kind: 'Route',
  plural: 'routes',
  singular: 'route',
  shortNames: ['ec2route'],
  description: 'A route in an AWS EC2 route table, provisioned and kept in sync by Chronoplane.',
});

/** The fields that name where a route sends traffic; a route has exactly one. */
export const ROUTE_TARGETS = ['gatewayId', 'natGatewayId', 'instanceId', 'networkInterfaceId', 'vpcPeeringConnectionId'] as const;
export type RouteTarget = (typeof ROUTE_TARGETS)[number];

const Target = (description: string) => Type.Optional(DocString(`${description} Exactly one target may be set; it can be changed.`));

/** The targets whose value may come from a reference (declared in index.ts). */
const REFERENCED_TARGETS: readonly RouteTarget[] = ['gatewayId', 'natGatewayId'];

// The rule counts a target's Ref or Selector as the target itself. The other targets gain
// references in later kinds.
const exactlyOneTarget =
  ROUTE_TARGETS.map((t) => `(${REFERENCED_TARGETS.includes(t) ? celHasValueOrReference({ field: t }) : `has(self.${t})`} ? 1 : 0)`).join(
    ' + ',
  ) + ' == 1';

export const RouteParameters = withRules(
  Doc('The desired state of the route, in EC2\u2019s terms.', {
    region: Region('route'),
    routeTableId: ImmutableId(
      'routeTableId',
      'The ID of the route table the route belongs to. Set at creation; or use routeTableIdRef or routeTableIdSelector.',
    ),
    destinationCidrBlock: withRules(
      immutable(
        DocString('The IPv4 range the route matches, in canonical CIDR notation such as 0.0.0.0/0. Set at creation.'),
        'destinationCidrBlock',
      ),
      cidrNetworkRule('destinationCidrBlock', 4, '10.1.0.0/16'),
    ),
    gatewayId: Target('An internet gateway or virtual private gateway to send traffic to; or use gatewayIdRef or gatewayIdSelector.'),
    natGatewayId: Target('A NAT gateway to send traffic to; or use natGatewayIdRef or natGatewayIdSelector.'),
    instanceId: Target('A NAT instance to send traffic to (its primary network interface).'),
    networkInterfaceId: Target('A network interface to send traffic to.'),
    vpcPeeringConnectionId: Target('A VPC peering connection to send traffic to.'),
  }),
  {
    rule: exactlyOneTarget,
    message:
      'set exactly one target: gatewayId (or gatewayIdRef or gatewayIdSelector), natGatewayId (or natGatewayIdRef or natGatewayIdSelector), instanceId, networkInterfaceId or vpcPeeringConnectionId',
  },
);
export type RouteParameters = Static<typeof RouteParameters>;

export const RouteObservation = Doc('The route as EC2 last reported it.', {
  routeTableId: Type.Optional(DocString('The ID of the route table.')),
  destinationCidrBlock: Type.Optional(DocString('The IPv4 range the route matches.')),
  gatewayId: Type.Optional(DocString('The gateway the route targets.')),
  natGatewayId: Type.Optional(DocString('The NAT gateway the route targets.')),
  instanceId: Type.Optional(DocString('The instance the route targets.')),
  instanceOwnerId: Type.Optional(DocString('The AWS account that owns the instance the route targets.')),
  networkInterfaceId: Type.Optional(DocString('The network interface the route targets.')),
  vpcPeeringConnectionId: Type.Optional(DocString('The VPC peering connection the route targets.')),
  transitGatewayId: Type.Optional(DocString('The transit gateway the route targets.')),
  egressOnlyInternetGatewayId: Type.Optional(DocString('The egress-only internet gateway the route targets.')),
  state: Type.Optional(DocString('active, or blackhole when the target is gone (for example a deleted NAT gateway).')),
  origin: Type.Optional(DocString('How the route was made: CreateRoute for routes made by this object.')),
});
export type RouteObservation = Static<typeof RouteObservation>;
