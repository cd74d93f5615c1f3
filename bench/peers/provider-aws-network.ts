// The benchmark's AWS network, applied through Crossplane's provider-aws (a peer started by
// startProviderAws in provider-aws.ts) in provider-aws' own API shapes: one VPC, two Subnets
// (us-east-1a, us-east-1b), an InternetGateway attached to the VPC, and a RouteTable with an
// inline default route to the gateway and an association for each subnet. Dependencies are
// wired with references (vpcIdRef, subnetIdRef, gatewayIdRef) as provider-aws' examples do.
// (No SecurityGroup: moto rejects provider-aws' CreateSecurityGroup, "Tag specification must
// have at least one tag".) With `natGateway`, also our heaviest chain's NAT gateway: an Address,
// a NATGateway in subnet a using it, and a private RouteTable whose default route goes through
// the gateway.
//
// It applies everything at once, waits until all are Ready, then deletes everything at once and
// waits until all are gone from the API server, measuring each phase (bench/phase-probe.ts).
import type { KubernetesObject } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl } from '#stack/kubectl';
import { phaseBetween, readProbe, type PhaseFigures, type ProbeTarget } from '../phase-probe';
import { keyOfObject, watchObjects } from '../watch-objects';

interface NetworkPeer {
  kubeconfigPath: string;
}

interface NetworkOptions {
  /** Prefix of the object names (they are cluster-scoped); default `net-<random>`. */
  name?: string;
  region?: string;
  /** Limit for each of the two phases; default 10 minutes. */
  timeoutMs?: number;
  /** Measure each phase's EC2 calls, moto's load and CPU (moto must run with the request counter). */
  probe?: ProbeTarget;
  /**
   * Wait this long between all Ready and the delete; default 0. provider-aws trusts that an
   * EC2 resource is gone only 3 minutes after its creation (its creation grace period, for
   * EC2's eventual consistency), so deleting sooner measures mostly that wait.
   */
  pauseBeforeDeleteMs?: number;
  /** Add the NAT gateway and the private route table behind it (see above). */
  natGateway?: boolean;
}

export interface NetworkResult {
  resources: number;
  /** From `kubectl apply` of all objects until the last of them is Ready=True. */
  applyToAllReadySeconds: number;
  /** Seconds from the apply until each object was Ready, by kind/name. */
  readyAfterSeconds: Record<string, number>;
  /** From `kubectl delete` of all objects until the last of them is gone from the API server. */
  deleteToGoneSeconds: number;
  /** Seconds between all Ready and the delete. */
  pauseBeforeDeleteSeconds: number;
  phases?: { apply: PhaseFigures; delete: PhaseFigures };
}

const group = 'ec2.aws.crossplane.io';
const version = 'v1beta1';
const apiVersion = `${group}/${version}`;
const kinds = [
  { group, version, kind: 'VPC', plural: 'vpcs' },
  { group, version, kind: 'Subnet', plural: 'subnets' },
  { group, version, kind: 'InternetGateway', plural: 'internetgateways' },
  { group, version, kind: 'RouteTable', plural: 'routetables' },
  { group, version, kind: 'Address', plural: 'addresses' },
  { group, version, kind: 'NATGateway', plural: 'natgateways' },
] as const;
const RUN_LABEL = 'chronoplane.dev/bench-run';

function networkManifests(name: string, region: string, runLabel: string, natGateway = false): KubernetesObject[] {
  const metadata = (suffix: string) => ({ name: `${name}-${suffix}`, labels: { [RUN_LABEL]: runLabel } });
  const vpcIdRef = { name: `${name}-vpc` };
  return [
    { apiVersion, kind: 'VPC', metadata: metadata('vpc'), spec: { forProvider: { region, cidrBlock: '10.0.0.0/16' } } },
    ...(['a', 'b'] as const).map((zone, i) => ({
      apiVersion,
      kind: 'Subnet',
      metadata: metadata(`subnet-${zone}`),
      spec: { forProvider: { region, availabilityZone: `${region}${zone}`, cidrBlock: `10.0.${i + 1}.0/24`, vpcIdRef } },
    })),
    { apiVersion, kind: 'InternetGateway', metadata: metadata('igw'), spec: { forProvider: { region, vpcIdRef } } },
    {
      apiVersion,
      kind: 'RouteTable',
      metadata: metadata('rt'),
      spec: {
        forProvider: {
          region,
          vpcIdRef,
          routes: [{ destinationCidrBlock: '0.0.0.0/0', gatewayIdRef: { name: `${name}-igw` } }],
          associations: [{ subnetIdRef: { name: `${name}-subnet-a` } }, { subnetIdRef: { name: `${name}-subnet-b` } }],
        },
      },
    },
    ...(natGateway ? natGatewayManifests(name, region, metadata, vpcIdRef) : []),
  ] as KubernetesObject[];
}

function natGatewayManifests(
  name: string,
  region: string,
  metadata: (suffix: string) => { name: string; labels: Record<string, string> },
  vpcIdRef: { name: string },
): object[] {
  return [
    { apiVersion, kind: 'Address', metadata: metadata('eip'), spec: { forProvider: { region, domain: 'vpc' } } },
    {
      apiVersion,
      kind: 'NATGateway',
      metadata: metadata('nat'),
      spec: {
        forProvider: {
          region,
          subnetIdRef: { name: `${name}-subnet-a` },
          allocationIdRef: { name: `${name}-eip` },
          // moto refuses a tag specification without tags, as for the SecurityGroup.
          tags: [{ key: 'Name', value: `${name}-nat` }],
        },
      },
    },
    {
      apiVersion,
      kind: 'RouteTable',
      metadata: metadata('rt-private'),
      spec: {
        forProvider: {
          region,
          vpcIdRef,
          routes: [{ destinationCidrBlock: '0.0.0.0/0', natGatewayIdRef: { name: `${name}-nat` } }],
          associations: [],
        },
      },
    },
  ];
}

export async function runProviderAwsNetwork(peer: NetworkPeer, options: NetworkOptions = {}): Promise<NetworkResult> {
  const runLabel = randomBytes(4).toString('hex');
  const name = options.name ?? `net-${runLabel}`;
  const region = options.region ?? 'us-east-1';
  const timeoutMs = options.timeoutMs ?? 600_000;
  const { probe } = options;
  const manifests = networkManifests(name, region, runLabel, options.natGateway);
  const expected = manifests.map((obj) => keyOfObject(obj.kind!, obj.metadata!.name!));
  const readProbeIfAny = () => (probe ? readProbe(probe) : Promise.resolve(undefined));

  const objects = await watchObjects(peer.kubeconfigPath, kinds, { labelSelector: `${RUN_LABEL}=${runLabel}` });
  try {
    const beforeApply = await readProbeIfAny();
    const appliedAt = Date.now();
    const allReady = objects.waitFor(() => expected.every((key) => objects.readyAt.has(key)), timeoutMs);
    allReady.catch(() => {}); // awaited below, unless the apply fails first
    await kubectl(peer.kubeconfigPath, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }));
    await allReady.catch((error: Error) => {
      throw new Error(`${error.message}: not all Ready. ${objects.describe()}`);
    });
    const allReadyAt = Date.now();
    const afterApply = await readProbeIfAny();
    if (options.pauseBeforeDeleteMs) await sleep(options.pauseBeforeDeleteMs);
    const beforeDelete = await readProbeIfAny();

    const deleteStart = Date.now();
    const allGone = objects.waitFor(() => !expected.some((key) => objects.current.has(key)), timeoutMs);
    allGone.catch(() => {}); // awaited below, unless the delete fails first
    await kubectl(peer.kubeconfigPath, [
      'delete',
      kinds.map((k) => `${k.plural}.${group}`).join(','),
      '-l',
      `${RUN_LABEL}=${runLabel}`,
      '--wait=false',
    ]);
    await allGone.catch((error: Error) => {
      throw new Error(`${error.message}: not all gone. ${objects.describe()}`);
    });
    const allGoneAt = Date.now();
    const afterDelete = await readProbeIfAny();

    return {
      resources: manifests.length,
      applyToAllReadySeconds: (allReadyAt - appliedAt) / 1000,
      readyAfterSeconds: Object.fromEntries([...objects.readyAt].map(([key, at]) => [key, (at - appliedAt) / 1000])),
      deleteToGoneSeconds: (allGoneAt - deleteStart) / 1000,
      pauseBeforeDeleteSeconds: (options.pauseBeforeDeleteMs ?? 0) / 1000,
      phases:
        probe && beforeApply && afterApply && beforeDelete && afterDelete
          ? { apply: phaseBetween(probe, beforeApply, afterApply), delete: phaseBetween(probe, beforeDelete, afterDelete) }
          : undefined,
    };
  } finally {
    await objects.stop();
  }
}
