// Reaching a target cluster from a ProviderConfig (a kubeconfig from a Secret, or the worker's
// own credentials) or from a KubernetesCluster (the kubeconfig in its connection Secret). A
// missing or malformed Secret is a clear, non-retryable error that names the Secret and never
// repeats its content.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectContext, ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { ClassifiedError } from '#core/errors';
import { connectToCluster, connectToKubernetesCluster, forgetClusterConnections } from './cluster-connection';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: remote
  cluster:
    server: https://127.0.0.1:16443
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: sekret-token-value
contexts:
- name: remote
  context: {cluster: remote, user: admin}
current-context: remote
`;

function context(spec: object | undefined, secret: string | undefined): ConnectContext {
  return {
    getClusterObject: async () => spec && { spec },
    getSecretValue: async () => secret,
  };
}
const fromSecret = {
  credentials: { source: 'Secret', secretRef: { namespace: 'crossplane-system', name: 'remote-1', key: 'kubeconfig' } },
};

/** A legacy cluster-scoped Object (kubernetes.crossplane.io) naming its ProviderConfig by name. */
const legacyObject = (name: string) =>
  ({ metadata: { name: 'o', uid: 'u' }, spec: { forProvider: {}, providerConfigRef: { name } } }) as ManagedResource;

afterEach(() => forgetClusterConnections());

describe('connecting to a target cluster', () => {
  it('reads the kubeconfig from the Secret the ProviderConfig names', async () => {
    const connection = await connectToCluster(legacyObject('remote'), context(fromSecret, KUBECONFIG));
    expect(connection.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16443');
    expect(connection.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['a missing ProviderConfig', undefined, KUBECONFIG, /ProviderConfig "remote": not found/],
    ['a missing Secret key', fromSecret, undefined, /key "kubeconfig" of Secret crossplane-system\/remote-1 .* not found/],
    ['text that is not a kubeconfig', fromSecret, 'token: sekret-token-value\n: : :', /not valid YAML or JSON|no current context/],
    ['a kubeconfig without a current context', fromSecret, KUBECONFIG.replace('current-context: remote', ''), /no current context/],
  ])('refuses %s with a message that names it and never shows the content', async (_what, spec, secret, message) => {
    const error = await connectToCluster(legacyObject('remote'), context(spec, secret)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClassifiedError);
    expect((error as ClassifiedError).failureClass).toBe('MissingConfiguration');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('sekret');
  });

  it('reads the ProviderConfig again after a failure, instead of keeping the failure', async () => {
    await expect(connectToCluster(legacyObject('remote'), context(fromSecret, undefined))).rejects.toThrow();
    await expect(connectToCluster(legacyObject('remote'), context(fromSecret, KUBECONFIG))).resolves.toMatchObject({
      key: expect.any(String),
    });
  });
});

describe('connecting to a KubernetesCluster', () => {
  const dependent = { metadata: { uid: 'uid-of-resource', name: 'wordpress-demo-deployment', namespace: 'complex' } } as ManagedResource;
  const ref = { namespace: 'complex', name: 'wordpress-demo-cluster' };
  const cluster = (secretName: string | undefined) => ({
    apiVersion: 'compute.crossplane.io/v1alpha1',
    kind: 'KubernetesCluster',
    metadata: { namespace: 'complex', name: 'wordpress-demo-cluster', labels: { app: 'wordpress-demo' } },
    spec: secretName === undefined ? {} : { writeConnectionSecretToRef: { name: secretName } },
  });

  /** A control cluster holding what `objects` and `secrets` say, and a record of every read. */
  function controlCluster(objects: { cluster?: object }, secrets: Record<string, string | undefined>) {
    const reads: { key: ControlObjectKey; dependentUid: string }[] = [];
    const secretReads: string[] = [];
    const context: ConnectContext = {
      getClusterObject: async () => {
        throw new Error('a KubernetesCluster is namespaced: not read as a cluster-scoped object');
      },
      getSecretValue: async (namespace, name, key) => {
        secretReads.push(`${namespace}/${name}/${key}`);
        return secrets[`${namespace}/${name}/${key}`];
      },
      readControlObject: async (key, dep) => {
        reads.push({ key, dependentUid: dep.metadata.uid! });
        return objects.cluster as Record<string, unknown> | undefined;
      },
    };
    return { context, reads, secretReads };
  }

  it('reads the kubeconfig under key "kubeconfig" of the connection Secret, in the KubernetesCluster\'s namespace', async () => {
    const { context, reads, secretReads } = controlCluster(
      { cluster: cluster('wordpress-demo-cluster-kubeconfig') },
      {
        'complex/wordpress-demo-cluster-kubeconfig/kubeconfig': KUBECONFIG,
      },
    );
    const connection = await connectToKubernetesCluster(ref, context, dependent);
    expect(connection.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16443');
    expect(reads).toEqual([
      {
        key: {
          apiVersion: 'compute.crossplane.io/v1alpha1',
          kind: 'KubernetesCluster',
          namespace: 'complex',
          name: 'wordpress-demo-cluster',
        },
        dependentUid: 'uid-of-resource',
      },
    ]);
    expect(secretReads).toEqual(['complex/wordpress-demo-cluster-kubeconfig/kubeconfig']);
  });

  it('yields the same connection key as a ProviderConfig with the same kubeconfig, so clients and watches are shared', async () => {
    const viaCluster = await connectToKubernetesCluster(
      ref,
      controlCluster({ cluster: cluster('s') }, { 'complex/s/kubeconfig': KUBECONFIG }).context,
      dependent,
    );
    const viaProviderConfig = await connectToCluster(legacyObject('remote'), context(fromSecret, KUBECONFIG));
    expect(viaCluster.key).toBe(viaProviderConfig.key);
  });

  it('reuses the Secret it read for 10 s, yet reads the KubernetesCluster for every dependent, so each one follows it', async () => {
    const { context, reads, secretReads } = controlCluster({ cluster: cluster('s') }, { 'complex/s/kubeconfig': KUBECONFIG });
    const other = { metadata: { uid: 'uid-of-other', name: 'wordpress-demo-service', namespace: 'complex' } } as ManagedResource;
    const first = await connectToKubernetesCluster(ref, context, dependent, 1_000);
    const second = await connectToKubernetesCluster(ref, context, other, 5_000);
    expect(second).toBe(first);
    expect(reads.map((r) => r.dependentUid)).toEqual(['uid-of-resource', 'uid-of-other']);
    expect(secretReads).toHaveLength(1);
    await connectToKubernetesCluster(ref, context, dependent, 12_000);
    expect(secretReads).toHaveLength(2);
  });

  it('reads the Secret the KubernetesCluster names now, not the one it named before', async () => {
    const objects: { cluster?: object } = { cluster: cluster('old') };
    const { context } = controlCluster(objects, { 'complex/old/kubeconfig': KUBECONFIG, 'complex/new/kubeconfig': undefined });
    await connectToKubernetesCluster(ref, context, dependent);
    objects.cluster = cluster('new');
    const error = await connectToKubernetesCluster(ref, context, dependent).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/Secret complex\/new /);
  });

  it.each([
    ['a missing KubernetesCluster', undefined, KUBECONFIG, /^cannot get KubernetesCluster complex\/wordpress-demo-cluster: not found$/],
    [
      'a KubernetesCluster without a connection Secret',
      cluster(undefined),
      KUBECONFIG,
      /KubernetesCluster complex\/wordpress-demo-cluster has no spec.writeConnectionSecretToRef.name/,
    ],
    [
      'a missing Secret or key',
      cluster('s'),
      undefined,
      /^cannot read the kubeconfig: key "kubeconfig" of Secret complex\/s \(KubernetesCluster complex\/wordpress-demo-cluster\) not found$/,
    ],
    ['text that is not a kubeconfig', cluster('s'), 'token: sekret-token-value\n: : :', /not valid YAML or JSON|no current context/],
    [
      'a kubeconfig without a current context',
      cluster('s'),
      KUBECONFIG.replace('current-context: remote', ''),
      /^the kubeconfig in key "kubeconfig" of Secret complex\/s \(KubernetesCluster complex\/wordpress-demo-cluster\) has no current context/,
    ],
  ])('refuses %s with a message that names it and never shows the content', async (_what, found, secret, message) => {
    const { context } = controlCluster({ cluster: found }, { 'complex/s/kubeconfig': secret });
    const error = await connectToKubernetesCluster(ref, context, dependent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClassifiedError);
    expect((error as ClassifiedError).failureClass).toBe('MissingConfiguration');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('sekret');
  });

  it('reads the Secret again after a failure, instead of keeping the failure', async () => {
    const secrets: Record<string, string | undefined> = { 'complex/s/kubeconfig': undefined };
    const { context } = controlCluster({ cluster: cluster('s') }, secrets);
    await expect(connectToKubernetesCluster(ref, context, dependent)).rejects.toThrow(/not found/);
    secrets['complex/s/kubeconfig'] = KUBECONFIG;
    await expect(connectToKubernetesCluster(ref, context, dependent)).resolves.toMatchObject({ key: expect.any(String) });
  });

  it('keeps apart KubernetesClusters of the same name in different namespaces', async () => {
    const secrets = { 'complex/s/kubeconfig': KUBECONFIG, 'other/s/kubeconfig': KUBECONFIG.replace('16443', '16444') };
    const inComplex = await connectToKubernetesCluster(ref, controlCluster({ cluster: cluster('s') }, secrets).context, dependent);
    const inOther = await connectToKubernetesCluster(
      { namespace: 'other', name: ref.name },
      controlCluster({ cluster: cluster('s') }, secrets).context,
      dependent,
    );
    expect(inComplex.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16443');
    expect(inOther.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16444');
    expect(inOther.key).not.toBe(inComplex.key);
  });
});

describe('connecting a namespaced Object (kubernetes.m.crossplane.io)', () => {
  const namespacedObject = (namespace: string, ref: { kind: 'ProviderConfig' | 'ClusterProviderConfig'; name: string }) =>
    ({ metadata: { name: 'o', uid: 'u', namespace }, spec: { forProvider: {}, providerConfigRef: ref } }) as ManagedResource;

  /** A control cluster with m-group configs (by `namespace/name`, '' for cluster-scoped) and Secrets. */
  function modernCluster(
    configs: Record<string, object>,
    secrets: Record<string, string> = {},
    namespaces: Record<string, Record<string, string>> = {},
  ) {
    const context: ConnectContext = {
      getClusterObject: async (api, name) => {
        expect(api.group).toBe('kubernetes.m.crossplane.io');
        const spec = configs[`/${name}`];
        return spec && { spec };
      },
      getNamespacedObject: async (api, namespace, name) => {
        expect(api.group).toBe('kubernetes.m.crossplane.io');
        const spec = configs[`${namespace}/${name}`];
        return spec && { spec };
      },
      getNamespaceLabels: async (namespace) => namespaces[namespace],
      getSecretValue: async (namespace, name, key) => secrets[`${namespace}/${name}/${key}`],
    };
    return context;
  }
  const secretIn = (namespace: string) => ({
    credentials: { source: 'Secret', secretRef: { namespace, name: 'remote', key: 'kubeconfig' } },
  });

  it('uses a ProviderConfig of the Object’s own namespace, and its Secret there', async () => {
    const context = modernCluster({ 'team-a/remote': secretIn('team-a') }, { 'team-a/remote/kubeconfig': KUBECONFIG });
    const connection = await connectToCluster(namespacedObject('team-a', { kind: 'ProviderConfig', name: 'remote' }), context);
    expect(connection.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16443');
    expect(connection.restrictToNamespace).toBeUndefined();
    expect(connection.description).toBe('ProviderConfig team-a/remote');
  });

  it('never answers team-b with team-a’s cached connection for a same-named ProviderConfig', async () => {
    const other = KUBECONFIG.replace('127.0.0.1:16443', '127.0.0.2:16443');
    const context = modernCluster(
      { 'team-a/remote': secretIn('team-a'), 'team-b/remote': secretIn('team-b') },
      { 'team-a/remote/kubeconfig': KUBECONFIG, 'team-b/remote/kubeconfig': other },
    );
    const a = await connectToCluster(namespacedObject('team-a', { kind: 'ProviderConfig', name: 'remote' }), context);
    const b = await connectToCluster(namespacedObject('team-b', { kind: 'ProviderConfig', name: 'remote' }), context);
    expect(a.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16443');
    expect(b.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.2:16443');
    const c = modernCluster({ 'team-a/remote': secretIn('team-a') }, { 'team-a/remote/kubeconfig': KUBECONFIG });
    const error = await connectToCluster(namespacedObject('team-c', { kind: 'ProviderConfig', name: 'remote' }), c).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/ProviderConfig "remote": not found in namespace team-c/);
  });

  it('refuses a namespaced ProviderConfig whose Secret is in another namespace, naming both', async () => {
    const context = modernCluster({ 'team-b/steal': secretIn('team-a') }, { 'team-a/remote/kubeconfig': KUBECONFIG });
    const error = await connectToCluster(namespacedObject('team-b', { kind: 'ProviderConfig', name: 'steal' }), context).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClassifiedError);
    expect((error as ClassifiedError).failureClass).toBe('NotAuthorized');
    expect((error as Error).message).toBe(
      'ProviderConfig team-b/steal may read credentials only from Secrets in its own namespace (team-b), not from team-a/remote',
    );
  });

  it('restricts InjectedIdentity from a namespaced ProviderConfig to its namespace, and not from a ClusterProviderConfig', async () => {
    const injected = { credentials: { source: 'InjectedIdentity' } };
    const context = modernCluster({ 'team-a/local': injected, '/local': injected });
    const namespaced = await connectToCluster(namespacedObject('team-a', { kind: 'ProviderConfig', name: 'local' }), context);
    expect(namespaced.restrictToNamespace).toBe('team-a');
    const cluster = await connectToCluster(namespacedObject('team-a', { kind: 'ClusterProviderConfig', name: 'local' }), context);
    expect(cluster.restrictToNamespace).toBeUndefined();
  });

  it('checks a ClusterProviderConfig’s namespaceSelector on every use, cached connection or not', async () => {
    const context = modernCluster(
      { '/shared': { ...secretIn('crossplane-system'), namespaceSelector: { matchLabels: { team: 'a' } } } },
      { 'crossplane-system/remote/kubeconfig': KUBECONFIG },
      { 'team-a': { team: 'a' }, 'team-b': { team: 'b' } },
    );
    const ref = { kind: 'ClusterProviderConfig' as const, name: 'shared' };
    await expect(connectToCluster(namespacedObject('team-a', ref), context)).resolves.toMatchObject({ key: expect.any(String) });
    const error = await connectToCluster(namespacedObject('team-b', ref), context).catch((e: unknown) => e);
    expect((error as ClassifiedError).failureClass).toBe('NotAuthorized');
    expect((error as Error).message).toMatch(/ClusterProviderConfig shared may not be used from namespace team-b/);
  });
});
