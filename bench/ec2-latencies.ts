// What the realistic-latency mode makes the local EC2 endpoint cost (bench/ec2-latency-proxy.ts
// applies it in front of moto), and the least time any control plane then needs to bring the
// example network up: the sum of the modeled create latencies along its heaviest dependency chain.
//
// Sources. AWS documents the states, not how long they last: a NAT gateway is `pending` while
// "being created and is not ready to process traffic", then `available` (EC2 API Reference,
// NatGateway); an instance enters `pending` at launch and `running` "once it is ready for use"
// (EC2 User Guide, instance lifecycle). The durations here are the short end of what users
// commonly report: a NAT gateway pending a minute or two, an instance some tens of seconds. Per
// call, an assumption rather than a documented figure: about a tenth of a second for a read and
// two to three tenths for a mutation. Modest on purpose: longer figures would only flatter the
// ratio to the chain.
import { heaviestChain, type NetworkGraph } from './network-graph';

export interface Ec2Latencies {
  /** Seconds added to EC2's answer, by Action; unlisted ones take the read or write default. */
  callSeconds: Readonly<Record<string, number>>;
  defaultReadSeconds: number;
  defaultWriteSeconds: number;
  /**
   * Seconds a resource stays pending after its create's answer reached the caller, by the
   * create's Action: Describe answers show it pending until then (moto makes it ready at once).
   */
  pendingSeconds: Readonly<Record<string, number>>;
}

export const REALISTIC_EC2_LATENCIES: Ec2Latencies = {
  callSeconds: {
    CreateVpc: 0.3,
    CreateSubnet: 0.25,
    CreateInternetGateway: 0.2,
    AttachInternetGateway: 0.3,
    CreateRouteTable: 0.2,
    CreateRoute: 0.25,
    AssociateRouteTable: 0.25,
    CreateSecurityGroup: 0.25,
    AuthorizeSecurityGroupIngress: 0.25,
    AuthorizeSecurityGroupEgress: 0.25,
    AllocateAddress: 0.2,
    CreateNatGateway: 0.3,
    CreateKeyPair: 0.2,
    RunInstances: 0.5,
    CreateTags: 0.15,
  },
  defaultReadSeconds: 0.1,
  defaultWriteSeconds: 0.2,
  pendingSeconds: { CreateNatGateway: 60, RunInstances: 10 },
};

/** Reads are Describe* and Get* (EC2's Query API names them so); everything else is a write. */
export function callSeconds(latencies: Ec2Latencies, action: string): number {
  return latencies.callSeconds[action] ?? (/^(Describe|Get)/.test(action) ? latencies.defaultReadSeconds : latencies.defaultWriteSeconds);
}

type ForProvider = Readonly<Record<string, unknown>>;

/**
 * The calls no controller can skip to create each kind of the example as written (an attribute
 * the create cannot set takes a call of its own, one attribute per call), and, for a kind that
 * turns ready later, the read that sees it ready. A kind missing here fails the computation,
 * so a new kind in the example cannot be left out of its limit silently.
 */
const MINIMAL_CREATE: Readonly<
  Record<string, { calls: readonly string[]; attributeCalls?: (p: ForProvider) => string[]; seenReadyBy?: string }>
> = {
  VPC: {
    calls: ['CreateVpc'],
    attributeCalls: (p) => [
      ...(p.enableDnsSupport === false ? ['ModifyVpcAttribute'] : []),
      ...(p.enableDnsHostnames === true ? ['ModifyVpcAttribute'] : []),
    ],
  },
  Subnet: {
    calls: ['CreateSubnet'],
    attributeCalls: (p) => [
      ...(p.mapPublicIpOnLaunch === true ? ['ModifySubnetAttribute'] : []),
      ...(p.assignIpv6AddressOnCreation === true ? ['ModifySubnetAttribute'] : []),
    ],
  },
  InternetGateway: { calls: ['CreateInternetGateway', 'AttachInternetGateway'] },
  RouteTable: { calls: ['CreateRouteTable'] },
  Route: { calls: ['CreateRoute'] },
  RouteTableAssociation: { calls: ['AssociateRouteTable'] },
  SecurityGroup: { calls: ['CreateSecurityGroup'] },
  SecurityGroupRule: { calls: ['AuthorizeSecurityGroupIngress'] },
  Address: { calls: ['AllocateAddress'] },
  NATGateway: { calls: ['CreateNatGateway'], seenReadyBy: 'DescribeNatGateways' },
  KeyPair: { calls: ['CreateKeyPair'] },
  Instance: { calls: ['RunInstances'], seenReadyBy: 'DescribeInstances' },
};

/** The least time from deciding to create one resource of `kind` (asking `forProvider`) to knowing it is ready. */
export function minimalCreateSeconds(latencies: Ec2Latencies, kind: string, forProvider: ForProvider = {}): number {
  const minimal = MINIMAL_CREATE[kind];
  if (!minimal) throw new Error(`no modeled EC2 latency for kind ${kind}: add its calls to bench/ec2-latencies.ts`);
  const calls = [...minimal.calls, ...(minimal.attributeCalls?.(forProvider) ?? [])].reduce(
    (sum, action) => sum + callSeconds(latencies, action),
    0,
  );
  const pending = minimal.calls.reduce((sum, action) => sum + (latencies.pendingSeconds[action] ?? 0), 0);
  const seen = pending > 0 && minimal.seenReadyBy ? callSeconds(latencies, minimal.seenReadyBy) : 0;
  return calls + pending + seen;
}

export interface ModeledChain {
  /** Kind/name along the heaviest chain, first target first. */
  chain: string[];
  seconds: number;
  /** Each object's modeled create latency, by Kind/name. */
  createSeconds: Record<string, number>;
}

/** The heaviest chain of `graph` with each object weighted by its kind's minimal create latency. */
export function modeledChainLimit(graph: NetworkGraph, latencies: Ec2Latencies): ModeledChain {
  const createSeconds = Object.fromEntries(
    graph.objects.map(({ key, api, forProvider }) => [key, round(minimalCreateSeconds(latencies, api.kind, forProvider))]),
  );
  const { path, total } = heaviestChain(graph, (key) => createSeconds[key] ?? 0);
  return { chain: path, seconds: round(total), createSeconds };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
