// Turns what names a target cluster into a client config for it: provider-kubernetes'
// ProviderConfig (a kubeconfig read from a Secret, or the worker's own credentials with
// InjectedIdentity, the control cluster), or a KubernetesCluster (compute.crossplane.io, the
// kubeconfig in its connection Secret) for the workloads scheduled to it. Both end in the same
// function, from a Secret's kubeconfig to a ClusterConnection, behind the same cache.
// The kubeconfig never leaves this module: errors name the ProviderConfig or KubernetesCluster
// and the Secret, never a line of its content, and the cache is keyed by names, the connection
// by a hash. One place for every kind that talks to a target cluster.
import { createHash } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { ConnectContext } from '../../runtime/external-client';
import type { ManagedResource } from '../../runtime/managed-resource';
import { ClassifiedError } from '../../runtime/errors';
import { KeepAliveKubeConfig, loadKubeConfig } from '../../runtime/kube-config';
import { kubernetesProviderConfigApi, type KubernetesProviderConfigSpec } from './providerconfig';
import { KUBECONFIG_SECRET_KEY, kubernetesClusterKey, type KubernetesCluster, type KubernetesClusterRef } from './workload/cluster';

export interface ClusterConnection {
  kubeConfig: KubeConfig;
  /** Identifies the cluster and credentials (a hash), for sharing clients and watches per cluster. */
  key: string;
}

/** Where a kubeconfig is kept: a key of a Secret in the control cluster. */
interface KubeconfigSecretRef {
  namespace: string;
  name: string;
  key: string;
}

/** How long a resolved connection is reused; a rotated kubeconfig takes effect within it. */
const TTL_MS = 10_000;
const cache = new Map<string, { connection: Promise<ClusterConnection>; expires: number }>();

/** The cluster a provider-kubernetes ProviderConfig (cluster-scoped) names. */
export function connectToCluster(providerConfigName: string, context: ConnectContext, now = Date.now()): Promise<ClusterConnection> {
  return cached(`ProviderConfig ${providerConfigName}`, now, () => resolveProviderConfig(providerConfigName, context));
}

/**
 * The cluster a KubernetesCluster stands for: the kubeconfig under key `kubeconfig` of its
 * connection Secret (`spec.writeConnectionSecretToRef`, in its namespace).
 *
 * The KubernetesCluster is read on every call through `context.readControlObject` for
 * `dependent` (a KubernetesApplicationResource): served from the shared watch of the kind, it
 * costs no API call, and a KubernetesCluster that appears, goes, or names another Secret wakes
 * the dependent at once. The dependent stops following it with `forgetControlObjects`. Reading
 * the Secret and parsing the kubeconfig are cached as for a ProviderConfig (10 s, failures not
 * kept), keyed by the KubernetesCluster and the Secret it names now.
 */
export async function connectToKubernetesCluster(
  cluster: KubernetesClusterRef,
  context: ConnectContext,
  dependent: ManagedResource,
  now = Date.now(),
): Promise<ClusterConnection> {
  const owner = `KubernetesCluster ${cluster.namespace}/${cluster.name}`;
  if (!context.readControlObject) throw new Error(`cannot read ${owner}: this worker cannot read objects of the control cluster`);
  const found = (await context.readControlObject(kubernetesClusterKey(cluster), dependent)) as KubernetesCluster | undefined;
  if (!found) throw new ClassifiedError('MissingConfiguration', `cannot get ${owner}: not found`);
  const secretName = found.spec?.writeConnectionSecretToRef?.name;
  if (!secretName) {
    throw new ClassifiedError(
      'MissingConfiguration',
      `${owner} has no spec.writeConnectionSecretToRef.name: it names the Secret whose key "${KUBECONFIG_SECRET_KEY}" holds the cluster's kubeconfig`,
    );
  }
  const secret = { namespace: cluster.namespace, name: secretName, key: KUBECONFIG_SECRET_KEY };
  return cached(`${owner} Secret ${secretName}`, now, () => fromKubeconfigSecret(secret, owner, context));
}

function cached(cacheKey: string, now: number, resolve: () => Promise<ClusterConnection>): Promise<ClusterConnection> {
  const hit = cache.get(cacheKey);
  if (hit && hit.expires > now) return hit.connection;
  const entry = { connection: resolve(), expires: now + TTL_MS };
  cache.set(cacheKey, entry);
  // A failed resolution is not kept: the next pass reads the ProviderConfig or KubernetesCluster and the Secret again.
  entry.connection.catch(() => {
    if (cache.get(cacheKey) === entry) cache.delete(cacheKey);
  });
  return entry.connection;
}

async function resolveProviderConfig(providerConfigName: string, context: ConnectContext): Promise<ClusterConnection> {
  const providerConfig = await context.getClusterObject(kubernetesProviderConfigApi, providerConfigName);
  if (!providerConfig) {
    throw new ClassifiedError('MissingConfiguration', `cannot get ProviderConfig "${providerConfigName}": not found`);
  }
  const { credentials } = providerConfig.spec as KubernetesProviderConfigSpec;
  if (credentials.source === 'InjectedIdentity') {
    return { kubeConfig: loadKubeConfig(), key: 'injected-identity' };
  }
  const ref = credentials.secretRef;
  if (credentials.source !== 'Secret' || !ref) {
    throw new ClassifiedError(
      'MissingConfiguration',
      `ProviderConfig "${providerConfigName}": Chronoplane reads credentials from a Secret (a kubeconfig) or uses InjectedIdentity`,
    );
  }
  return fromKubeconfigSecret(ref, `ProviderConfig "${providerConfigName}"`, context);
}

/** The one way from credentials to a connection: a Secret's kubeconfig, read, checked and hashed. `owner` names who points at it. */
async function fromKubeconfigSecret(ref: KubeconfigSecretRef, owner: string, context: ConnectContext): Promise<ClusterConnection> {
  const where = `key "${ref.key}" of Secret ${ref.namespace}/${ref.name} (${owner})`;
  const text = await context.getSecretValue(ref.namespace, ref.name, ref.key);
  if (text === undefined) throw new ClassifiedError('MissingConfiguration', `cannot read the kubeconfig: ${where} not found`);
  return { kubeConfig: parseKubeconfig(text, where), key: createHash('sha256').update(text).digest('hex') };
}

/**
 * A kubeconfig with a current context that names a cluster with a server; the message never
 * echoes the text. Its clients reuse their TLS connections, as the control cluster's do: with a
 * plain KubeConfig every call to a target cluster paid a TLS handshake (about 8% of the worker's
 * main thread, and the target API server's CPU, while 1,000 Objects were applied).
 */
export function parseKubeconfig(text: string, where: string): KubeConfig {
  const kubeConfig = new KeepAliveKubeConfig();
  try {
    kubeConfig.loadFromString(text);
  } catch {
    throw new ClassifiedError('MissingConfiguration', `the kubeconfig in ${where} is not valid YAML or JSON`);
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster?.server) {
    throw new ClassifiedError('MissingConfiguration', `the kubeconfig in ${where} has no current context with a cluster server`);
  }
  return kubeConfig;
}

/** For tests: forget resolved connections. */
export function forgetClusterConnections(): void {
  cache.clear();
}
