// One VPC through the whole path (watcher, workflow, EC2, status) and back, before measuring. A
// control plane that users apply to has been running: the first create after start-up also
// loads the EC2 SDK and compiles the workflow code paths, seconds on a loaded 2-core box, and
// that would count against the first objects measured but not against any limit. The peer is
// warmed up the same way (bench/peers/provider-aws.ts waits for canary objects to reconcile).
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { apiVersionOf } from '#core/managed-kind';
import type { BenchStack } from './chronoplane-stack';
import { keyOfObject, watchObjects } from './watch-objects';

const TIMEOUT_MS = 300_000;

/** Creates and deletes one VPC named `warm-up` in `namespace`, which must exist and be watched. */
export async function warmUp(bench: BenchStack, namespace: string): Promise<void> {
  const name = 'warm-up';
  const key = keyOfObject(vpcApi.kind, name);
  const vpcs = await watchObjects(bench.servers.kubeconfigPath, [vpcApi], { namespace });
  try {
    const ready = vpcs.waitFor(() => vpcs.readyAt.has(key), TIMEOUT_MS);
    ready.catch(() => {}); // awaited below, unless the apply fails first
    const vpc = {
      apiVersion: apiVersionOf(vpcApi),
      kind: vpcApi.kind,
      metadata: { name, namespace },
      spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.99.0.0/16' } },
    };
    await bench.kubectl(['apply', '-f', '-'], JSON.stringify(vpc));
    await ready.catch((error: Error) => {
      throw new Error(`${error.message}: the warm-up VPC did not turn Ready. ${vpcs.describe()}`);
    });
    await bench.kubectl(['delete', 'vpc', name, '-n', namespace, '--timeout=120s']);
  } finally {
    await vpcs.stop();
  }
}
