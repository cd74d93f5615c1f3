// Pure conversions between EC2's view of a route table and ours: what goes into atProvider,
// what the spec is missing (late initialization), and what differs (the up-to-date check).
// No I/O here, so this is where most of the RouteTable's unit tests live.
import type { RouteTable } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { tagDifferences } from '../../tags';
import type { RouteTableObservation, RouteTableParameters } from './schema';

export function toAtProvider(rt: RouteTable): RouteTableObservation {
  return {
    routeTableId: rt.RouteTableId,
    ownerId: rt.OwnerId,
    vpcId: rt.VpcId,
    routes: rt.Routes?.map((r) => ({
      destinationCidrBlock: r.DestinationCidrBlock,
      gatewayId: r.GatewayId,
      natGatewayId: r.NatGatewayId,
      instanceId: r.InstanceId,
      networkInterfaceId: r.NetworkInterfaceId,
      vpcPeeringConnectionId: r.VpcPeeringConnectionId,
      state: r.State,
      origin: r.Origin,
    })),
    associations: rt.Associations?.map((a) => ({
      routeTableAssociationId: a.RouteTableAssociationId,
      subnetId: a.SubnetId,
      gatewayId: a.GatewayId,
      main: a.Main,
      associationState: a.AssociationState?.State,
    })),
  };
}

/** A route table has no lifecycle states: once DescribeRouteTables lists it, it is usable. */
export function readinessOf(_rt: RouteTable): Readiness {
  return 'Available';
}

/** Fields the user left empty that EC2 knows, as for a route table imported by its id. */
export function lateInitialize(spec: RouteTableParameters, rt: RouteTable): Partial<RouteTableParameters> | undefined {
  return spec.vpcId === undefined && rt.VpcId ? { vpcId: rt.VpcId } : undefined;
}

/** Differences only a new route table can fix: update reports them instead of looping. */
export function immutableDifferences(spec: RouteTableParameters, rt: RouteTable): string[] {
  return spec.vpcId !== undefined && spec.vpcId !== rt.VpcId ? [`vpcId: want ${spec.vpcId}, have ${rt.VpcId}`] : [];
}

/** Every way EC2 differs from the spec, for humans; empty means up to date. */
export function differences(spec: RouteTableParameters, rt: RouteTable, desiredTags: Record<string, string>): string[] {
  return [...immutableDifferences(spec, rt), ...tagDifferences(desiredTags, rt.Tags)];
}
