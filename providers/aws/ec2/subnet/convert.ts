// Pure conversions between EC2's view of a subnet and ours: what goes into atProvider, what the
// spec is missing (late initialization), and what differs (the up-to-date check). No I/O here,
// so this is where most of the subnet's unit tests live.
import type { Subnet } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { tagDifferences } from '../../tags';
import { toAssociationState } from '../fields';
import type { SubnetObservation, SubnetParameters } from './schema';

export function toAtProvider(subnet: Subnet): SubnetObservation {
  return {
    subnetId: subnet.SubnetId,
    subnetArn: subnet.SubnetArn,
    state: subnet.State,
    vpcId: subnet.VpcId,
    availabilityZoneId: subnet.AvailabilityZoneId,
    availableIpAddressCount: subnet.AvailableIpAddressCount,
    defaultForAz: subnet.DefaultForAz,
    ownerId: subnet.OwnerId,
    ipv6CidrBlockAssociationSet: subnet.Ipv6CidrBlockAssociationSet?.map((a) => ({
      associationId: a.AssociationId,
      ipv6CidrBlock: a.Ipv6CidrBlock,
      ipv6CidrBlockState: toAssociationState(a.Ipv6CidrBlockState),
    })),
  };
}

/** pending becomes available within seconds; unavailable and the failed states need a human. */
export function readinessOf(subnet: Subnet): Readiness {
  if (subnet.State === 'available') return 'Available';
  if (subnet.State === 'pending') return 'Creating';
  return 'Unavailable';
}

/** Fields the user left empty that EC2 filled in; the spec adopts them so it shows the truth. */
export function lateInitialize(spec: SubnetParameters, subnet: Subnet): Partial<SubnetParameters> | undefined {
  const filled: Partial<SubnetParameters> = {};
  if (spec.availabilityZone === undefined && subnet.AvailabilityZone) filled.availabilityZone = subnet.AvailabilityZone;
  if (spec.mapPublicIpOnLaunch === undefined && subnet.MapPublicIpOnLaunch !== undefined) {
    filled.mapPublicIpOnLaunch = subnet.MapPublicIpOnLaunch;
  }
  if (spec.assignIpv6AddressOnCreation === undefined && subnet.AssignIpv6AddressOnCreation !== undefined) {
    filled.assignIpv6AddressOnCreation = subnet.AssignIpv6AddressOnCreation;
  }
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/**
 * Every way EC2 differs from the spec, for humans; empty means up to date. Only what
 * ModifySubnetAttribute and the tag calls can change is compared: the API server already
 * refuses edits of the immutable fields.
 */
export function differences(spec: SubnetParameters, subnet: Subnet, desiredTags: Record<string, string>): string[] {
  const out: string[] = [];
  if (spec.mapPublicIpOnLaunch !== undefined && spec.mapPublicIpOnLaunch !== subnet.MapPublicIpOnLaunch) {
    out.push(`mapPublicIpOnLaunch: want ${spec.mapPublicIpOnLaunch}, have ${subnet.MapPublicIpOnLaunch}`);
  }
  if (spec.assignIpv6AddressOnCreation !== undefined && spec.assignIpv6AddressOnCreation !== subnet.AssignIpv6AddressOnCreation) {
    out.push(`assignIpv6AddressOnCreation: want ${spec.assignIpv6AddressOnCreation}, have ${subnet.AssignIpv6AddressOnCreation}`);
  }
  return [...out, ...tagDifferences(desiredTags, subnet.Tags)];
}
