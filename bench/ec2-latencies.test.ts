import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '#stack/paths';
import { callSeconds, minimalCreateSeconds, modeledChainLimit, REALISTIC_EC2_LATENCIES, type Ec2Latencies } from './ec2-latencies';
import { readNetworkGraph } from './network-graph';

const latencies: Ec2Latencies = {
  callSeconds: { CreateNatGateway: 0.3, CreateSubnet: 0.25 },
  defaultReadSeconds: 0.1,
  defaultWriteSeconds: 0.2,
  pendingSeconds: { CreateNatGateway: 60 },
};

describe('callSeconds', () => {
  it("takes an Action's own figure, else the read or write default", () => {
    expect(callSeconds(latencies, 'CreateSubnet')).toBe(0.25);
    expect(callSeconds(latencies, 'DescribeVpcs')).toBe(0.1);
    expect(callSeconds(latencies, 'GetConsoleOutput')).toBe(0.1);
    expect(callSeconds(latencies, 'DeleteVpc')).toBe(0.2);
  });
});

describe('minimalCreateSeconds', () => {
  it('is the create call for a kind that is ready at once', () => {
    expect(minimalCreateSeconds(latencies, 'Subnet')).toBe(0.25);
  });

  it('adds the pending time and the read that sees it ready for a kind that is created later', () => {
    expect(minimalCreateSeconds(latencies, 'NATGateway')).toBeCloseTo(0.3 + 60 + 0.1);
  });

  it('counts every call a kind cannot do without', () => {
    expect(minimalCreateSeconds(latencies, 'InternetGateway')).toBeCloseTo(0.2 + 0.2);
  });

  it('adds a call for each attribute the create cannot set', () => {
    expect(minimalCreateSeconds(latencies, 'Subnet', { mapPublicIpOnLaunch: true })).toBeCloseTo(0.25 + 0.2);
    expect(minimalCreateSeconds(latencies, 'Subnet', { mapPublicIpOnLaunch: false })).toBe(0.25);
    expect(minimalCreateSeconds(latencies, 'VPC', { enableDnsHostnames: true, enableDnsSupport: false })).toBeCloseTo(0.2 + 0.2 + 0.2);
  });

  it('names a kind it has no figures for', () => {
    expect(() => minimalCreateSeconds(latencies, 'TransitGateway')).toThrow('no modeled EC2 latency for kind TransitGateway');
  });
});

describe('modeledChainLimit of examples/aws-network/', () => {
  it('runs through the NAT gateway, the longest wait, and sums the calls along the way', async () => {
    const graph = await readNetworkGraph(join(repoRoot, 'examples', 'aws-network'), 'bench-network');
    const limit = modeledChainLimit(graph, REALISTIC_EC2_LATENCIES);
    expect(limit.chain.map((key) => key.split('/')[0])).toEqual(['VPC', 'Subnet', 'NATGateway', 'Route']);
    // The VPC asks for DNS hostnames and the subnet maps public IPs: a ModifyVpcAttribute and a ModifySubnetAttribute.
    expect(limit.seconds).toBeCloseTo(0.3 + 0.2 + (0.25 + 0.2) + (0.3 + 60 + 0.1) + 0.25);
    expect(Object.keys(limit.createSeconds)).toHaveLength(graph.objects.length);
  });
});
