// Pure conversions between EC2's view of a VPC and ours: what goes into atProvider, what the
// spec is missing (late initialization), and what differs (the up-to-date check). No I/O here,
// so this is where most of the VPC's unit tests live.
import type { Vpc } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { tagDifferences } from '../../tags';
import { toAssociationState } from '../fields';
import type { VpcObservation, VpcParameters } from './schema';

/** A VPC plus the two attributes DescribeVpcs leaves out. */
export interface ObservedVpc {
  vpc: Vpc;
  enableDnsSupport?: boolean;
  enableDnsHostnames?: boolean;
}

export function toAtProvider({ vpc }: ObservedVpc): VpcObservation {
  return {
    vpcId: vpc.VpcId,
    state: vpc.State,
    ownerId: vpc.OwnerId,
    dhcpOptionsId: vpc.DhcpOptionsId,
    isDefault: vpc.IsDefault,
    cidrBlockAssociationSet: vpc.CidrBlockAssociationSet?.map((a) => ({
      associationId: a.AssociationId,
      cidrBlock: a.CidrBlock,
      cidrBlockState: toAssociationState(a.CidrBlockState),
    })),
  };
}

export function readinessOf(vpc: Vpc): Readiness {
  return vpc.State === 'available' ? 'Available' : 'Creating';
}

/** Fields the user left empty that EC2 filled in; the spec adopts them so it shows the truth. */
export function lateInitialize(spec: VpcParameters, observed: ObservedVpc): Partial<VpcParameters> | undefined {
  const filled: Partial<VpcParameters> = {};
  if (spec.instanceTenancy === undefined && observed.vpc.InstanceTenancy) {
    filled.instanceTenancy = observed.vpc.InstanceTenancy as VpcParameters['instanceTenancy'];
  }
  if (spec.enableDnsSupport === undefined && observed.enableDnsSupport !== undefined) filled.enableDnsSupport = observed.enableDnsSupport;
  if (spec.enableDnsHostnames === undefined && observed.enableDnsHostnames !== undefined) {
    filled.enableDnsHostnames = observed.enableDnsHostnames;
  }
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/** Every way EC2 differs from the spec, for humans; empty means up to date. */
export function differences(spec: VpcParameters, observed: ObservedVpc, desiredTags: Record<string, string>): string[] {
  const out: string[] = [];
  if (spec.enableDnsSupport !== undefined && spec.enableDnsSupport !== observed.enableDnsSupport) {
    out.push(`enableDnsSupport: want ${spec.enableDnsSupport}, have ${observed.enableDnsSupport}`);
  }
  if (spec.enableDnsHostnames !== undefined && spec.enableDnsHostnames !== observed.enableDnsHostnames) {
    out.push(`enableDnsHostnames: want ${spec.enableDnsHostnames}, have ${observed.enableDnsHostnames}`);
  }
  return [...out, ...tagDifferences(desiredTags, observed.vpc.Tags)];
}
