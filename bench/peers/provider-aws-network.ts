// The benchmark's AWS network, applied through Crossplane's provider-aws (a peer started by
// startProviderAws in stack/peers.ts) in provider-aws' own API shapes: one VPC, two Subnets
// (us-east-1a, us-east-1b), an InternetGateway attached to the VPC, and a RouteTable with an
// inline default route to the gateway and an association for each subnet. Dependencies are
// wired with references (vpcIdRef, subnetIdRef, gatewayIdRef) as provider-aws' examples do.
// (No SecurityGroup: moto rejects provider-aws' CreateSecurityGroup, "Tag specification must
// have at least one tag".)
//
// It applies everything at once, waits until all are Ready, then deletes everything at once and
// waits until all are gone from the API server, counting the EC2 calls of each phase.
import { CustomObjectsApi, KubeConfig, makeInformer, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl } from '../../stack/kubectl';
import { readEc2CallCounts, summarizeEc2Calls, type Ec2CallSummary } from '../ec2-call-counter';

export interface NetworkPeer {
  kubeconfigPath: string;
  ec2Endpoint: string;
  /** Only EC2 calls signed with this access key id are counted. */
  accessKeyId: string;
}

export interface NetworkOptions {
  /** Prefix of the object names (they are cluster-scoped); default `net-<random>`. */
  name?: string;
  region?: string;
  /** Limit for each of the two phases; default 10 minutes. */
  timeoutMs?: number;
  /** Count EC2 calls (moto must run with the request counter); default true. */
  countEc2Calls?: boolean;
  /**
   * Wait this long between all Ready and the delete; default 0. provider-aws trusts that an
   * EC2 resource is gone only 3 minutes after its creation (its creation grace period, for
   * EC2's eventual consistency), so deleting sooner measures mostly that wait.
   */
  pauseBeforeDeleteMs?: number;
}

export interface NetworkResult {
  resources: number;
  /** From `kubectl apply` of all objects until the last of them is Ready=True. */
  applyToAllReadySeconds: number;
  /** Seconds from the apply until each object was Ready, by kind/name. */
  readyAfterSeconds: Record<string, number>;
  /** From `kubectl delete` of all objects until the last of them is gone from the API server. */
  deleteToGoneSeconds: number;
  ec2Calls?: { apply: Ec2CallSummary; delete: Ec2CallSummary };
}

const group = 'ec2.aws.crossplane.io';
const version = 'v1beta1';
const apiVersion = `${group}/${version}`;
const kinds = [
  { kind: 'VPC', plural: 'vpcs' },
  { kind: 'Subnet', plural: 'subnets' },
  { kind: 'InternetGateway', plural: 'internetgateways' },
  { kind: 'RouteTable', plural: 'routetables' },
] as const;
const RUN_LABEL = 'chronoplane.dev/bench-run';

export function networkManifests(name: string, region: string, runLabel: string): KubernetesObject[] {
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
  ] as KubernetesObject[];
}

export async function runProviderAwsNetwork(peer: NetworkPeer, options: NetworkOptions = {}): Promise<NetworkResult> {
  const runLabel = randomBytes(4).toString('hex');
  const name = options.name ?? `net-${runLabel}`;
  const region = options.region ?? 'us-east-1';
  const timeoutMs = options.timeoutMs ?? 600_000;
  const countCalls = options.countEc2Calls ?? true;
  const manifests = networkManifests(name, region, runLabel);
  const keyOf = (obj: KubernetesObject) => `${obj.kind}/${obj.metadata?.name}`;
  const expected = new Set(manifests.map(keyOf));
  const countsNow = () => (countCalls ? readEc2CallCounts(peer.ec2Endpoint) : Promise.resolve([]));

  const objects = await watchObjects(peer.kubeconfigPath, `${RUN_LABEL}=${runLabel}`);
  try {
    const readyAt = new Map<string, number>();
    const countsBeforeApply = await countsNow();
    const appliedAt = Date.now();
    const allReady = objects.waitFor(() => {
      for (const [key, obj] of objects.current) if (isReady(obj) && !readyAt.has(key)) readyAt.set(key, Date.now());
      return [...expected].every((key) => readyAt.has(key));
    }, timeoutMs);
    allReady.catch(() => {}); // awaited below, unless the apply fails first
    await kubectl(peer.kubeconfigPath, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }));
    await allReady.catch((error: Error) => {
      throw new Error(`${error.message}: not all Ready. ${describe(objects.current)}`);
    });
    const allReadyAt = Date.now();
    const countsAfterApply = await countsNow();
    if (options.pauseBeforeDeleteMs) await sleep(options.pauseBeforeDeleteMs);
    const countsBeforeDelete = await countsNow();

    const deleteStart = Date.now();
    const allGone = objects.waitFor(() => ![...expected].some((key) => objects.current.has(key)), timeoutMs);
    allGone.catch(() => {}); // awaited below, unless the delete fails first
    await kubectl(peer.kubeconfigPath, [
      'delete',
      kinds.map((k) => `${k.plural}.${group}`).join(','),
      '-l',
      `${RUN_LABEL}=${runLabel}`,
      '--wait=false',
    ]);
    await allGone.catch((error: Error) => {
      throw new Error(`${error.message}: not all gone. ${describe(objects.current)}`);
    });
    const allGoneAt = Date.now();
    const countsAfterDelete = await countsNow();

    const filter = { accessKeyId: peer.accessKeyId };
    return {
      resources: manifests.length,
      applyToAllReadySeconds: (allReadyAt - appliedAt) / 1000,
      readyAfterSeconds: Object.fromEntries([...readyAt].map(([key, at]) => [key, (at - appliedAt) / 1000])),
      deleteToGoneSeconds: (allGoneAt - deleteStart) / 1000,
      ec2Calls: countCalls
        ? {
            apply: summarizeEc2Calls(countsBeforeApply, countsAfterApply, filter),
            delete: summarizeEc2Calls(countsBeforeDelete, countsAfterDelete, filter),
          }
        : undefined,
    };
  } finally {
    await objects.stop();
  }
}

interface ManagedObject extends KubernetesObject {
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

function isReady(obj: ManagedObject): boolean {
  return obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function describe(objects: Map<string, ManagedObject>): string {
  if (objects.size === 0) return 'None are left.';
  return [...objects]
    .map(([key, obj]) => {
      const conditions = (obj.status?.conditions ?? []).map(
        (c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})` : ''}`,
      );
      const deleting = obj.metadata?.deletionTimestamp ? ' deleting' : '';
      return `${key}${deleting}: ${conditions.join(', ') || 'no conditions'}`;
    })
    .join('; ');
}

interface WatchedObjects {
  /** The objects as last seen, by kind/name. */
  current: Map<string, ManagedObject>;
  /** Resolves once `done()` holds; it is checked now and after every watch event. */
  waitFor(done: () => boolean, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** Informers on the four kinds, restricted to one run's label. */
async function watchObjects(kubeconfigPath: string, labelSelector: string): Promise<WatchedObjects> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const current = new Map<string, ManagedObject>();
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const check of [...waiters]) check();
  };
  let stopped = false;
  const informers = kinds.map(({ kind, plural }) => {
    const list = () =>
      custom.listClusterCustomObject({ group, version, plural, labelSelector }) as Promise<KubernetesListObject<ManagedObject>>;
    const informer = makeInformer<ManagedObject>(kubeConfig, `/apis/${group}/${version}/${plural}`, list, labelSelector);
    const key = (obj: ManagedObject) => `${kind}/${obj.metadata?.name}`;
    informer.on('add', (obj) => (current.set(key(obj), obj), changed()));
    informer.on('update', (obj) => (current.set(key(obj), obj), changed()));
    informer.on('delete', (obj) => (current.delete(key(obj)), changed()));
    // On an error the informer stops; started again, it relists and reports what vanished meanwhile.
    informer.on('error', () => {
      if (!stopped) setTimeout(() => void (stopped || informer.start()), 1_000);
    });
    return informer;
  });
  await Promise.all(informers.map((informer) => informer.start()));
  return {
    current,
    waitFor(done, timeoutMs) {
      return new Promise((resolveWait, reject) => {
        // Unref'd: a wait abandoned after a failed kubectl must not keep the process alive.
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs / 1000}s`));
        }, timeoutMs).unref();
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolveWait();
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await Promise.all(informers.map((informer) => informer.stop()));
    },
  };
}
