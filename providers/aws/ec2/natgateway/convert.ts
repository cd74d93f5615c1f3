// Pure conversions between EC2's view of a NAT gateway and ours: atProvider, readiness (a
// gateway takes minutes to become available or to go away, and can fail), which gateways an
// earlier create made, the client token, and what differs (only tags can). No I/O here.
import { createHash } from 'node:crypto';
import type { NatGateway } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { carriesUid, tagDifferences } from '../../tags';
import type { NatGatewayObservation, NatGatewayParameters } from './schema';

/**
 * EC2 keeps listing a deleted gateway for about an hour; for us it no longer exists, so the
 * engine keeps the finalizer (and the Address's in-use mark) until EC2 is really done with it.
 */
export const isGone = (gateway: NatGateway): boolean => gateway.State === 'deleted';

/** On its way out: deleting, or already deleted. Neither can be adopted, nor deleted again. */
export const isDying = (gateway: NatGateway): boolean => gateway.State === 'deleting' || gateway.State === 'deleted';

export function toAtProvider(gateway: NatGateway): NatGatewayObservation {
  return {
    natGatewayId: gateway.NatGatewayId,
    state: gateway.State,
    failureCode: gateway.FailureCode,
    failureMessage: gateway.FailureMessage,
    vpcId: gateway.VpcId,
    subnetId: gateway.SubnetId,
    connectivityType: gateway.ConnectivityType,
    createTime: gateway.CreateTime?.toISOString(),
    natGatewayAddresses: gateway.NatGatewayAddresses?.map((a) => ({
      allocationId: a.AllocationId,
      associationId: a.AssociationId,
      networkInterfaceId: a.NetworkInterfaceId,
      privateIp: a.PrivateIp,
      publicIp: a.PublicIp,
      isPrimary: a.IsPrimary,
      status: a.Status,
      failureMessage: a.FailureMessage,
    })),
  };
}

/** pending lasts minutes and is re-observed at the pending interval; failed needs a human. */
export function readinessOf(gateway: NatGateway): Readiness {
  switch (gateway.State) {
    case 'available':
      return 'Available';
    case 'pending':
      return 'Creating';
    case 'deleting':
    case 'deleted':
      return 'Deleting';
    default:
      return 'Unavailable';
  }
}

/** Why a failed gateway is unusable, in EC2's words: the Ready condition's message. */
export function unavailableMessage(gateway: NatGateway): string | undefined {
  if (gateway.State !== 'failed') return undefined;
  return gateway.FailureMessage ?? `NAT gateway ${gateway.NatGatewayId} failed (${gateway.FailureCode ?? 'EC2 gave no reason'})`;
}

/** EC2 reports the connectivity type a gateway was made with (moto only for private ones). */
export function lateInitialize(spec: NatGatewayParameters, gateway: NatGateway): Partial<NatGatewayParameters> | undefined {
  if (spec.connectivityType !== undefined) return undefined;
  const type = gateway.ConnectivityType;
  return type === 'public' || type === 'private' ? { connectivityType: type } : undefined;
}

/**
 * Every way EC2 differs from the spec, for humans; empty means up to date. Only tags can
 * change: subnet, address and connectivity type are fixed at creation, and the API server
 * refuses edits of them.
 */
export function differences(gateway: NatGateway, desiredTags: Record<string, string>): string[] {
  return tagDifferences(desiredTags, gateway.Tags);
}

/** What the uid-tag lookup before a create found: a gateway to adopt, and the dead ones. */
interface EarlierGateways {
  live?: NatGateway;
  deadIds: string[];
}

/**
 * Sorts the gateways an earlier create of this object made (those carrying its uid tag; the
 * check also covers a server that ignores the tag filter, as moto 5.2 does). A pending,
 * available or failed one is adopted: it is what an interrupted attempt made, and a failed one
 * must be seen, not silently replaced. A deleting or deleted one is history.
 */
export function earlierGateways(gateways: readonly NatGateway[], uid: string): EarlierGateways {
  const ours = gateways.filter((g) => g.NatGatewayId && carriesUid(g.Tags, uid));
  return { live: ours.find((g) => !isDying(g)), deadIds: ours.filter(isDying).map((g) => g.NatGatewayId!) };
}

/**
 * The client token of CreateNatGateway: EC2 answers a repeated request with the same token
 * with the gateway the first one made, even before DescribeNatGateways lists it. It is the
 * object's uid (36 characters of EC2's 64), so a retried create never makes a twin. Once a
 * gateway of this object is gone (deleted outside Chronoplane, or failed and cleaned up by
 * EC2), the same token would only bring that dead gateway back, so the ids of the dead ones
 * EC2 still lists make it new: deterministic for every retry of one attempt, different from
 * the token that made any gateway that is now dead.
 */
export function clientTokenFor(uid: string, deadIds: readonly string[]): string {
  if (deadIds.length === 0) return uid;
  const digest = createHash('sha256')
    .update([...deadIds].sort().join(','))
    .digest('hex');
  return `${uid}-${digest.slice(0, 16)}`;
}
