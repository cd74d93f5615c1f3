// The Object scenario's peer: Crossplane's provider-kubernetes v1.2.1 (provider-kubernetes.ts)
// on a kube-apiserver of its own, its Objects landing in a target cluster the caller started, so
// that it has control and target apart as Chronoplane has. Run with its default flags, as the
// issue asks: --poll=10m (its own default; the stack's helper defaults to 10s for tests), no
// --enable-watches, its default --max-reconcile-rate. ProviderConfig `default` names the target.
//
// It binds :8080 and :9443 whatever it is told, and the box has 2 cores: run it alone.
import {
  ensureProviderKubernetes,
  PROVIDER_KUBERNETES_CONFIG_NAMES,
  PROVIDER_KUBERNETES_VERSION,
  startProviderKubernetes,
} from './provider-kubernetes';

/** provider-kubernetes' own default for `--poll`: how often it observes a Ready Object again. */
const PROVIDER_KUBERNETES_DEFAULT_POLL = '10m';

interface ProviderKubernetesObjects {
  peer: string;
  /** Admin kubeconfig of the peer's own kube-apiserver: create Objects here. */
  kubeconfigPath: string;
  providerConfig: string;
  /** The provider's process, the peer's counterpart of our worker and watcher. */
  controller: Record<string, number>;
  /** 0 when the build was cached. */
  buildSeconds: number;
  /** Its kube-apiserver, CRDs, ProviderConfigs, and a probe Object through and back. */
  startSeconds: number;
  logFile: string;
  stop(): Promise<void>;
}

/** `dir` holds its cluster, certificate and log; `targetKubeconfig` embeds its credentials (a Secret's content). */
export async function startProviderKubernetesObjects(dir: string, targetKubeconfig: string): Promise<ProviderKubernetesObjects> {
  const buildStart = Date.now();
  await ensureProviderKubernetes();
  const buildSeconds = (Date.now() - buildStart) / 1000;
  const startedAt = Date.now();
  const peer = await startProviderKubernetes({ dir, targetKubeconfig, pollInterval: PROVIDER_KUBERNETES_DEFAULT_POLL });
  return {
    peer: `provider-kubernetes ${PROVIDER_KUBERNETES_VERSION}`,
    kubeconfigPath: peer.kubeconfigPath,
    providerConfig: PROVIDER_KUBERNETES_CONFIG_NAMES[0],
    controller: { 'provider-kubernetes': peer.process.pid },
    buildSeconds,
    startSeconds: (Date.now() - startedAt) / 1000,
    logFile: peer.logFile,
    stop: peer.stop,
  };
}
