// Reads a round's namespace out of EC2: every resource of a registered kind that is tagged
// crossplane-namespace=<namespace> (what is gone but still listed, such as deleted NAT gateways
// and terminated instances, left out; test/kind-fixtures.ts says how for each kind), and what its
// route tables and security groups hold, where routes, associations and rules are. Signed with
// an access key of its own, so that moto never counts these reads as the control plane's calls.
import {
  DescribeRouteTablesCommand,
  DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand,
  type EC2Client,
  type Tag,
} from '@aws-sdk/client-ec2';
import { benchEc2Client } from '#bench/bench-ec2';
import { UID_TAG } from '#providers/aws/tags';
import { ec2KindFixtures } from '#test/kind-fixtures';
import type { Ec2Content, TaggedResource } from './checks';

const INSPECTOR_ACCESS_KEY_ID = 'chaos-inspector';

export async function readEc2Content(ec2Endpoint: string, namespace: string): Promise<Ec2Content> {
  const ec2 = benchEc2Client(ec2Endpoint, INSPECTOR_ACCESS_KEY_ID);
  try {
    const Filters = [{ Name: 'tag:crossplane-namespace', Values: [namespace] }];
    // moto ignores tag filters for some types (NAT gateways), so the tag is checked here too.
    const ours = (tags: Tag[] | undefined) => tags?.some((t) => t.Key === 'crossplane-namespace' && t.Value === namespace) ?? false;
    const uidOf = (tags: Tag[] | undefined) => tags?.find((t) => t.Key === UID_TAG)?.Value;
    const [tagged, tables, groups] = await Promise.all([
      Promise.all(
        (await ec2KindFixtures()).map(async ({ kind, tagged: list }): Promise<TaggedResource[]> =>
          list
            ? (await list(ec2, Filters)).filter((r) => ours(r.tags)).map((r) => ({ kind: kind.api.kind, id: r.id, uid: uidOf(r.tags) }))
            : [],
        ),
      ),
      ec2.send(new DescribeRouteTablesCommand({ Filters })),
      ec2.send(new DescribeSecurityGroupsCommand({ Filters })),
    ]);
    const routeTables = (tables.RouteTables ?? []).filter((t) => ours(t.Tags));
    const securityGroups = (groups.SecurityGroups ?? []).filter((g) => ours(g.Tags));
    return {
      tagged: tagged.flat(),
      routeTables: routeTables.map((t) => ({
        id: t.RouteTableId!,
        routes: (t.Routes ?? []).map((r) => ({
          destination: r.DestinationCidrBlock ?? r.DestinationIpv6CidrBlock ?? r.DestinationPrefixListId ?? '?',
          local: r.GatewayId === 'local' || r.Origin === 'CreateRouteTable',
        })),
        associations: (t.Associations ?? []).map((a) => ({
          id: a.RouteTableAssociationId!,
          subnetId: a.SubnetId,
          gatewayId: a.GatewayId,
          main: a.Main ?? false,
        })),
      })),
      rules: await rulesOf(
        ec2,
        securityGroups.map((g) => g.GroupId!),
      ),
    };
  } finally {
    ec2.destroy();
  }
}

async function rulesOf(ec2: EC2Client, groupIds: string[]): Promise<Ec2Content['rules']> {
  if (groupIds.length === 0) return [];
  const { SecurityGroupRules } = await ec2.send(
    new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: groupIds }] }),
  );
  return (SecurityGroupRules ?? []).map((r) => ({
    id: r.SecurityGroupRuleId!,
    groupId: r.GroupId!,
    egress: r.IsEgress ?? false,
    protocol: r.IpProtocol ?? '',
    fromPort: r.FromPort,
    toPort: r.ToPort,
    cidrIpv4: r.CidrIpv4,
    cidrIpv6: r.CidrIpv6,
    referencedGroupId: r.ReferencedGroupInfo?.GroupId,
    prefixListId: r.PrefixListId,
  }));
}

/** What is still there of the namespace, by kind: after a delete, the leaks. */
export function leftOver(content: Ec2Content): Record<string, string[]> {
  const left: Record<string, string[]> = {};
  for (const { kind, id } of content.tagged) (left[kind] ??= []).push(id);
  return left;
}
