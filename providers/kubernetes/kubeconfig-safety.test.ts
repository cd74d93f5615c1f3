import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { assertKubeconfigIsInline, refusedKubeconfigField } from './kubeconfig-safety';

const kubeconfig = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) =>
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'target', cluster: { server: 'https://127.0.0.1:6443', ...cluster } }],
    users: [{ name: 'bob', user }],
    contexts: [{ name: 'target', context: { cluster: 'target', user: 'bob' } }],
    'current-context': 'target',
  });

describe('a kubeconfig from a Secret', () => {
  it('may carry its credentials inline', () => {
    expect(refusedKubeconfigField(kubeconfig({ 'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5' }))).toBeUndefined();
    expect(refusedKubeconfigField(kubeconfig({ token: 'abc' }, { 'certificate-authority-data': 'Y2E=' }))).toBeUndefined();
    expect(refusedKubeconfigField(kubeconfig({ username: 'u', password: 'p' }))).toBeUndefined();
  });

  it.each([
    [{ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'touch', args: ['/tmp/pwned'] } }, {}, 'users[bob].exec'],
    [{ 'auth-provider': { name: 'oidc' } }, {}, 'users[bob].auth-provider'],
    [{ 'client-certificate': '/etc/kubernetes/admin.crt', 'client-key-data': 'a2V5' }, {}, 'users[bob].client-certificate'],
    [{ 'client-key': '/etc/kubernetes/admin.key' }, {}, 'users[bob].client-key'],
    [{ tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' }, {}, 'users[bob].tokenFile'],
    [{ token: 'abc' }, { 'certificate-authority': '/etc/ssl/ca.crt' }, 'clusters[target].certificate-authority'],
  ])('never makes the worker run a command or read its own files (%j %j)', (user, cluster, field) => {
    const text = kubeconfig(user, cluster);
    expect(refusedKubeconfigField(text)).toBe(field);
    expect(() => assertKubeconfigIsInline(text, 'Secret team-b/kc')).toThrow(
      expect.objectContaining({ failureClass: 'InvalidInput', message: expect.stringContaining(`Secret team-b/kc uses ${field}`) }),
    );
  });

  it('names the field, never its value', () => {
    const text = kubeconfig({ 'client-key': '/very/secret/path.key' });
    expect(() => assertKubeconfigIsInline(text, 'here')).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('/very') }),
    );
  });

  it('leaves text that is not a kubeconfig to the parser, which reports it', () => {
    expect(refusedKubeconfigField(': : not yaml [')).toBeUndefined();
    expect(refusedKubeconfigField('just a string')).toBeUndefined();
  });
});
