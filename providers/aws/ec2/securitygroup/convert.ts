// Pure conversions between EC2's view of a security group and ours: atProvider, late
// initialization, the up-to-date check, and the two create-time choices (whose group a name
// clash found, and which rules are EC2's default egress). No I/O here.
import type { SecurityGroup, SecurityGroupRule } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { tagDifferences } from '../../tags';
import type { SecurityGroupObservation, SecurityGroupParameters } from './schema';

export function toAtProvider(group: SecurityGroup): SecurityGroupObservation {
  return {
    groupId: group.GroupId,
    groupName: group.GroupName,
    ownerId: group.OwnerId,
    vpcId: group.VpcId,
    securityGroupArn: group.SecurityGroupArn,
  };
}

/** A security group has no lifecycle states: once EC2 lists it, it can be used. */
export function readinessOf(_group: SecurityGroup): Readiness {
  return 'Available';
}

/** The name Chronoplane asks EC2 for: the spec's, or the object's own name. */
export const groupNameFor = (spec: SecurityGroupParameters, objectName: string): string => spec.groupName ?? objectName;

/** Fields the user left empty that EC2 settled: the default name and the default VPC. */
export function lateInitialize(spec: SecurityGroupParameters, group: SecurityGroup): Partial<SecurityGroupParameters> | undefined {
  const filled: Partial<SecurityGroupParameters> = {};
  if (spec.groupName === undefined && group.GroupName) filled.groupName = group.GroupName;
  if (spec.vpcId === undefined && group.VpcId) filled.vpcId = group.VpcId;
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/**
 * Every way EC2 differs from the spec, for humans; empty means up to date. Only tags can
 * drift: name, description and VPC are fixed at creation, and the group's rules belong to
 * SecurityGroupRule objects, so rules added or removed elsewhere are not drift here.
 */
export function differences(group: SecurityGroup, desiredTags: Record<string, string>): string[] {
  return tagDifferences(desiredTags, group.Tags);
}

/**
 * The rules EC2 adds to a new group: allow all traffic out to 0.0.0.0/0 (and ::/0 in an IPv6
 * VPC). Tagged rules are left alone: EC2's defaults carry no tags, a SecurityGroupRule's do.
 */
export function defaultEgressRuleIds(rules: readonly SecurityGroupRule[]): string[] {
  return rules
    .filter(
      (r) =>
        r.IsEgress === true &&
        r.IpProtocol === '-1' &&
        (r.CidrIpv4 === '0.0.0.0/0' || r.CidrIpv6 === '::/0') &&
        (r.Tags ?? []).length === 0 &&
        r.SecurityGroupRuleId !== undefined,
    )
    .map((r) => r.SecurityGroupRuleId!);
}
