// Which credentials a managed resource may use: Crossplane v2's `providerConfigRef {kind, name}`,
// resolved with namespaces as tenant boundaries. A namespaced ProviderConfig serves only the
// managed resources of its own namespace and reads Secrets only there; a ClusterProviderConfig
// (created by cluster admins) serves every namespace its optional `spec.namespaceSelector`
// matches. Every refusal is a ClassifiedError whose message names the config, the namespace and
// why, so it shows as a Synced=False condition the tenant can act on.
//
// Both providers resolve through here: the AWS ProviderConfig pair (aws.chronoplane.io) and
// provider-kubernetes' Crossplane v2 pair (kubernetes.m.crossplane.io).
import type { ClusterKind, ConnectContext } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { ClassifiedError } from '#core/errors';
import { labelSelectorMatches, describeLabelSelector, type LabelSelector } from './label-selector';

export type ProviderConfigKind = 'ProviderConfig' | 'ClusterProviderConfig';

interface ProviderConfigRef {
  kind: ProviderConfigKind;
  name: string;
}

/** What a managed resource without `providerConfigRef` uses, as Crossplane v2's namespaced kinds default it. */
const DEFAULT_PROVIDER_CONFIG_REF: ProviderConfigRef = { kind: 'ClusterProviderConfig', name: 'default' };

/** The pair of kinds one provider serves: its namespaced ProviderConfig and its ClusterProviderConfig. */
export interface ProviderConfigKinds {
  namespaced: ClusterKind & { kind: 'ProviderConfig' };
  cluster: ClusterKind & { kind: 'ClusterProviderConfig' };
}

/** A key of a Secret, as a ProviderConfig's credentials name it. */
export interface SecretKeyRef {
  namespace: string;
  name: string;
  key: string;
}

export interface ResolvedProviderConfig<S> {
  kind: ProviderConfigKind;
  name: string;
  /** Set for a namespaced ProviderConfig: the namespace it lives in, and the only one it serves. */
  namespace?: string;
  spec: S;
  /** For messages: `ProviderConfig team-a/creds`, `ClusterProviderConfig default`. */
  description: string;
  /**
   * Reads one key of a Secret the config names; undefined when the Secret or key is missing.
   * A namespaced config may read only Secrets of its own namespace (admission refuses another
   * one too; this is the check behind it, for objects admitted before the rule).
   */
  readSecret(ref: SecretKeyRef): Promise<string | undefined>;
}

/** What naming a config needs of a managed resource: its spec's reference and its namespace. */
export interface ConfigUser {
  metadata: Pick<ManagedResource['metadata'], 'namespace'>;
  spec: Pick<ManagedResource['spec'], 'providerConfigRef'>;
}

/**
 * The config a managed resource names. Kind absent (an object stored before kinds existed, or a
 * fake in a test) means ClusterProviderConfig, as the CRD's default does.
 */
export function providerConfigRefOf(mr: Pick<ConfigUser, 'spec'>): ProviderConfigRef {
  const ref = mr.spec.providerConfigRef as Partial<ProviderConfigRef> | undefined;
  return {
    kind: ref?.kind === 'ProviderConfig' ? 'ProviderConfig' : DEFAULT_PROVIDER_CONFIG_REF.kind,
    name: ref?.name || DEFAULT_PROVIDER_CONFIG_REF.name,
  };
}

/**
 * One string per distinct config a managed resource can name: `ClusterProviderConfig/default`,
 * `ProviderConfig/team-a/creds`. Two tenants' same-named namespaced ProviderConfigs never share
 * a key, so caches, sweep scopes and tags keyed on it never mix their credentials.
 */
export function providerConfigScopeKey(mr: ConfigUser): string {
  const ref = providerConfigRefOf(mr);
  return ref.kind === 'ProviderConfig' ? `ProviderConfig/${mr.metadata.namespace ?? ''}/${ref.name}` : `ClusterProviderConfig/${ref.name}`;
}

/** The config that `mr` names, read and checked: it exists and `mr`'s namespace may use it. */
export async function resolveProviderConfig<S>(
  mr: ConfigUser,
  kinds: ProviderConfigKinds,
  context: ConnectContext,
): Promise<ResolvedProviderConfig<S>> {
  const config = await readProviderConfig<S & { namespaceSelector?: LabelSelector }>(mr, kinds, context);
  await checkProviderConfigUse(config, mr.metadata.namespace, context);
  return config;
}

/**
 * Reads the config `mr` names, without deciding whether `mr`'s namespace may use it: the part
 * that depends only on `providerConfigScopeKey(mr)`, which callers may cache under that key.
 * Pair it with `checkProviderConfigUse` on every use.
 */
export async function readProviderConfig<S>(
  mr: ConfigUser,
  kinds: ProviderConfigKinds,
  context: ConnectContext,
): Promise<ResolvedProviderConfig<S>> {
  const ref = providerConfigRefOf(mr);
  const ownNamespace = mr.metadata.namespace;
  if (ref.kind === 'ProviderConfig') {
    if (!ownNamespace) {
      throw new ClassifiedError(
        'MissingConfiguration',
        `a cluster-scoped resource cannot use a namespaced ProviderConfig ("${ref.name}"): name a ClusterProviderConfig`,
      );
    }
    if (!context.getNamespacedObject)
      throw new Error(`cannot read ProviderConfig ${ownNamespace}/${ref.name}: this worker cannot read namespaced objects`);
    const found = await context.getNamespacedObject(kinds.namespaced, ownNamespace, ref.name);
    if (!found) {
      throw new ClassifiedError(
        'MissingConfiguration',
        `cannot get ProviderConfig "${ref.name}": not found in namespace ${ownNamespace} (a ProviderConfig serves only its own namespace; use a ClusterProviderConfig to share credentials)`,
      );
    }
    const description = `ProviderConfig ${ownNamespace}/${ref.name}`;
    return {
      kind: 'ProviderConfig',
      name: ref.name,
      namespace: ownNamespace,
      spec: (found.spec ?? {}) as S,
      description,
      readSecret: (secret) => readOwnNamespaceSecret(secret, ownNamespace, description, context),
    };
  }
  const found = await context.getClusterObject(kinds.cluster, ref.name);
  if (!found) throw new ClassifiedError('MissingConfiguration', `cannot get ClusterProviderConfig "${ref.name}": not found`);
  return {
    kind: 'ClusterProviderConfig',
    name: ref.name,
    spec: (found.spec ?? {}) as S,
    description: `ClusterProviderConfig ${ref.name}`,
    // Only cluster admins create ClusterProviderConfigs, so their Secrets may be anywhere.
    readSecret: (secret) => context.getSecretValue(secret.namespace, secret.name, secret.key),
  };
}

/**
 * Whether a resource in `namespace` may use `config`; throws NotAuthorized when not. A namespaced
 * ProviderConfig serves only its own namespace; a ClusterProviderConfig serves the namespaces its
 * `spec.namespaceSelector` matches (every namespace when it has none, as upstream).
 */
export async function checkProviderConfigUse(
  config: ResolvedProviderConfig<{ namespaceSelector?: LabelSelector }>,
  namespace: string | undefined,
  context: ConnectContext,
): Promise<void> {
  if (config.kind === 'ProviderConfig') {
    if (namespace !== config.namespace) {
      throw new ClassifiedError(
        'NotAuthorized',
        `${config.description} serves only namespace ${config.namespace}, not ${namespace ?? 'a cluster-scoped resource'}`,
      );
    }
    return;
  }
  const selector = config.spec.namespaceSelector;
  if (!selector) return;
  if (!namespace) return; // a cluster-scoped resource is a cluster admin's: no namespace to select.
  if (!context.getNamespaceLabels) {
    throw new ClassifiedError('NotAuthorized', `${config.description} restricts namespaces, and this worker cannot read namespace labels`);
  }
  const labels = await context.getNamespaceLabels(namespace);
  if (labels === undefined) {
    throw new ClassifiedError('NotAuthorized', `${config.description} restricts namespaces, and namespace ${namespace} was not found`);
  }
  if (!labelSelectorMatches(selector, labels)) {
    throw new ClassifiedError(
      'NotAuthorized',
      `${config.description} may not be used from namespace ${namespace}: the namespace's labels do not match its namespaceSelector (${describeLabelSelector(selector)})`,
    );
  }
}

/** The Secret read of a namespaced config: only inside its own namespace. */
function readOwnNamespaceSecret(ref: SecretKeyRef, ownNamespace: string, description: string, context: ConnectContext) {
  const namespace = ref.namespace || ownNamespace;
  if (namespace !== ownNamespace) {
    return Promise.reject(
      new ClassifiedError(
        'NotAuthorized',
        `${description} may read credentials only from Secrets in its own namespace (${ownNamespace}), not from ${namespace}/${ref.name}`,
      ),
    );
  }
  return context.getSecretValue(namespace, ref.name, ref.key);
}
