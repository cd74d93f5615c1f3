// The same real servers as the dev stack, for a test run: free ports, state in a
// directory the caller owns (normally a temp dir), and plain child processes that
// die with the test run. No worker or watcher: tests start their own.
import { join } from 'node:path';
import { bootstrapCluster } from './cluster-bootstrap';
import { startKubeCluster } from './kube';
import { startMoto } from './moto';
import { freePort } from './ports';
import { startTemporal } from './temporal';

export interface TestStackOptions {
  dir: string;
  /** Also apply deploy/crds, the AWS credentials Secret and the default ProviderConfig. */
  bootstrap?: boolean;
}

export interface TestStack {
  kubeconfigPath: string;
  kubeServer: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The Temporal web UI, handy when a test fails and the stack is kept around. */
  uiUrl: string;
  ec2Endpoint: string;
  stop(): Promise<void>;
}

export async function startTestStack(options: TestStackOptions): Promise<TestStack> {
  const nextPort = distinctFreePorts();
  const apiserverPort = await nextPort();
  const etcdClientPort = await nextPort();
  const etcdPeerPort = await nextPort();
  const temporalPort = await nextPort();
  const temporalUiPort = await nextPort();
  const motoPort = await nextPort();
  const started = await Promise.allSettled([
    startKubeCluster({
      dir: join(options.dir, 'kube'),
      name: 'chronoplane-test',
      apiserverPort,
      etcdClientPort,
      etcdPeerPort,
      detached: false,
    }),
    startTemporal({ dir: join(options.dir, 'temporal'), port: temporalPort, uiPort: temporalUiPort, detached: false }),
    startMoto({ dir: join(options.dir, 'moto'), port: motoPort, detached: false }),
  ] as const);
  const [kube, temporal, moto] = started;
  const stop = async () => {
    // Each part stops on its own so that one failure does not leave the others running.
    await Promise.allSettled(started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
  };
  if (kube.status === 'rejected' || temporal.status === 'rejected' || moto.status === 'rejected') {
    await stop();
    const reasons = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    throw new Error(`the test stack did not start:\n${reasons.join('\n')}`);
  }
  if (options.bootstrap) {
    try {
      await bootstrapCluster(kube.value.kubeconfigPath, moto.value.endpoint);
    } catch (error) {
      await stop();
      throw new Error(`the test cluster could not be bootstrapped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    kubeconfigPath: kube.value.kubeconfigPath,
    kubeServer: kube.value.server,
    temporalAddress: temporal.value.address,
    temporalNamespace: temporal.value.namespace,
    uiUrl: temporal.value.uiUrl,
    ec2Endpoint: moto.value.endpoint,
    stop,
  };
}

/** Free ports, never the same one twice (the OS may hand out a just-closed port again). */
function distinctFreePorts(): () => Promise<number> {
  const taken = new Set<number>();
  return async () => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
}
