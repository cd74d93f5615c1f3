// Pure conversions between EC2's view of an Elastic IP address and ours: what goes into
// atProvider, what the spec is missing (late initialization), and what differs (only tags can:
// everything else is fixed at allocation). No I/O here.
import type { Address } from '@aws-sdk/client-ec2';
import { tagDifferences } from '../../tags';
import type { AddressObservation, AddressParameters } from './schema';

export function toAtProvider(address: Address): AddressObservation {
  return {
    allocationId: address.AllocationId,
    publicIp: address.PublicIp,
    domain: address.Domain,
    associationId: address.AssociationId,
    // moto reports an unassociated address with empty strings here; EC2 leaves them out.
    instanceId: address.InstanceId || undefined,
    networkInterfaceId: address.NetworkInterfaceId || undefined,
    networkInterfaceOwnerId: address.NetworkInterfaceOwnerId,
    privateIpAddress: address.PrivateIpAddress,
    publicIpv4Pool: address.PublicIpv4Pool,
    networkBorderGroup: address.NetworkBorderGroup,
  };
}

/** Fields the user left empty that EC2 settled at allocation; the spec adopts them. */
export function lateInitialize(spec: AddressParameters, address: Address): Partial<AddressParameters> | undefined {
  const filled: Partial<AddressParameters> = {};
  if (spec.domain === undefined && (address.Domain === 'vpc' || address.Domain === 'standard')) filled.domain = address.Domain;
  if (spec.publicIpv4Pool === undefined && address.PublicIpv4Pool) filled.publicIpv4Pool = address.PublicIpv4Pool;
  if (spec.networkBorderGroup === undefined && address.NetworkBorderGroup) filled.networkBorderGroup = address.NetworkBorderGroup;
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/**
 * Every way EC2 differs from the spec, for humans; empty means up to date. Only tags are
 * compared: the API server refuses edits of the fields fixed at allocation, and an address's
 * association belongs to whatever uses it (a NAT gateway), not to the Address object.
 */
export function differences(address: Address, desiredTags: Record<string, string>): string[] {
  return tagDifferences(desiredTags, address.Tags);
}
