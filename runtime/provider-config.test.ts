// Which config a managed resource may use: a namespaced ProviderConfig only from its own
// namespace, a ClusterProviderConfig from the namespaces its selector matches, and every refusal
// a message that names the config, the namespace and why.
import { describe, expect, it } from 'vitest';
import type { ClusterKind, ConnectContext } from '#core/external-client';
import { ClassifiedError } from '#core/errors';
import { describeLabelSelector, labelSelectorMatches, type LabelSelector } from './label-selector';
import {
  providerConfigRefOf,
  providerConfigScopeKey,
  resolveProviderConfig,
  type ConfigUser,
  type ProviderConfigKinds,
} from './provider-config';

const kinds: ProviderConfigKinds = {
  namespaced: { group: 'aws.chronoplane.io', version: 'v1alpha1', plural: 'providerconfigs', kind: 'ProviderConfig' },
  cluster: { group: 'aws.chronoplane.io', version: 'v1alpha1', plural: 'clusterproviderconfigs', kind: 'ClusterProviderConfig' },
};

const user = (namespace: string | undefined, ref?: { kind?: 'ProviderConfig' | 'ClusterProviderConfig'; name: string }): ConfigUser => ({
  metadata: { namespace },
  spec: { providerConfigRef: ref },
});

/** A control plane holding these configs, namespaces and Secrets; records which Secrets were read. */
function controlPlane(options: {
  namespaced?: Record<string, object>;
  cluster?: Record<string, object>;
  namespaces?: Record<string, Record<string, string>>;
}) {
  const secretReads: string[] = [];
  const context: ConnectContext = {
    getClusterObject: async (api: ClusterKind, name) => {
      expect(api.plural).toBe('clusterproviderconfigs');
      const spec = options.cluster?.[name];
      return spec && { spec };
    },
    getNamespacedObject: async (api, namespace, name) => {
      expect(api.plural).toBe('providerconfigs');
      const spec = options.namespaced?.[`${namespace}/${name}`];
      return spec && { spec };
    },
    getNamespaceLabels: async (namespace) => options.namespaces?.[namespace],
    getSecretValue: async (namespace, name, key) => {
      secretReads.push(`${namespace}/${name}/${key}`);
      return 'file';
    },
  };
  return { context, secretReads };
}

async function refusal(promise: Promise<unknown>): Promise<ClassifiedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClassifiedError);
  return error as ClassifiedError;
}

describe('providerConfigRefOf and providerConfigScopeKey', () => {
  it('default to ClusterProviderConfig "default", as Crossplane v2 namespaced kinds do', () => {
    expect(providerConfigRefOf(user('team-a'))).toEqual({ kind: 'ClusterProviderConfig', name: 'default' });
    expect(providerConfigRefOf(user(undefined, { name: 'legacy' }))).toEqual({ kind: 'ClusterProviderConfig', name: 'legacy' });
  });

  it('tell two tenants’ same-named ProviderConfigs apart, and share a ClusterProviderConfig', () => {
    const a = providerConfigScopeKey(user('team-a', { kind: 'ProviderConfig', name: 'creds' }));
    const b = providerConfigScopeKey(user('team-b', { kind: 'ProviderConfig', name: 'creds' }));
    expect(a).toBe('ProviderConfig/team-a/creds');
    expect(b).toBe('ProviderConfig/team-b/creds');
    expect(providerConfigScopeKey(user('team-a', { kind: 'ClusterProviderConfig', name: 'creds' }))).toBe('ClusterProviderConfig/creds');
    expect(providerConfigScopeKey(user('team-b', { kind: 'ClusterProviderConfig', name: 'creds' }))).toBe('ClusterProviderConfig/creds');
  });
});

describe('labelSelectorMatches', () => {
  const labels = { team: 'a', tier: 'web' };
  it.each<[string, LabelSelector, boolean]>([
    ['an empty selector', {}, true],
    ['matchLabels that hold', { matchLabels: { team: 'a' } }, true],
    ['matchLabels with another value', { matchLabels: { team: 'b' } }, false],
    ['matchLabels with a missing key', { matchLabels: { env: 'prod' } }, false],
    ['In that holds', { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] }, true],
    ['In on a missing key', { matchExpressions: [{ key: 'env', operator: 'In', values: ['a'] }] }, false],
    ['NotIn that holds', { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['b'] }] }, true],
    ['NotIn on a missing key', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, true],
    ['NotIn that fails', { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] }, false],
    ['Exists', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    ['Exists on a missing key', { matchExpressions: [{ key: 'env', operator: 'Exists' }] }, false],
    ['DoesNotExist', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, true],
    ['DoesNotExist on a present key', { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, false],
    ['labels and expressions, all holding', { matchLabels: { team: 'a' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    ['labels and expressions, one failing', { matchLabels: { team: 'a' }, matchExpressions: [{ key: 'env', operator: 'Exists' }] }, false],
    [
      'an operator it does not know (selects nothing)',
      { matchExpressions: [{ key: 'team', operator: 'Gt' as never, values: ['1'] }] },
      false,
    ],
  ])('%s', (_what, selector, expected) => {
    expect(labelSelectorMatches(selector, labels)).toBe(expected);
  });

  it('a label inherited from Object.prototype is not a label', () => {
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {})).toBe(false);
  });

  it('is described in kubectl’s -l syntax', () => {
    expect(
      describeLabelSelector({
        matchLabels: { team: 'a' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['web', 'db'] },
          { key: 'env', operator: 'NotIn', values: ['prod'] },
          { key: 'x', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('team=a,tier in (web,db),env notin (prod),x,!legacy');
    expect(describeLabelSelector({})).toBe('(any)');
  });
});

describe('resolveProviderConfig', () => {
  const spec = { credentials: { source: 'Secret', secretRef: { namespace: 'team-a', name: 'aws', key: 'credentials' } } };

  it('finds a namespaced ProviderConfig in the object’s own namespace only', async () => {
    const { context } = controlPlane({ namespaced: { 'team-a/creds': spec } });
    const config = await resolveProviderConfig(user('team-a', { kind: 'ProviderConfig', name: 'creds' }), kinds, context);
    expect(config).toMatchObject({
      kind: 'ProviderConfig',
      name: 'creds',
      namespace: 'team-a',
      description: 'ProviderConfig team-a/creds',
    });

    const error = await refusal(resolveProviderConfig(user('team-b', { kind: 'ProviderConfig', name: 'creds' }), kinds, context));
    expect(error.failureClass).toBe('MissingConfiguration');
    expect(error.message).toBe(
      'cannot get ProviderConfig "creds": not found in namespace team-b (a ProviderConfig serves only its own namespace; use a ClusterProviderConfig to share credentials)',
    );
  });

  it('refuses a namespaced ProviderConfig to a cluster-scoped object', async () => {
    const { context } = controlPlane({ namespaced: { 'team-a/creds': spec } });
    const error = await refusal(resolveProviderConfig(user(undefined, { kind: 'ProviderConfig', name: 'creds' }), kinds, context));
    expect(error.message).toMatch(/a cluster-scoped resource cannot use a namespaced ProviderConfig \("creds"\)/);
  });

  it('reads a namespaced config’s Secret only in its own namespace', async () => {
    const { context, secretReads } = controlPlane({ namespaced: { 'team-a/creds': spec } });
    const config = await resolveProviderConfig(user('team-a', { kind: 'ProviderConfig', name: 'creds' }), kinds, context);
    await expect(config.readSecret({ namespace: 'team-a', name: 'aws', key: 'credentials' })).resolves.toBe('file');
    const error = await refusal(config.readSecret({ namespace: 'team-b', name: 'db', key: 'password' }));
    expect(error.failureClass).toBe('NotAuthorized');
    expect(error.message).toBe(
      'ProviderConfig team-a/creds may read credentials only from Secrets in its own namespace (team-a), not from team-b/db',
    );
    expect(secretReads).toEqual(['team-a/aws/credentials']);
  });

  it('lets a ClusterProviderConfig without a selector serve every namespace, and read Secrets anywhere', async () => {
    const { context } = controlPlane({ cluster: { default: { credentials: { source: 'Environment' } } } });
    const config = await resolveProviderConfig(user('team-b'), kinds, context);
    expect(config).toMatchObject({ kind: 'ClusterProviderConfig', name: 'default' });
    expect(config.namespace).toBeUndefined();
    await expect(config.readSecret({ namespace: 'chronoplane-system', name: 'aws', key: 'k' })).resolves.toBe('file');
  });

  it('serves the namespaces a ClusterProviderConfig’s namespaceSelector matches, and refuses the others by name', async () => {
    const { context } = controlPlane({
      cluster: { shared: { credentials: { source: 'Environment' }, namespaceSelector: { matchLabels: { team: 'a' } } } },
      namespaces: { 'team-a': { team: 'a' }, 'team-b': { team: 'b' } },
    });
    const ref = { kind: 'ClusterProviderConfig' as const, name: 'shared' };
    await expect(resolveProviderConfig(user('team-a', ref), kinds, context)).resolves.toMatchObject({ name: 'shared' });

    const error = await refusal(resolveProviderConfig(user('team-b', ref), kinds, context));
    expect(error.failureClass).toBe('NotAuthorized');
    expect(error.message).toBe(
      "ClusterProviderConfig shared may not be used from namespace team-b: the namespace's labels do not match its namespaceSelector (team=a)",
    );
    const gone = await refusal(resolveProviderConfig(user('team-gone', ref), kinds, context));
    expect(gone.message).toBe('ClusterProviderConfig shared restricts namespaces, and namespace team-gone was not found');
  });

  it('refuses rather than allows when the worker cannot read namespace labels', async () => {
    const { context } = controlPlane({
      cluster: { shared: { credentials: { source: 'Environment' }, namespaceSelector: { matchLabels: { team: 'a' } } } },
    });
    delete context.getNamespaceLabels;
    const error = await refusal(resolveProviderConfig(user('team-a', { kind: 'ClusterProviderConfig', name: 'shared' }), kinds, context));
    expect(error.failureClass).toBe('NotAuthorized');
  });

  it('says which ClusterProviderConfig is missing', async () => {
    const { context } = controlPlane({});
    const error = await refusal(resolveProviderConfig(user('team-a'), kinds, context));
    expect(error.failureClass).toBe('MissingConfiguration');
    expect(error.message).toBe('cannot get ClusterProviderConfig "default": not found');
  });
});
