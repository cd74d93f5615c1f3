// Reaching a target cluster from a ProviderConfig: a kubeconfig from a Secret, or the worker's
// own credentials. A missing or malformed Secret is a clear, non-retryable error that names the
// Secret and never repeats its content.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectContext } from '../../runtime/external-client';
import { ClassifiedError } from '../../runtime/errors';
import { connectToCluster, forgetClusterConnections } from './cluster-connection';

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

afterEach(() => forgetClusterConnections());

describe('connecting to a target cluster', () => {
  it('reads the kubeconfig from the Secret the ProviderConfig names', async () => {
    const connection = await connectToCluster('remote', context(fromSecret, KUBECONFIG));
    expect(connection.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:16443');
    expect(connection.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['a missing ProviderConfig', undefined, KUBECONFIG, /ProviderConfig "remote": not found/],
    ['a missing Secret key', fromSecret, undefined, /key "kubeconfig" of Secret crossplane-system\/remote-1 .* not found/],
    ['text that is not a kubeconfig', fromSecret, 'token: sekret-token-value\n: : :', /not valid YAML or JSON|no current context/],
    ['a kubeconfig without a current context', fromSecret, KUBECONFIG.replace('current-context: remote', ''), /no current context/],
  ])('refuses %s with a message that names it and never shows the content', async (_what, spec, secret, message) => {
    const error = await connectToCluster('remote', context(spec, secret)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClassifiedError);
    expect((error as ClassifiedError).failureClass).toBe('MissingConfiguration');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('sekret');
  });

  it('reads the ProviderConfig again after a failure, instead of keeping the failure', async () => {
    await expect(connectToCluster('remote', context(fromSecret, undefined))).rejects.toThrow();
    await expect(connectToCluster('remote', context(fromSecret, KUBECONFIG))).resolves.toMatchObject({ key: expect.any(String) });
  });
});
