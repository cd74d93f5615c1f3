// Pure conversions between EC2's view of a route and ours: the external name (EC2 has no route
// id), which target the spec names, what goes into atProvider, and what differs. No I/O here,
// so this is where most of the Route's unit tests live.
import type { Route, RouteTable } from '@aws-sdk/client-ec2';
import type { ExternalClaim, Readiness } from '#core/external-client';
import { ROUTE_TARGETS, type RouteObservation, type RouteParameters, type RouteTarget } from './schema';

/** A route's identity in EC2: its table and its destination. */
export interface RouteId {
  routeTableId: string;
  destinationCidrBlock: string;
}

/** `rtb-0abc_10.1.0.0/16`: neither part can contain an underscore. */
export const routeExternalName = (id: RouteId): string => `${id.routeTableId}_${id.destinationCidrBlock}`;

export function parseRouteExternalName(name: string): RouteId | undefined {
  const at = name.indexOf('_');
  if (at <= 0 || at === name.length - 1) return undefined;
  return { routeTableId: name.slice(0, at), destinationCidrBlock: name.slice(at + 1) };
}

export interface TargetValue {
  field: RouteTarget;
  value: string;
}

/** The SDK's name of each target field, shared by CreateRoute, ReplaceRoute and Route. */
const SDK_FIELD = {
  gatewayId: 'GatewayId',
  natGatewayId: 'NatGatewayId',
  instanceId: 'InstanceId',
  networkInterfaceId: 'NetworkInterfaceId',
  vpcPeeringConnectionId: 'VpcPeeringConnectionId',
} as const satisfies Record<RouteTarget, keyof Route>;

/** The one target the spec names; the CRD's rule guarantees there is no second. */
export function targetOf(spec: RouteParameters): TargetValue | undefined {
  const field = ROUTE_TARGETS.find((f) => spec[f]);
  return field ? { field, value: spec[field]! } : undefined;
}

/** The target as CreateRoute and ReplaceRoute take it, such as `{ GatewayId: 'igw-1' }`. */
export const targetInput = (target: TargetValue): Partial<Record<(typeof SDK_FIELD)[RouteTarget], string>> => ({
  [SDK_FIELD[target.field]]: target.value,
});

/**
 * Whether the route sends traffic where the spec says. Only the spec's own field is compared:
 * EC2 reports an instance target with its network interface too.
 */
export const targetMatches = (target: TargetValue, route: Route): boolean => route[SDK_FIELD[target.field]] === target.value;

const describeTarget = (t: TargetValue) => `${t.field} ${t.value}`;

/** Where the route sends traffic, for messages: every target field EC2 filled in. */
function describeRouteTarget(route: Route): string {
  const set = ROUTE_TARGETS.filter((f) => route[SDK_FIELD[f]]).map((f) => `${f} ${route[SDK_FIELD[f]]}`);
  if (route.TransitGatewayId) set.push(`transitGatewayId ${route.TransitGatewayId}`);
  if (route.EgressOnlyInternetGatewayId) set.push(`egressOnlyInternetGatewayId ${route.EgressOnlyInternetGatewayId}`);
  return set.join(', ') || 'no target';
}

export const routeFor = (rt: RouteTable, destinationCidrBlock: string): Route | undefined =>
  rt.Routes?.find((r) => r.DestinationCidrBlock === destinationCidrBlock);

export function toAtProvider(id: RouteId, route: Route): RouteObservation {
  return {
    routeTableId: id.routeTableId,
    destinationCidrBlock: route.DestinationCidrBlock,
    gatewayId: route.GatewayId,
    natGatewayId: route.NatGatewayId,
    instanceId: route.InstanceId,
    instanceOwnerId: route.InstanceOwnerId,
    networkInterfaceId: route.NetworkInterfaceId,
    vpcPeeringConnectionId: route.VpcPeeringConnectionId,
    transitGatewayId: route.TransitGatewayId,
    egressOnlyInternetGatewayId: route.EgressOnlyInternetGatewayId,
    state: route.State,
    origin: route.Origin,
  };
}

export function readinessOf(route: Route): Readiness {
  if (route.State === 'active') return 'Available';
  return route.State === 'blackhole' ? 'Unavailable' : 'Creating';
}

/** Why a blackhole route is unusable: the Ready condition's message (readinessMessage). */
export function unavailableMessage(route: Route): string | undefined {
  if (route.State !== 'blackhole') return undefined;
  return `route to ${route.DestinationCidrBlock} is a blackhole: its target (${describeRouteTarget(route)}) is gone or unusable`;
}

/** A route imported by its external name fills in the table its name gives. */
export function lateInitialize(spec: RouteParameters, id: RouteId): Partial<RouteParameters> | undefined {
  return spec.routeTableId === undefined ? { routeTableId: id.routeTableId } : undefined;
}

/** Differences only a new route can fix: update reports them instead of looping. */
export function immutableDifferences(spec: RouteParameters, id: RouteId): string[] {
  const out: string[] = [];
  if (spec.routeTableId !== undefined && spec.routeTableId !== id.routeTableId) {
    out.push(`routeTableId: want ${spec.routeTableId}, have ${id.routeTableId}`);
  }
  if (spec.destinationCidrBlock !== id.destinationCidrBlock) {
    out.push(`destinationCidrBlock: want ${spec.destinationCidrBlock}, have ${id.destinationCidrBlock}`);
  }
  return out;
}

/** Every way EC2 differs from the spec, for humans; empty means up to date. */
export function differences(spec: RouteParameters, id: RouteId, route: Route): string[] {
  const out = immutableDifferences(spec, id);
  const target = targetOf(spec);
  if (target && !targetMatches(target, route)) out.push(`target: want ${describeTarget(target)}, have ${describeRouteTarget(route)}`);
  return out;
}

/**
 * What create does with a route already in the table for its destination: the same target is
 * an earlier attempt's (or an identical) route, and is adopted; another target is someone
 * else's route, which is never taken over silently.
 */
export function existingRouteConflict(id: RouteId, target: TargetValue, route: Route): string | undefined {
  if (targetMatches(target, route)) return undefined;
  return (
    `route table ${id.routeTableId} already has a route for ${id.destinationCidrBlock} to ${describeRouteTarget(route)}, ` +
    `not to ${describeTarget(target)}: delete that route, or manage it by setting the crossplane.io/external-name ` +
    `annotation to ${routeExternalName(id)}`
  );
}

/**
 * Why create does not adopt a route that another Route object records: deleting either object
 * would take the route from the other. Names that object, which is what the user has to look at.
 */
export function routeOwnedByAnother(id: RouteId, owner: ExternalClaim): string {
  const where = owner.namespace ? `${owner.namespace}/` : '';
  return (
    `route table ${id.routeTableId} already has a route for ${id.destinationCidrBlock}, managed by Route ${where}${owner.name} ` +
    `(uid ${owner.uid}): it is not adopted, as a table has one route per destination; delete one of the two Routes`
  );
}
