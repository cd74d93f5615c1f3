// Helpers for tests that apply the example AWS network: its files, a ProviderConfig of the
// test's own (so that EC2 calls can be counted per test file, by access key), and what is left
// at the EC2 endpoint afterwards.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  DescribeInternetGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
} from '@aws-sdk/client-ec2';
import { readEc2CallCounts, summarizeEc2Calls, type Ec2CallCount, type Ec2CallSummary } from '../../bench/ec2-call-counter';
import type { ControlPlane } from './harness';
import { runKubectl } from './kubectl';

export const NETWORK_DIR = join(import.meta.dirname, '..', '..', 'examples', 'aws-network');

export interface Manifest {
  kind: string;
  metadata: { name: string; [k: string]: unknown };
  spec: { forProvider: Record<string, unknown>; providerConfigRef?: { name: string }; [k: string]: unknown };
  [k: string]: unknown;
}

export async function networkFiles(): Promise<string[]> {
  return (await readdir(NETWORK_DIR)).filter((f) => f.endsWith('.yaml')).sort();
}

export async function readManifests(file: string): Promise<Manifest[]> {
  return parseAllDocuments(await readFile(join(NETWORK_DIR, file), 'utf8')).map((d) => d.toJS() as Manifest);
}

/**
 * A ProviderConfig named after the test's namespace whose access key is that name too, so that
 * moto's request counts (bench/ec2-call-counter.ts) tell this file's calls apart.
 */
export async function useOwnProviderConfig(plane: ControlPlane): Promise<string> {
  const name = plane.namespace;
  const credentials = `[default]\naws_access_key_id = ${name}\naws_secret_access_key = testing\n`;
  await runKubectl(
    ['apply', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: plane.namespace, name: 'aws' }, stringData: { credentials } },
        {
          apiVersion: 'aws.chronoplane.io/v1alpha1',
          kind: 'ProviderConfig',
          metadata: { name },
          spec: {
            credentials: { source: 'Secret', secretRef: { namespace: plane.namespace, name: 'aws', key: 'credentials' } },
            endpoint: { url: plane.ec2Endpoint },
          },
        },
      ],
    }),
  );
  return name;
}

export async function ec2Calls(plane: ControlPlane, since: Ec2CallCount[]): Promise<Ec2CallSummary> {
  return summarizeEc2Calls(since, await readEc2CallCounts(plane.ec2Endpoint), { accessKeyId: plane.namespace });
}

/** EC2 resources tagged as belonging to objects in the test's namespace, by type. */
export async function leftovers(plane: ControlPlane): Promise<Record<string, string[]>> {
  const Filters = [{ Name: 'tag:crossplane-namespace', Values: [plane.namespace] }];
  const [vpcs, subnets, gateways, tables, groups] = await Promise.all([
    plane.ec2.send(new DescribeVpcsCommand({ Filters })),
    plane.ec2.send(new DescribeSubnetsCommand({ Filters })),
    plane.ec2.send(new DescribeInternetGatewaysCommand({ Filters })),
    plane.ec2.send(new DescribeRouteTablesCommand({ Filters })),
    plane.ec2.send(new DescribeSecurityGroupsCommand({ Filters })),
  ]);
  const found: Record<string, string[]> = {
    vpcs: (vpcs.Vpcs ?? []).map((v) => v.VpcId!),
    subnets: (subnets.Subnets ?? []).map((s) => s.SubnetId!),
    internetGateways: (gateways.InternetGateways ?? []).map((g) => g.InternetGatewayId!),
    routeTables: (tables.RouteTables ?? []).map((t) => t.RouteTableId!),
    securityGroups: (groups.SecurityGroups ?? []).map((g) => g.GroupId!),
  };
  return Object.fromEntries(Object.entries(found).filter(([, ids]) => ids.length > 0));
}

/** Every object of the test's namespace that is listed in `kubectl get managed`. */
export async function managedObjects(plane: ControlPlane): Promise<string[]> {
  const out = await plane.kubectl(['get', 'managed', '-o', 'name']);
  return out.split('\n').filter(Boolean);
}
