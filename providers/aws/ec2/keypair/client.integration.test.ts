// Drives the real KeyPairExternalClient against the real moto server, without Kubernetes: the
// four verbs, the private key that only create returns, the retry that finds a key pair whose
// private key was lost, importing a public key, tag drift and the sweep's agreement.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { CreateKeyPairCommand, CreateTagsCommand, DescribeKeyPairsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { UID_TAG } from '../../tags';
import { Ec2Api, uidFilter } from '../ec2-api';
import { expectSweepAgrees } from '#test/integration/sweep-agreement';
import { KeyPairExternalClient } from './client';
import type { KeyPairObservation, KeyPairParameters } from './schema';

const endpoint = inject('ec2Endpoint');
const sdk = new EC2Client({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
const client = new KeyPairExternalClient(new Ec2Api(sdk, { region: 'us-east-1', endpoint }));

type KeyPairResource = ManagedResource<KeyPairParameters, KeyPairObservation>;
const keyPairResource = (forProvider: Omit<KeyPairParameters, 'region'> = {}, uid = randomUUID()): KeyPairResource => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'KeyPair',
  metadata: { name: `key-${uid.slice(0, 8)}`, namespace: 'default', uid, generation: 1, resourceVersion: '1', annotations: {} },
  spec: { forProvider: { region: 'us-east-1', ...forProvider } },
});
const named = (mr: KeyPairResource, externalName: string): KeyPairResource => ({
  ...mr,
  metadata: { ...mr.metadata, annotations: { [EXTERNAL_NAME]: externalName } },
});
const keyPairsWithUid = async (uid: string) => (await sdk.send(new DescribeKeyPairsCommand({ Filters: uidFilter(uid) }))).KeyPairs ?? [];

describe('KeyPair client against moto', () => {
  let mr: KeyPairResource;
  let keyPairId: string;
  let privateKey: string;

  it('reports no key pair before one is recorded', async () => {
    expect(await client.observe(keyPairResource())).toEqual({ resourceExists: false, resourceUpToDate: false });
  });

  it('creates a tagged key pair named after the object, and returns its private key from create only', async () => {
    mr = keyPairResource({ keyType: 'ed25519', tags: { team: 'ops' } });
    const created = await client.create(mr);
    expect(created.externalName).toBe(mr.metadata.name);
    expect(created.summary).toMatch(new RegExp(`^created ed25519 key pair ${mr.metadata.name} \\(key-[0-9a-f]+\\)$`));
    const details = created.connectionDetails!;
    expect(Object.keys(details).sort()).toEqual(['fingerprint', 'keyName', 'keyPairId', 'privateKey']);
    expect(details.privateKey).toContain('PRIVATE KEY');
    expect(created.summary).not.toContain(details.privateKey);
    keyPairId = details.keyPairId!;
    privateKey = details.privateKey!;
    mr = named(mr, created.externalName);

    const observed = await client.observe(mr);
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, readiness: 'Available', diff: undefined });
    expect(observed.atProvider).toMatchObject({
      keyPairId,
      keyName: mr.metadata.name,
      keyType: 'ed25519',
      keyFingerprint: details.fingerprint,
    });
    // Observe publishes what names the key, never the key itself.
    expect(observed.connectionDetails).toEqual({ keyName: mr.metadata.name, keyPairId, fingerprint: details.fingerprint });
    expect(JSON.stringify(observed)).not.toContain('PRIVATE KEY');
    await expectSweepAgrees(client, [mr]);

    const [key] = await keyPairsWithUid(mr.metadata.uid);
    expect(Object.fromEntries(key!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      team: 'ops',
      'crossplane-kind': 'keypair.ec2.aws.chronoplane.io',
      'crossplane-name': mr.metadata.name,
      [UID_TAG]: mr.metadata.uid,
    });
  });

  it('late-initializes the key name the spec left empty', async () => {
    const observed = await client.observe(mr);
    expect(observed.lateInitialized).toEqual({ keyName: mr.metadata.name });
    expect(
      (await client.observe({ ...mr, spec: { forProvider: { ...mr.spec.forProvider, keyName: mr.metadata.name } } })).lateInitialized,
    ).toBeUndefined();
  });

  it('adopts, without deleting, a key pair found after its name was recorded: its Secret was written', async () => {
    const again = await client.create(mr);
    expect(again).toEqual({
      externalName: mr.metadata.name,
      summary: `found key pair ${mr.metadata.name} (${keyPairId}) made by an earlier attempt`,
      connectionDetails: { keyName: mr.metadata.name, keyPairId, fingerprint: expect.any(String) },
    });
    expect((await keyPairsWithUid(mr.metadata.uid)).map((k) => k.KeyPairId)).toEqual([keyPairId]);
  });

  it('replaces a key pair whose private key an interrupted attempt lost, so the retry returns a fresh one', async () => {
    const lost = keyPairResource({ keyName: `lost-${randomUUID().slice(0, 8)}` });
    const first = await client.create(lost); // the worker "dies" here: no Secret, no external name
    const retry = await client.create(lost);
    expect(retry.externalName).toBe(lost.spec.forProvider.keyName);
    expect(retry.summary).toContain(
      `replaced ${first.connectionDetails!.keyPairId}, made by an earlier attempt whose private key was lost`,
    );
    expect(retry.connectionDetails!.privateKey).toContain('PRIVATE KEY');
    expect(retry.connectionDetails!.privateKey).not.toBe(first.connectionDetails!.privateKey);
    const left = await keyPairsWithUid(lost.metadata.uid);
    expect(left.map((k) => k.KeyPairId)).toEqual([retry.connectionDetails!.keyPairId]);
    await client.delete(named(lost, retry.externalName));
  });

  it('imports a public key: no private key anywhere, and a retry adopts what the first attempt imported', async () => {
    const publicKey = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
    // OpenSSH's wire form of an ed25519 key: the last 32 bytes of its SPKI encoding.
    const raw = publicKey.subarray(publicKey.length - 32);
    const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(raw)]);
    const imported = keyPairResource({ publicKeyMaterial: `ssh-ed25519 ${blob.toString('base64')} me@example` });
    const created = await client.create(imported);
    expect(created.summary).toMatch(new RegExp(`^imported key pair ${imported.metadata.name} \\(key-[0-9a-f]+\\)$`));
    expect(created.connectionDetails).not.toHaveProperty('privateKey');
    expect(created.connectionDetails).toMatchObject({ keyName: imported.metadata.name, keyPairId: expect.stringMatching(/^key-/) });
    const retried = await client.create(imported);
    expect(retried.externalName).toBe(created.externalName);
    expect(retried.summary).toContain('made by an earlier attempt');
    expect((await keyPairsWithUid(imported.metadata.uid)).map((k) => k.KeyPairId)).toEqual([created.connectionDetails!.keyPairId]);
    const observed = await client.observe(named(imported, created.externalName));
    expect(observed).toMatchObject({ resourceExists: true, resourceUpToDate: true, atProvider: { keyType: 'ed25519' } });
    await client.delete(named(imported, created.externalName));
  });

  it('refuses a name another key pair already holds, naming the way out', async () => {
    const taken = `taken-${randomUUID().slice(0, 8)}`;
    await sdk.send(new CreateKeyPairCommand({ KeyName: taken }));
    await expect(client.create(keyPairResource({ keyName: taken }))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringContaining(`a key pair of that name already exists in us-east-1; choose another keyName`),
    });
  });

  it('reports tag drift with a readable diff, and update repairs it', async () => {
    await sdk.send(new CreateTagsCommand({ Resources: [keyPairId], Tags: [{ Key: 'rogue', Value: '1' }] }));
    const drifted = await client.observe(mr);
    expect(drifted).toMatchObject({ resourceUpToDate: false, diff: 'tag rogue: not in spec' });
    await expectSweepAgrees(client, [mr]);
    mr = { ...mr, spec: { forProvider: { ...mr.spec.forProvider, tags: { team: 'platform' } } } };
    expect(await client.update(mr)).toBe(`updated key pair ${mr.metadata.name}: set tags team; removed tags rogue`);
    expect(await client.observe(mr)).toMatchObject({ resourceUpToDate: true, diff: undefined });
  });

  it('deletes, observes it gone, and deletes again without error', async () => {
    expect(await client.delete(mr)).toBe(`deleted key pair ${mr.metadata.name}`);
    expect(await client.observe(mr)).toEqual({ resourceExists: false, resourceUpToDate: false });
    await expectSweepAgrees(client, [mr]);
    expect(await client.delete(mr)).toBe(`key pair ${mr.metadata.name} was already gone`);
    expect(privateKey).toBeTruthy();
  });
});

function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}
