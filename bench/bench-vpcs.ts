// The VPC objects the scale benchmarks apply: N objects named vpc-00000…, each with a /24 of its
// own and one user tag, the same for our controller and for the minimal-work limit.
import { CustomObjectsApi } from '@kubernetes/client-node';
import { apiVersionOf } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { BENCH_REGION } from './bench-ec2';
import type { WatchedObjects } from './watch-objects';
import { keepAliveKubeConfig } from './limits/minimal-object-controller';
import { mapWithConcurrency } from './parallel';

/** The user tag every benchmark VPC carries; changing it out of band is the drift the benchmark measures. */
export const BENCH_TAG = { key: 'bench', value: 'scale' } as const;

export const benchVpcName = (index: number): string => `vpc-${String(index).padStart(5, '0')}`;

export function benchVpcObject(namespace: string, index: number) {
  return {
    apiVersion: apiVersionOf(vpcApi),
    kind: vpcApi.kind,
    metadata: { name: benchVpcName(index), namespace },
    spec: {
      forProvider: {
        region: BENCH_REGION,
        // 10.0.0.0/24 … 10.255.255.0/24: room for 65,536 VPCs.
        cidrBlock: `10.${(index >> 8) & 255}.${index & 255}.0/24`,
        tags: { [BENCH_TAG.key]: BENCH_TAG.value },
      },
    },
  };
}

/**
 * How the benchmark plays the user: `api`, 32 creates (or deletes) at a time through the API,
 * as the minimal-work limit's user part and the Object scenario do, so that the rows differ
 * only in the controller's work; `kubectl`, one `kubectl apply -f` of a List (one
 * `kubectl delete --all`), as a user would, whose client creates one object at a time.
 */
export type UserPart = 'api' | 'kubectl';

/** How many creates or deletes the `api` user part, and the limit's, keep in flight. */
export const USER_CONCURRENCY = 32;

interface BenchUser {
  kubectl: (args: string[], input?: string) => Promise<unknown>;
  kubeconfigPath: string;
}

/** What applying N benchmark VPCs came to. */
interface BenchVpcApply {
  appliedAt: number;
  /** Until the last create was answered (kubectl returned). */
  userSeconds: number;
  /** Every VPC Ready within the timeout. */
  completed: boolean;
}

/**
 * Creates `count` benchmark VPCs the `via` way, and waits until `vpcs` (a watch of the
 * namespace) has seen them all Ready or the timeout passes.
 */
export async function applyBenchVpcs(
  user: BenchUser,
  vpcs: Pick<WatchedObjects, 'readyAt' | 'waitFor'>,
  options: { namespace: string; count: number; timeoutMs: number; via: UserPart },
): Promise<BenchVpcApply> {
  const allReady = vpcs.waitFor(() => vpcs.readyAt.size >= options.count, options.timeoutMs);
  allReady.catch(() => {}); // awaited below, unless the apply fails first
  const items = Array.from({ length: options.count }, (_, i) => benchVpcObject(options.namespace, i));
  const appliedAt = Date.now();
  if (options.via === 'kubectl') await user.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  else {
    const custom = keepAliveKubeConfig(user.kubeconfigPath).makeApiClient(CustomObjectsApi);
    await mapWithConcurrency(items, USER_CONCURRENCY, (body) =>
      custom.createNamespacedCustomObject({ ...vpcsAt(options.namespace), body }),
    );
  }
  const userSeconds = (Date.now() - appliedAt) / 1000;
  const completed = await allReady.then(
    () => true,
    () => false,
  );
  return { appliedAt, userSeconds, completed };
}

/** Deletes the `count` benchmark VPCs the `via` way, without waiting for them to go; answers the seconds it took. */
export async function deleteBenchVpcs(user: BenchUser, options: { namespace: string; count: number; via: UserPart }): Promise<number> {
  const startedAt = Date.now();
  if (options.via === 'kubectl') await user.kubectl(['delete', 'vpc', '--all', '-n', options.namespace, '--wait=false']);
  else {
    const custom = keepAliveKubeConfig(user.kubeconfigPath).makeApiClient(CustomObjectsApi);
    const names = Array.from({ length: options.count }, (_, i) => benchVpcName(i));
    await mapWithConcurrency(names, USER_CONCURRENCY, (name) =>
      custom.deleteNamespacedCustomObject({ ...vpcsAt(options.namespace), name }),
    );
  }
  return (Date.now() - startedAt) / 1000;
}

const vpcsAt = (namespace: string) => ({ group: vpcApi.group, version: vpcApi.version, namespace, plural: vpcApi.plural });
