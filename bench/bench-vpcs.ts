// The VPC objects the scale benchmarks apply: N objects named vpc-00000…, each with a /24 of its
// own and one user tag, the same for our controller and for the minimal-work limit.
import { apiVersionOf } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { BENCH_REGION } from './bench-ec2';
import type { WatchedObjects } from './watch-objects';

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

/** What one `kubectl apply` of N benchmark VPCs came to. */
interface BenchVpcApply {
  appliedAt: number;
  kubectlSeconds: number;
  /** Every VPC Ready within the timeout. */
  completed: boolean;
}

/**
 * Applies `count` benchmark VPCs in one List, as a user's `kubectl apply -f` would, and waits
 * until `vpcs` (a watch of the namespace) has seen them all Ready or the timeout passes.
 */
export async function applyBenchVpcs(
  kubectl: (args: string[], input?: string) => Promise<unknown>,
  vpcs: Pick<WatchedObjects, 'readyAt' | 'waitFor'>,
  options: { namespace: string; count: number; timeoutMs: number },
): Promise<BenchVpcApply> {
  const allReady = vpcs.waitFor(() => vpcs.readyAt.size >= options.count, options.timeoutMs);
  allReady.catch(() => {}); // awaited below, unless the apply fails first
  const items = Array.from({ length: options.count }, (_, i) => benchVpcObject(options.namespace, i));
  const appliedAt = Date.now();
  await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const kubectlSeconds = (Date.now() - appliedAt) / 1000;
  const completed = await allReady.then(
    () => true,
    () => false,
  );
  return { appliedAt, kubectlSeconds, completed };
}
