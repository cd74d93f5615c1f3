// Connection details reach the Secret named in writeConnectionSecretToRef, owned by the
// managed resource so the garbage collector removes it with the resource, and nowhere else:
// not workflow history (raw or decrypted), logs, events or status.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { DescribeKeyPairsCommand } from '@aws-sdk/client-ec2';
import { ControlPlane, condition, eventually, textOf, vpcManifest } from './harness';
import { KubeAccess } from '#activities/kube';
import { CONNECTION_SECRET_TYPE, ConnectionPublisher } from '#activities/connection-secret';
import { ENCRYPTED_ENCODING } from '#runtime/payload-codec';
import { refFor, workflowIdFor, type KindApi } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { findKind } from '#providers/registry';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';

let plane: ControlPlane;
let kube: KubeAccess;
beforeAll(async () => {
  plane = await ControlPlane.start('connsecret');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(inject('kubeconfigPath'));
  kube = new KubeAccess(kubeConfig);
});
afterAll(async () => {
  await plane?.stop();
});

async function secret(name: string): Promise<V1Secret | undefined> {
  return kube.readSecret(plane.namespace, name);
}

const decoded = (value: string | undefined) => (value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8'));

describe('publishing to a connection Secret on the real API server', () => {
  it('creates it owned by the resource, refuses a Secret that is not ours, and lets GC delete it', async () => {
    await plane.apply(
      vpcManifest('published', { cidrBlock: '10.90.0.0/16' }, { spec: { writeConnectionSecretToRef: { name: 'vpc-conn' } } }),
    );
    const vpc = (await plane.ready('vpc', 'published')) as unknown as ManagedResource;
    const publisher = new ConnectionPublisher(kube);

    expect(await publisher.publish(vpc, vpcApi, { endpoint: 'vpc.example' })).toBe('wrote endpoint to connection Secret vpc-conn');
    const written = await secret('vpc-conn');
    expect(written?.type).toBe(CONNECTION_SECRET_TYPE);
    expect(decoded(written?.data?.endpoint)).toBe('vpc.example');
    expect(written?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'VPC',
        name: 'published',
        uid: vpc.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);

    // A Secret someone else made under the name another resource asks for stays as it was.
    await plane.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hand-made' }, stringData: { token: 'theirs' } });
    const wantsTheirs = { ...vpc, spec: { ...vpc.spec, writeConnectionSecretToRef: { name: 'hand-made' } } };
    await expect(publisher.publish(wantsTheirs, vpcApi, { endpoint: 'vpc.example' })).rejects.toThrow(
      `cannot publish connection details: Secret ${plane.namespace}/hand-made was not created by Chronoplane`,
    );
    expect(decoded((await secret('hand-made'))?.data?.token)).toBe('theirs');

    await plane.kubectl(['delete', 'vpc', 'published', '--timeout=60s']);
    await eventually(async () => (await secret('vpc-conn')) === undefined, 'the garbage collector to delete the Secret');
  });
});

const keyPairKind = findKind('ec2.aws.chronoplane.io', 'KeyPair');

// Needs the KeyPair kind (providers/aws/ec2/keypair), which returns the private key from create.
describe.skipIf(!keyPairKind)('a KeyPair’s private key', () => {
  const api = keyPairKind?.api as KindApi;
  // Key pair names are unique per region of the moto every test file shares.
  const keyName = (name: string) => `${plane.namespace}-${name}`;
  const keyPair = (name: string, secretName: string) => ({
    apiVersion: `${api.group}/${api.version}`,
    kind: api.kind,
    metadata: { name },
    spec: { forProvider: { region: 'us-east-1', keyName: keyName(name) }, writeConnectionSecretToRef: { name: secretName } },
  });

  it('is in its connection Secret, owned by the KeyPair, and nowhere else', async () => {
    await plane.apply(keyPair('deployer', 'deployer-key'));
    const object = await plane.ready(api.kind.toLowerCase(), 'deployer');
    const written = await secret('deployer-key');
    expect(written?.type).toBe(CONNECTION_SECRET_TYPE);
    expect(written?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: api.kind, uid: object.metadata.uid, controller: true });
    const privateKey = Object.values(written?.data ?? {})
      .map(decoded)
      .find((value) => value?.includes('PRIVATE KEY'));
    expect(privateKey, 'a PEM private key in the Secret').toBeDefined();
    // The line between the PEM armour is what must never leak.
    const keyBody = privateKey!.split('\n').find((line) => line.length > 40)!;

    const workflowId = workflowIdFor(refFor(api, plane.namespace, 'deployer'));
    const raw = await plane.temporal.workflow.getHandle(workflowId).fetchHistory();
    const start = raw.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(Buffer.from(start!.metadata!.encoding!).toString(), 'history payloads are encrypted').toBe(ENCRYPTED_ENCODING);
    const readable = textOf(await plane.decodedHistory(workflowId));
    expect(readable, 'the decrypted history is readable').toContain(`create external resource for ${api.kind} ${plane.namespace}/deployer`);
    const places = {
      'raw history': textOf(raw),
      'decrypted history': readable,
      logs: plane.logs.join(''),
      events: await plane.kubectl(['get', 'events', '-o', 'yaml']),
      object: await plane.kubectl(['get', api.kind.toLowerCase(), 'deployer', '-o', 'yaml']),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.includes(keyBody), `private key in ${where}`).toBe(false);
    }

    // Settled, it neither rewrites the Secret nor loses the key to observe's smaller answer.
    await new Promise((resolve) => setTimeout(resolve, 8_000)); // several 3 s polls
    const later = await secret('deployer-key');
    expect(later?.metadata?.resourceVersion).toBe(written?.metadata?.resourceVersion);

    await plane.kubectl(['delete', api.kind.toLowerCase(), 'deployer', '--timeout=60s']);
    await eventually(async () => (await secret('deployer-key')) === undefined, 'the garbage collector to delete the Secret');
  });

  it('is never made while the Secret it would go to belongs to someone else', async () => {
    await plane.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'occupied' }, stringData: { note: 'not yours' } });
    await plane.apply(keyPair('blocked', 'occupied'));
    const object = await eventually(async () => {
      const o = await plane.getObject(api.kind.toLowerCase(), 'blocked');
      return condition(o, 'Synced')?.status === 'False' && o;
    }, 'Synced=False');
    expect(condition(object, 'Synced')!.message).toContain(
      `cannot publish connection details: Secret ${plane.namespace}/occupied was not created by Chronoplane`,
    );
    const keyPairs = await plane.ec2.send(new DescribeKeyPairsCommand({}));
    expect(keyPairs.KeyPairs?.map((k) => k.KeyName)).not.toContain(keyName('blocked'));
    expect(decoded((await secret('occupied'))?.data?.note)).toBe('not yours');

    // Once the name is free, the key pair is made and its key kept.
    await plane.kubectl(['delete', 'secret', 'occupied']);
    await plane.ready(api.kind.toLowerCase(), 'blocked', 90_000);
    expect((await secret('occupied'))?.metadata?.ownerReferences?.[0]?.uid).toBe(object.metadata.uid);
    await plane.kubectl(['delete', api.kind.toLowerCase(), 'blocked', '--timeout=60s']);
  });
});
