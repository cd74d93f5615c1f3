// Pure conversions between EC2's view of a security group rule and ours: the request that
// authorizes it, the request that rewrites its description, atProvider, late initialization,
// the up-to-date check, and the content match that lets create adopt an identical rule (EC2
// identifies a rule by its content, so an earlier attempt's rule is found that way). No I/O.
import type { IpPermission, SecurityGroupRule, SecurityGroupRuleRequest } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { carriesUid, tagDifferences, tagsToMap } from '../../tags';
import type { SecurityGroupRuleObservation, SecurityGroupRuleParameters } from './schema';

const PROTOCOL_NUMBERS: Record<string, string> = { tcp: '6', udp: '17', icmp: '1', icmpv6: '58', all: '-1' };

/** EC2 reports tcp for 6, udp for 17 …; comparing protocol numbers makes either spelling match. */
export const protocolNumber = (protocol: string | undefined): string => {
  const p = (protocol ?? '').toLowerCase();
  return PROTOCOL_NUMBERS[p] ?? p;
};

/** Only tcp, udp, icmp and icmpv6 rules have ports (or ICMP type and code); EC2 ignores them otherwise. */
const hasPorts = (protocol: string | undefined): boolean => ['6', '17', '1', '58'].includes(protocolNumber(protocol));

/** The one IpPermission that AuthorizeSecurityGroupIngress/Egress needs for this rule. */
export function ipPermissionFor(p: SecurityGroupRuleParameters): IpPermission {
  const Description = p.description || undefined;
  return {
    IpProtocol: p.ipProtocol,
    // Unset ports mean "all" (-1), which is also what EC2 reports back for them.
    ...(protocolNumber(p.ipProtocol) === '-1' ? {} : { FromPort: p.fromPort ?? -1, ToPort: p.toPort ?? -1 }),
    ...(p.cidrIpv4 ? { IpRanges: [{ CidrIp: p.cidrIpv4, Description }] } : {}),
    ...(p.cidrIpv6 ? { Ipv6Ranges: [{ CidrIpv6: p.cidrIpv6, Description }] } : {}),
    ...(p.referencedGroupId ? { UserIdGroupPairs: [{ GroupId: p.referencedGroupId, Description }] } : {}),
    ...(p.prefixListId ? { PrefixListIds: [{ PrefixListId: p.prefixListId, Description }] } : {}),
  };
}

/** Whether the spec names a source or destination yet (a reference may still be unresolved). */
export const hasPeer = (p: SecurityGroupRuleParameters): boolean =>
  Boolean(p.cidrIpv4 || p.cidrIpv6 || p.referencedGroupId || p.prefixListId);

/**
 * ModifySecurityGroupRules replaces the whole rule, so the request repeats EC2's own view of
 * it and changes only the description. An empty description clears it.
 */
export function ruleRequestFor(rule: SecurityGroupRule, description: string | undefined): SecurityGroupRuleRequest {
  return {
    IpProtocol: rule.IpProtocol,
    FromPort: rule.FromPort,
    ToPort: rule.ToPort,
    CidrIpv4: rule.CidrIpv4,
    CidrIpv6: rule.CidrIpv6,
    PrefixListId: rule.PrefixListId,
    ReferencedGroupId: rule.ReferencedGroupInfo?.GroupId,
    Description: description ?? '',
  };
}

/** Whether an existing rule is the one the spec describes: same direction, protocol, ports and peer. */
export function sameContent(p: SecurityGroupRuleParameters, rule: SecurityGroupRule): boolean {
  if (rule.IsEgress !== (p.type === 'egress')) return false;
  if (protocolNumber(rule.IpProtocol) !== protocolNumber(p.ipProtocol)) return false;
  if (hasPorts(p.ipProtocol) && ((rule.FromPort ?? -1) !== (p.fromPort ?? -1) || (rule.ToPort ?? -1) !== (p.toPort ?? -1))) return false;
  return (
    rule.CidrIpv4 === p.cidrIpv4 &&
    rule.CidrIpv6?.toLowerCase() === p.cidrIpv6?.toLowerCase() &&
    rule.PrefixListId === p.prefixListId &&
    rule.ReferencedGroupInfo?.GroupId === p.referencedGroupId
  );
}

type EarlierRule = { adopt: SecurityGroupRule } | { conflict: SecurityGroupRule } | undefined;

/**
 * Among a group's rules, the one create should adopt: same content, and either our uid tag
 * (an earlier attempt made it) or no tags at all (EC2's default egress, or one made by hand).
 * A twin that carries other tags belongs to someone else: a conflict, not ours to take.
 */
export function earlierRule(p: SecurityGroupRuleParameters, uid: string, rules: readonly SecurityGroupRule[]): EarlierRule {
  const twins = rules.filter((r) => sameContent(p, r));
  const ours = twins.find((r) => carriesUid(r.Tags, uid)) ?? twins.find((r) => (r.Tags ?? []).length === 0);
  if (ours) return { adopt: ours };
  return twins[0] ? { conflict: twins[0] } : undefined;
}

/** Who a conflicting rule belongs to, for the error message. */
export function ownerOf(rule: SecurityGroupRule): string {
  const tags = tagsToMap(rule.Tags);
  const name = tags['crossplane-name'];
  if (!name) return 'it carries tags of its own';
  const kind = tags['crossplane-kind'] ? `${tags['crossplane-kind']} ` : '';
  return `it belongs to ${kind}${tags['crossplane-namespace'] ? `${tags['crossplane-namespace']}/` : ''}${name}`;
}

export function toAtProvider(rule: SecurityGroupRule): SecurityGroupRuleObservation {
  const ref = rule.ReferencedGroupInfo;
  return {
    securityGroupRuleId: rule.SecurityGroupRuleId,
    securityGroupRuleArn: rule.SecurityGroupRuleArn,
    groupId: rule.GroupId,
    groupOwnerId: rule.GroupOwnerId,
    isEgress: rule.IsEgress,
    ipProtocol: rule.IpProtocol,
    fromPort: rule.FromPort,
    toPort: rule.ToPort,
    cidrIpv4: rule.CidrIpv4,
    cidrIpv6: rule.CidrIpv6,
    prefixListId: rule.PrefixListId,
    referencedGroupInfo: ref
      ? {
          groupId: ref.GroupId,
          userId: ref.UserId,
          vpcId: ref.VpcId,
          vpcPeeringConnectionId: ref.VpcPeeringConnectionId,
          peeringStatus: ref.PeeringStatus,
        }
      : undefined,
    description: rule.Description,
  };
}

/** A rule has no lifecycle states: once EC2 lists it, it is in force. */
export function readinessOf(_rule: SecurityGroupRule): Readiness {
  return 'Available';
}

/** The ports the user left empty, as EC2 settled them (-1 for all). */
export function lateInitialize(
  spec: SecurityGroupRuleParameters,
  rule: SecurityGroupRule,
): Partial<SecurityGroupRuleParameters> | undefined {
  const filled: Partial<SecurityGroupRuleParameters> = {};
  if (spec.fromPort === undefined && rule.FromPort !== undefined) filled.fromPort = rule.FromPort;
  if (spec.toPort === undefined && rule.ToPort !== undefined) filled.toPort = rule.ToPort;
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/**
 * Every way EC2 differs from the spec, for humans; empty means up to date. Only the
 * description and tags can change; an empty description in the spec means none.
 */
export function differences(spec: SecurityGroupRuleParameters, rule: SecurityGroupRule, desiredTags: Record<string, string>): string[] {
  const out: string[] = [];
  const want = spec.description ?? '';
  const have = rule.Description ?? '';
  if (want !== have) out.push(`description: want ${JSON.stringify(want)}, have ${JSON.stringify(have)}`);
  return [...out, ...tagDifferences(desiredTags, rule.Tags)];
}
