// Turns a provider-kubernetes ProviderConfig into a client config for its cluster: a kubeconfig
// read from a Secret, or the worker's own credentials (InjectedIdentity, the control cluster).
// The kubeconfig never leaves this module: errors name the ProviderConfig and the Secret, never
// a line of its content, and the cache is keyed by a hash. One place for every kind that talks
// to a target cluster (Object now, KubernetesCluster-scheduled workloads next).
import { createHash } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { ConnectContext } from '../../runtime/external-client';
import { ClassifiedError } from '../../runtime/errors';
import { loadKubeConfig } from '../../runtime/kube-config';
import { kubernetesProviderConfigApi, type KubernetesProviderConfigSpec } from './providerconfig';

export interface ClusterConnection {
  kubeConfig: KubeConfig;
  /** Identifies the cluster and credentials (a hash), for sharing clients and watches per cluster. */
  key: string;
}

/** How long a resolved ProviderConfig is reused; a rotated kubeconfig takes effect within it. */
const TTL_MS = 10_000;
const cache = new Map<string, { connection: Promise<ClusterConnection>; expires: number }>();

export function connectToCluster(providerConfigName: string, context: ConnectContext, now = Date.now()): Promise<ClusterConnection> {
  const cached = cache.get(providerConfigName);
  if (cached && cached.expires > now) return cached.connection;
  const connection = resolve(providerConfigName, context);
  cache.set(providerConfigName, { connection, expires: now + TTL_MS });
  // A failed resolution is not kept: the next pass reads the ProviderConfig and Secret again.
  connection.catch(() => cache.delete(providerConfigName));
  return connection;
}

async function resolve(providerConfigName: string, context: ConnectContext): Promise<ClusterConnection> {
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
  const where = `key "${ref.key}" of Secret ${ref.namespace}/${ref.name} (ProviderConfig "${providerConfigName}")`;
  const text = await context.getSecretValue(ref.namespace, ref.name, ref.key);
  if (text === undefined) throw new ClassifiedError('MissingConfiguration', `cannot read the kubeconfig: ${where} not found`);
  return { kubeConfig: parseKubeconfig(text, where), key: createHash('sha256').update(text).digest('hex') };
}

/** A kubeconfig with a current context that names a cluster with a server; the message never echoes the text. */
export function parseKubeconfig(text: string, where: string): KubeConfig {
  const kubeConfig = new KubeConfig();
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

/** For tests: forget resolved ProviderConfigs. */
export function forgetClusterConnections(): void {
  cache.clear();
}
