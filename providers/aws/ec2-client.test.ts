// The EC2 client a managed resource gets comes from the config it names, resolved per full scope:
// two tenants' same-named ProviderConfigs never share cached settings or clients.
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectContext } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { ClassifiedError } from '#core/errors';
import { ec2ClientFor, forgetAwsSettings } from './ec2-client';

const ini = (key: string) => `[default]\naws_access_key_id = ${key}\naws_secret_access_key = s\n`;
const config = (namespace: string, endpoint: string) => ({
  credentials: { source: 'Secret', secretRef: { namespace, name: 'aws', key: 'credentials' } },
  endpoint: { url: endpoint },
});
const vpcIn = (namespace: string, ref?: { kind: 'ProviderConfig' | 'ClusterProviderConfig'; name: string }) =>
  ({ metadata: { namespace, name: 'v', uid: 'u' }, spec: { forProvider: {}, providerConfigRef: ref } }) as unknown as ManagedResource;

function controlPlane(): ConnectContext {
  const namespaced: Record<string, object> = {
    'team-a/creds': config('team-a', 'http://a.example:4566'),
    'team-b/creds': config('team-b', 'http://b.example:4566'),
  };
  const cluster: Record<string, object> = {
    default: config('chronoplane-system', 'http://shared.example:4566'),
    'team-a-only': { ...config('chronoplane-system', 'http://shared.example:4566'), namespaceSelector: { matchLabels: { team: 'a' } } },
  };
  const labels: Record<string, Record<string, string>> = { 'team-a': { team: 'a' }, 'team-b': { team: 'b' } };
  return {
    getClusterObject: async (_api, name) => cluster[name] && { spec: cluster[name] },
    getNamespacedObject: async (_api, namespace, name) =>
      namespaced[`${namespace}/${name}`] && { spec: namespaced[`${namespace}/${name}`] },
    getNamespaceLabels: async (namespace) => labels[namespace],
    getSecretValue: async (namespace) => ini(`AKID${namespace}`),
  };
}

afterEach(() => forgetAwsSettings());

describe('ec2ClientFor', () => {
  it('gives each tenant its own same-named ProviderConfig’s endpoint and credentials, even right after the other’s', async () => {
    const context = controlPlane();
    const a = await ec2ClientFor('us-east-1', vpcIn('team-a', { kind: 'ProviderConfig', name: 'creds' }), context);
    const b = await ec2ClientFor('us-east-1', vpcIn('team-b', { kind: 'ProviderConfig', name: 'creds' }), context);
    expect(a.endpoint).toBe('http://a.example:4566');
    expect(b.endpoint).toBe('http://b.example:4566');
    expect(a.client).not.toBe(b.client);
    expect((await a.client.config.credentials()).accessKeyId).toBe('AKIDteam-a');
    expect((await b.client.config.credentials()).accessKeyId).toBe('AKIDteam-b');
  });

  it('uses ClusterProviderConfig "default" when nothing is named', async () => {
    const { endpoint } = await ec2ClientFor('us-east-1', vpcIn('team-b'), controlPlane());
    expect(endpoint).toBe('http://shared.example:4566');
  });

  it('refuses a namespace that a ClusterProviderConfig’s selector does not match, though another namespace cached it', async () => {
    const context = controlPlane();
    const ref = { kind: 'ClusterProviderConfig' as const, name: 'team-a-only' };
    await expect(ec2ClientFor('us-east-1', vpcIn('team-a', ref), context)).resolves.toMatchObject({
      endpoint: 'http://shared.example:4566',
    });
    const error = await ec2ClientFor('us-east-1', vpcIn('team-b', ref), context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClassifiedError);
    expect((error as ClassifiedError).failureClass).toBe('NotAuthorized');
    expect((error as Error).message).toMatch(/ClusterProviderConfig team-a-only may not be used from namespace team-b/);
  });
});
