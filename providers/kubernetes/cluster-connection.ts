// Turns what names a target cluster into a client config for it: provider-kubernetes'
// configs (a kubeconfig read from a Secret, or the worker's own credentials with
// InjectedIdentity, the control cluster), or a KubernetesCluster (compute.crossplane.io, the
// kubeconfig in its connection Secret) for the workloads scheduled to it. All end in the same
// function, from a Secret's kubeconfig to a ClusterConnection, behind the same cache.
// An Object finds its config by its scope: the legacy cluster-scoped Object
// (kubernetes.crossplane.io) names a legacy cluster-scoped ProviderConfig; a namespaced Object
// (kubernetes.m.crossplane.io) names a ProviderConfig of its own namespace or a
// ClusterProviderConfig, resolved with tenancy by runtime/provider-config.ts.
// The kubeconfig never leaves this module: errors name the ProviderConfig or KubernetesCluster
// and the Secret, never a line of its content, and the cache is keyed by names, the connection
// by a hash. One place for every kind that talks to a target cluster.
import { createHash } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { ConnectContext } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { ClassifiedError } from '#core/errors';
import { KeepAliveKubeConfig, impersonating, loadKubeConfig } from '#runtime/kube-config';
import { assertKubeconfigIsInline } from './kubeconfig-safety';
import {
  checkProviderConfigUse,
  providerConfigRefOf,
  providerConfigScopeKey,
  readProviderConfig,
  type ConfigUser,
  type ResolvedProviderConfig,
} from '#runtime/provider-config';
import { kubernetesProviderConfigApi, type KubernetesProviderConfigSpec } from './providerconfig';
import { modernProviderConfigKinds, type ModernClusterProviderConfigSpec } from './modern-providerconfigs';
import { KUBECONFIG_SECRET_KEY, kubernetesClusterKey, type KubernetesCluster, type KubernetesClusterRef } from './workload/cluster';

export interface ClusterConnection {
  kubeConfig: KubeConfig;
  /** Identifies the cluster and credentials (a hash), for sharing clients and watches per cluster. */
  key: string;
  /**
   * Set when the connection lends the worker's own identity (InjectedIdentity: the control
   * cluster, with the controller's rights) to a namespaced ProviderConfig: its Objects may
   * reach only namespaced objects in this namespace, their ProviderConfig's own. Whoever uses the
   * connection (the Object client) must refuse any other target, cluster-scoped ones included,
   * before reading or writing it; otherwise a namespace's admin would act in every namespace
   * with the controller's rights.
   */
  restrictToNamespace?: string;
  /** Names the config it came from, for messages: `ProviderConfig team-a/local`. */
  description?: string;
}

/** What connecting needs of a managed object: its namespace (none: cluster-scoped) and its providerConfigRef. */
export type ConnectingObject = ConfigUser;

/** Where a kubeconfig is kept: a key of a Secret in the control cluster. */
interface KubeconfigSecretRef {
  namespace: string;
  name: string;
  key: string;
}

/** How long a resolved connection is reused; a rotated kubeconfig takes effect within it. */
const TTL_MS = 10_000;
const cache = new Map<string, { value: Promise<ClusterConnection>; expires: number }>();

/**
 * The cluster an Object's config names. The legacy cluster-scoped Object names a legacy
 * ProviderConfig (kubernetes.crossplane.io) by name; a namespaced Object names, by
 * `providerConfigRef {kind, name}`, a kubernetes.m.crossplane.io ProviderConfig of its own
 * namespace or a ClusterProviderConfig whose namespaceSelector admits its namespace, and is
 * refused (NotAuthorized or MissingConfiguration, Synced=False) otherwise.
 */
export async function connectToCluster(mr: ConnectingObject, context: ConnectContext, now = Date.now()): Promise<ClusterConnection> {
  if (!mr.metadata.namespace) {
    const name = mr.spec.providerConfigRef?.name || 'default';
    return cached(`legacy ProviderConfig ${name}`, now, () => resolveLegacyProviderConfig(name, context));
  }
  // The config and its kubeconfig are cached by the config's full scope (kind, namespace and
  // name: team-b's ProviderConfig "remote" is never team-a's); whether this namespace may use
  // it is decided on every call, as it depends on the namespace too.
  const config = await cachedConfig(`modern ${providerConfigScopeKey(mr)}`, now, () =>
    readProviderConfig(mr, modernProviderConfigKinds, context),
  );
  await checkProviderConfigUse(config, mr.metadata.namespace, context);
  return cached(`modern ${providerConfigScopeKey(mr)}`, now, () => connectionOf(config));
}

/** Names the config an Object uses, for messages: `ProviderConfig "remote"`, `ClusterProviderConfig "default"`. */
export function describeObjectConfig(mr: ConnectingObject): string {
  if (!mr.metadata.namespace) return `ProviderConfig "${mr.spec.providerConfigRef?.name || 'default'}"`;
  const ref = providerConfigRefOf(mr);
  return `${ref.kind} "${ref.name}"`;
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
/** The KubernetesCluster a workload is scheduled to is not registered (any more). */
export class KubernetesClusterGone extends ClassifiedError {
  constructor(owner: string) {
    super('MissingConfiguration', `cannot get ${owner}: not found`);
  }
}

export async function connectToKubernetesCluster(
  cluster: KubernetesClusterRef,
  context: ConnectContext,
  dependent: ManagedResource,
  now = Date.now(),
): Promise<ClusterConnection> {
  const owner = `KubernetesCluster ${cluster.namespace}/${cluster.name}`;
  if (!context.readControlObject) throw new Error(`cannot read ${owner}: this worker cannot read objects of the control cluster`);
  const found = (await context.readControlObject(kubernetesClusterKey(cluster), dependent)) as KubernetesCluster | undefined;
  if (!found) throw new KubernetesClusterGone(owner);
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
  return cachedFor(cache, cacheKey, now, resolve);
}

type ModernConfig = ResolvedProviderConfig<ModernClusterProviderConfigSpec>;
const configCache = new Map<string, { value: Promise<ModernConfig>; expires: number }>();

function cachedConfig(cacheKey: string, now: number, read: () => Promise<ModernConfig>): Promise<ModernConfig> {
  return cachedFor(configCache, cacheKey, now, read);
}

/** A TTL cache of promises; a failed resolution is not kept: the next pass reads the config, cluster and Secret again. */
function cachedFor<T>(
  map: Map<string, { value: Promise<T>; expires: number }>,
  cacheKey: string,
  now: number,
  resolve: () => Promise<T>,
): Promise<T> {
  const hit = map.get(cacheKey);
  if (hit && hit.expires > now) return hit.value;
  const entry = { value: resolve(), expires: now + TTL_MS };
  map.set(cacheKey, entry);
  entry.value.catch(() => {
    if (map.get(cacheKey) === entry) map.delete(cacheKey);
  });
  return entry.value;
}

/**
 * The identity a namespaced ProviderConfig's InjectedIdentity acts as on the control cluster:
 * this ServiceAccount of the ProviderConfig's own namespace, named as upstream names the
 * provider's. Its rights are what the namespace's admins grant it, and Kubernetes lets them
 * grant no more than they hold themselves, so an Object never does what its tenant could not.
 */
export const INJECTED_IDENTITY_SERVICE_ACCOUNT = 'provider-kubernetes';

const injectedIdentityUser = (namespace: string): string => `system:serviceaccount:${namespace}:${INJECTED_IDENTITY_SERVICE_ACCOUNT}`;

/**
 * A kubernetes.m.crossplane.io config's connection. InjectedIdentity means the control
 * cluster: from a ClusterProviderConfig (a cluster admin's) with the worker's own rights; from a
 * namespaced ProviderConfig through impersonation of that namespace's
 * INJECTED_IDENTITY_SERVICE_ACCOUNT, and only for that namespace (restrictToNamespace).
 */
async function connectionOf(config: ModernConfig): Promise<ClusterConnection> {
  const { credentials } = config.spec;
  const description = config.description;
  if (credentials?.source === 'InjectedIdentity') {
    if (config.namespace === undefined) return { kubeConfig: loadKubeConfig(), key: 'injected-identity', description };
    const user = injectedIdentityUser(config.namespace);
    return {
      kubeConfig: impersonating(loadKubeConfig(), user),
      // Its own key: clients and target watches are shared per key, and this one sees only what `user` may.
      key: `injected-identity/${user}`,
      restrictToNamespace: config.namespace,
      description: `${description}, acting as ServiceAccount ${config.namespace}/${INJECTED_IDENTITY_SERVICE_ACCOUNT}`,
    };
  }
  const ref = credentials?.secretRef;
  if (credentials?.source !== 'Secret' || !ref) {
    throw new ClassifiedError(
      'MissingConfiguration',
      `${description}: Chronoplane reads credentials from a Secret (a kubeconfig) or uses InjectedIdentity`,
    );
  }
  const where = `key "${ref.key}" of Secret ${ref.namespace}/${ref.name} (${description})`;
  const text = await config.readSecret(ref);
  if (text === undefined) throw new ClassifiedError('MissingConfiguration', `cannot read the kubeconfig: ${where} not found`);
  return { kubeConfig: parseKubeconfig(text, where), key: createHash('sha256').update(text).digest('hex'), description };
}

async function resolveLegacyProviderConfig(providerConfigName: string, context: ConnectContext): Promise<ClusterConnection> {
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
 * A kubeconfig with inline credentials only (kubeconfig-safety.ts) and a current context that
 * names a cluster with a server; the message never
 * echoes the text. Its clients reuse their TLS connections, as the control cluster's do: with a
 * plain KubeConfig every call to a target cluster paid a TLS handshake (about 8% of the worker's
 * main thread, and the target API server's CPU, while 1,000 Objects were applied).
 */
export function parseKubeconfig(text: string, where: string): KubeConfig {
  assertKubeconfigIsInline(text, where);
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
  configCache.clear();
}
