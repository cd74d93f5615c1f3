import { describe, expect, it } from 'vitest';
import type { V1Secret } from '@kubernetes/client-node';
import { CONNECTION_SECRET_TYPE, ConnectionPublisher, planConnectionSecret, type SecretAccess } from './connection-secret';
import type { KindApi } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';

const api = { group: 'ec2.aws.chronoplane.io', version: 'v1alpha1', kind: 'KeyPair' } as KindApi;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function keyPair(uid = 'uid-1', secretName: string | null = 'key'): ManagedResource {
  return {
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'KeyPair',
    metadata: { name: 'deployer', namespace: 'team-a', uid, generation: 1, resourceVersion: '1' },
    spec: { forProvider: {}, ...(secretName ? { writeConnectionSecretToRef: { name: secretName } } : {}) },
  };
}

function ours(data: Record<string, string>, uid = 'uid-1'): V1Secret {
  return {
    metadata: {
      name: 'key',
      namespace: 'team-a',
      resourceVersion: '7',
      ownerReferences: [{ apiVersion: 'ec2.aws.chronoplane.io/v1alpha1', kind: 'KeyPair', name: 'deployer', uid, controller: true }],
    },
    type: CONNECTION_SECRET_TYPE,
    data,
  };
}

describe('planConnectionSecret', () => {
  it('creates a connection Secret controlled by the resource', () => {
    const plan = planConnectionSecret(keyPair(), api, 'key', { privateKey: 'PEM' }, undefined);
    expect(plan).toEqual({
      action: 'create',
      secret: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'key',
          namespace: 'team-a',
          ownerReferences: [
            {
              apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
              kind: 'KeyPair',
              name: 'deployer',
              uid: 'uid-1',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        type: 'connection.crossplane.io/v1alpha1',
        data: { privateKey: b64('PEM') },
      },
    });
  });

  it('leaves a Secret that already holds the details alone', () => {
    const existing = ours({ privateKey: b64('PEM'), keyName: b64('deployer') });
    expect(planConnectionSecret(keyPair(), api, 'key', { keyName: 'deployer' }, existing)).toEqual({ action: 'unchanged' });
  });

  it('merges changed details in, keeping keys it was not given and the resourceVersion it read', () => {
    const existing = ours({ privateKey: b64('PEM'), publicIp: b64('1.2.3.4') });
    const plan = planConnectionSecret(keyPair(), api, 'key', { publicIp: '5.6.7.8' }, existing);
    expect(plan.action).toBe('update');
    if (plan.action !== 'update') return;
    expect(plan.secret.data).toEqual({ privateKey: b64('PEM'), publicIp: b64('5.6.7.8') });
    expect(plan.secret.metadata?.resourceVersion).toBe('7');
  });

  it.each([
    ['another resource', ours({}, 'uid-other'), /is controlled by KeyPair deployer \(uid uid-other\)/],
    ['a hand-made Secret', { metadata: { name: 'key', namespace: 'team-a' }, type: 'Opaque', data: {} }, /was not created by Chronoplane/],
    ['an Opaque Secret that names us', { ...ours({}), type: 'Opaque' }, /is controlled by KeyPair deployer \(uid uid-1\)/],
  ])('refuses to overwrite %s', (_, existing, reason) => {
    const plan = planConnectionSecret(keyPair(), api, 'key', { privateKey: 'PEM' }, existing as V1Secret);
    expect(plan.action).toBe('refuse');
    if (plan.action !== 'refuse') return;
    expect(plan.reason).toMatch(reason);
    expect(plan.reason).toContain('cannot publish connection details: Secret team-a/key');
    expect(plan.reason).not.toContain('PEM');
  });
});

/** Secrets in memory, counting the calls a publisher makes. */
class Secrets implements SecretAccess {
  readonly stored = new Map<string, V1Secret>();
  readonly calls: string[] = [];
  async readSecret(namespace: string, name: string) {
    this.calls.push('read');
    return structuredClone(this.stored.get(`${namespace}/${name}`));
  }
  async createSecret(namespace: string, secret: V1Secret) {
    this.calls.push('create');
    this.stored.set(`${namespace}/${secret.metadata!.name}`, structuredClone(secret));
  }
  async replaceSecret(namespace: string, name: string, secret: V1Secret) {
    this.calls.push('replace');
    this.stored.set(`${namespace}/${name}`, structuredClone(secret));
  }
}

describe('ConnectionPublisher', () => {
  function setup() {
    const secrets = new Secrets();
    let now = 0;
    const publisher = new ConnectionPublisher(secrets, 60_000, () => now);
    return { secrets, publisher, advance: (ms: number) => (now += ms) };
  }

  it('drops details when the resource names no Secret', async () => {
    const { secrets, publisher } = setup();
    expect(await publisher.publish(keyPair('uid-1', null), api, { privateKey: 'PEM' })).toBeUndefined();
    expect(secrets.calls).toEqual([]);
  });

  it('writes once, then neither reads nor writes while the details stay the same', async () => {
    const { secrets, publisher, advance } = setup();
    expect(await publisher.publish(keyPair(), api, { publicIp: '1.2.3.4', privateIp: '10.0.0.5' })).toBe(
      'wrote privateIp, publicIp to connection Secret key',
    );
    for (let pass = 0; pass < 5; pass++) {
      advance(5_000);
      expect(await publisher.publish(keyPair(), api, { privateIp: '10.0.0.5', publicIp: '1.2.3.4' })).toBeUndefined();
    }
    expect(secrets.calls).toEqual(['read', 'create']);
  });

  it('looks again after the recheck interval, and restores a Secret that was deleted', async () => {
    const { secrets, publisher, advance } = setup();
    await publisher.publish(keyPair(), api, { publicIp: '1.2.3.4' });
    advance(61_000);
    expect(await publisher.publish(keyPair(), api, { publicIp: '1.2.3.4' })).toBeUndefined();
    secrets.stored.clear();
    advance(61_000);
    expect(await publisher.publish(keyPair(), api, { publicIp: '1.2.3.4' })).toBe('wrote publicIp to connection Secret key');
    expect(secrets.calls).toEqual(['read', 'create', 'read', 'read', 'create']);
  });

  it('writes at once when the details change', async () => {
    const { secrets, publisher } = setup();
    await publisher.publish(keyPair(), api, { privateKey: 'PEM', publicIp: '1.2.3.4' });
    await publisher.publish(keyPair(), api, { publicIp: '5.6.7.8' });
    expect(secrets.calls).toEqual(['read', 'create', 'read', 'replace']);
    expect(secrets.stored.get('team-a/key')!.data).toEqual({ privateKey: b64('PEM'), publicIp: b64('5.6.7.8') });
  });

  it('refuses a Secret that is not ours with a classified error, and writes nothing', async () => {
    const { secrets, publisher } = setup();
    secrets.stored.set('team-a/key', ours({ token: b64('theirs') }, 'uid-other'));
    await expect(publisher.publish(keyPair(), api, { privateKey: 'PEM' })).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining('Secret team-a/key is controlled by KeyPair deployer'),
    });
    await expect(publisher.ensureWritable(keyPair())).rejects.toMatchObject({ failureClass: 'InvalidInput' });
    expect(secrets.stored.get('team-a/key')!.data).toEqual({ token: b64('theirs') });
    expect(secrets.calls).not.toContain('replace');
  });

  it('lets a create go ahead when the Secret is absent or already ours', async () => {
    const { secrets, publisher } = setup();
    await publisher.ensureWritable(keyPair());
    secrets.stored.set('team-a/key', ours({}));
    await publisher.ensureWritable(keyPair());
    await publisher.ensureWritable(keyPair('uid-1', null));
    expect(secrets.calls).toEqual(['read', 'read']);
  });

  it('does not let a successor under the same name reuse its predecessor’s memory', async () => {
    const { secrets, publisher } = setup();
    await publisher.publish(keyPair('uid-1'), api, { publicIp: '1.2.3.4' });
    await expect(publisher.publish(keyPair('uid-2'), api, { publicIp: '1.2.3.4' })).rejects.toMatchObject({ failureClass: 'InvalidInput' });
    expect(secrets.calls).toEqual(['read', 'create', 'read']);
  });
});
