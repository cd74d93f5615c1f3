// The same real servers as the dev stack, for a test run: free ports, state in a
// directory the caller owns (normally a temp dir), and plain child processes that
// die with the test run. No worker or watcher: tests start their own. Like the dev
// stack it can run remote clusters, targets for Objects and workloads, registered as
// Secrets, ProviderConfigs and (in namespace `complex`) KubernetesClusters in the control
// cluster.
import { join } from 'node:path';
import { bootstrapCluster } from './cluster-bootstrap';
import { kubeAuditLogFile, startKubeCluster, type KubeClusterOptions } from './kube';
import { startMoto, type MotoOptions } from './moto';
import { freePort } from './ports';
import {
  REMOTE_CLUSTER_SECRET_NAMESPACE,
  applyExampleKubernetesClusters,
  applyRemoteProviderConfigs,
  registerRemoteClusters,
  remoteClusterSecretName,
  startRemoteClusters,
  type RemoteClusterSpec,
} from './remote-clusters';
import { startTemporal, type TemporalOptions } from './temporal';

interface TestStackOptions {
  dir: string;
  /** Also apply deploy/crds, the AWS credentials Secret and the default ProviderConfig. */
  bootstrap?: boolean;
  /**
   * Names of the remote clusters to start (integration tests: REMOTE_CLUSTER_NAMES). None by
   * default: the benchmark starts this stack too, and three idle clusters instead of one would
   * cost it ~750 MB and some CPU that its figures should not include.
   */
  remoteClusters?: readonly string[];
  /** Audit these user groups' requests to the control cluster (KubeClusterOptions.auditUserGroups). */
  auditUserGroups?: readonly string[];
}

/** What a test needs of a remote cluster; plain data, so vitest can `provide` it. */
export interface TestRemoteCluster {
  name: string;
  server: string;
  /** Admin kubeconfig file, to inspect the remote cluster. */
  kubeconfigPath: string;
  /** The kubeconfig as stored in its Secret (credentials embedded). */
  kubeconfig: string;
  /** Its Secret in the control cluster, key `kubeconfig`. */
  secret: { namespace: string; name: string };
}

/** What integration tests get: two, as Objects spread over clusters (issue 9) need. */
export const REMOTE_CLUSTER_NAMES = ['remote-1', 'remote-2'] as const;

export interface TestStack {
  kubeconfigPath: string;
  kubeServer: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The Temporal web UI, handy when a test fails and the stack is kept around. */
  uiUrl: string;
  ec2Endpoint: string;
  remoteClusters: TestRemoteCluster[];
  /** The control cluster's audit log; written only when started with `auditUserGroups`. */
  kubeAuditLog: string;
  /**
   * What each server was started with: given to startTemporal, startMoto or ensureKubeApiserver
   * again, they start a killed server anew on the same port and state (a chaos run does).
   */
  startOptions: { kube: KubeClusterOptions; temporal: TemporalOptions; moto: MotoOptions };
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
  const remoteSpecs: RemoteClusterSpec[] = [];
  for (const name of options.remoteClusters ?? []) {
    const [apiserverPort, etcdClientPort, etcdPeerPort] = [await nextPort(), await nextPort(), await nextPort()];
    remoteSpecs.push({ name, dir: join(options.dir, name), apiserverPort, etcdClientPort, etcdPeerPort });
  }
  const startOptions = {
    kube: {
      dir: join(options.dir, 'kube'),
      name: 'chronoplane-test',
      apiserverPort,
      etcdClientPort,
      etcdPeerPort,
      detached: false,
      auditUserGroups: options.auditUserGroups,
    },
    temporal: { dir: join(options.dir, 'temporal'), port: temporalPort, uiPort: temporalUiPort, detached: false },
    moto: { dir: join(options.dir, 'moto'), port: motoPort, detached: false },
  };
  const started = await Promise.allSettled([
    startKubeCluster(startOptions.kube),
    startTemporal(startOptions.temporal),
    startMoto(startOptions.moto),
    startRemoteClusters(remoteSpecs, false).then((clusters) => ({
      clusters,
      stop: async () => void (await Promise.allSettled(clusters.map((cluster) => cluster.stop()))),
    })),
  ] as const);
  const [kube, temporal, moto, remotes] = started;
  const stop = async () => {
    // Each part stops on its own so that one failure does not leave the others running.
    await Promise.allSettled(started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
  };
  if (kube.status === 'rejected' || temporal.status === 'rejected' || moto.status === 'rejected' || remotes.status === 'rejected') {
    await stop();
    const reasons = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    throw new Error(`the test stack did not start:\n${reasons.join('\n')}`);
  }
  try {
    await Promise.all([
      options.bootstrap ? bootstrapCluster(kube.value.kubeconfigPath, moto.value.endpoint) : undefined,
      registerRemoteClusters(kube.value.kubeconfigPath, remotes.value.clusters),
    ]);
    // ProviderConfigs and KubernetesClusters need the CRDs, which only a bootstrapped cluster has.
    // The example KubernetesClusters (namespace `complex`) are the dev stack's, so that
    // examples/workload/ applies as written; tests register their own in their own namespace
    // (applyKubernetesClusters; test/integration/kubernetes-clusters.ts).
    if (options.bootstrap) {
      await Promise.all([
        applyRemoteProviderConfigs(kube.value.kubeconfigPath, remotes.value.clusters),
        applyExampleKubernetesClusters(kube.value.kubeconfigPath, remotes.value.clusters),
      ]);
    }
  } catch (error) {
    await stop();
    throw new Error(`the test cluster could not be bootstrapped: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    kubeconfigPath: kube.value.kubeconfigPath,
    kubeServer: kube.value.server,
    temporalAddress: temporal.value.address,
    temporalNamespace: temporal.value.namespace,
    uiUrl: temporal.value.uiUrl,
    ec2Endpoint: moto.value.endpoint,
    kubeAuditLog: kubeAuditLogFile(startOptions.kube.dir),
    remoteClusters: remotes.value.clusters.map((cluster) => ({
      name: cluster.name,
      server: cluster.server,
      kubeconfigPath: cluster.kubeconfigPath,
      kubeconfig: cluster.kubeconfig,
      secret: { namespace: REMOTE_CLUSTER_SECRET_NAMESPACE, name: remoteClusterSecretName(cluster.name) },
    })),
    startOptions,
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
