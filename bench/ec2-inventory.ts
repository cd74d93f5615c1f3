// Everything of the network's kinds that exists at an EC2 endpoint, by id. Taken before the
// apply and after the delete, the difference is what a control plane leaked, whether or not it
// could tag it (routes, associations and security group rules carry no tags).
import {
  DescribeInternetGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
} from '@aws-sdk/client-ec2';
import { BENCH_REGION, benchEc2Client } from './bench-ec2';

export type Ec2Inventory = Record<string, string[]>;

/** Its own access key, so these reads are never counted as a control plane's calls. */
const INVENTORY_ACCESS_KEY_ID = 'bench-inventory';

export async function ec2Inventory(ec2Endpoint: string, region = BENCH_REGION): Promise<Ec2Inventory> {
  const ec2 = benchEc2Client(ec2Endpoint, INVENTORY_ACCESS_KEY_ID, region);
  try {
    const [vpcs, subnets, gateways, tables, groups, rules] = await Promise.all([
      ec2.send(new DescribeVpcsCommand({})),
      ec2.send(new DescribeSubnetsCommand({})),
      ec2.send(new DescribeInternetGatewaysCommand({})),
      ec2.send(new DescribeRouteTablesCommand({})),
      ec2.send(new DescribeSecurityGroupsCommand({})),
      ec2.send(new DescribeSecurityGroupRulesCommand({})),
    ]);
    const routeTables = tables.RouteTables ?? [];
    return {
      vpcs: (vpcs.Vpcs ?? []).map((v) => v.VpcId!),
      subnets: (subnets.Subnets ?? []).map((s) => s.SubnetId!),
      internetGateways: (gateways.InternetGateways ?? []).map(
        (g) => `${g.InternetGatewayId}${(g.Attachments ?? []).map((a) => ` attached to ${a.VpcId}`).join('')}`,
      ),
      routeTables: routeTables.map((t) => t.RouteTableId!),
      routes: routeTables.flatMap((t) =>
        (t.Routes ?? []).map(
          (r) => `${t.RouteTableId}_${r.DestinationCidrBlock ?? r.DestinationIpv6CidrBlock ?? r.DestinationPrefixListId}`,
        ),
      ),
      routeTableAssociations: routeTables.flatMap((t) => (t.Associations ?? []).map((a) => a.RouteTableAssociationId!)),
      securityGroups: (groups.SecurityGroups ?? []).map((g) => g.GroupId!),
      securityGroupRules: (rules.SecurityGroupRules ?? []).map((r) => r.SecurityGroupRuleId!),
    };
  } finally {
    ec2.destroy();
  }
}

/** What `after` has that `before` had not, by type; empty when nothing was left behind. */
export function inventoryAdded(before: Ec2Inventory, after: Ec2Inventory): Ec2Inventory {
  const added: Ec2Inventory = {};
  for (const [type, ids] of Object.entries(after)) {
    const earlier = new Set(before[type] ?? []);
    const extra = ids.filter((id) => !earlier.has(id));
    if (extra.length > 0) added[type] = extra;
  }
  return added;
}

/** "nothing", or what was left by type. */
export function formatLeftovers(left: Ec2Inventory): string {
  const entries = Object.entries(left);
  return entries.length === 0 ? 'nothing' : entries.map(([type, ids]) => `${type}: ${ids.join(', ')}`).join('; ');
}
