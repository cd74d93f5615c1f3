// Credentials come from a namespaced ProviderConfig's Secret and never leave the activity that uses them:
// not in workflow history, not in logs, not in events, not in the object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ControlPlane, condition, eventually, vpcManifest } from './harness';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { reconcileNowUpdate } from '#contract/reconcile-workflow';

let plane: ControlPlane;
beforeAll(async () => {
  plane = await ControlPlane.start('credentials');
});
afterAll(async () => {
  await plane?.stop();
});

/** Every string in a history, payloads decoded, so a secret cannot hide in base64 or bytes. */
function historyText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(historyText).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(historyText).join('\n');
  return String(value);
}

/** A ProviderConfig in the test's namespace, whose credentials Secret is there too. */
async function providerConfig(name: string, secretName: string): Promise<void> {
  await plane.apply({
    apiVersion: 'aws.chronoplane.io/v1alpha1',
    kind: 'ProviderConfig',
    metadata: { name },
    spec: {
      credentials: { source: 'Secret', secretRef: { namespace: plane.namespace, name: secretName, key: 'credentials' } },
      endpoint: { url: plane.ec2Endpoint },
    },
  });
}

const useProviderConfig = (name: string) => ({ spec: { providerConfigRef: { kind: 'ProviderConfig', name } } });

describe('credentials', () => {
  it('never appear in workflow history, logs, events or status', async () => {
    const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
    const secretAccessKey = `sentinel-${randomBytes(16).toString('hex')}`;
    const credentials = `[default]\naws_access_key_id = ${accessKeyId}\naws_secret_access_key = ${secretAccessKey}\n`;
    await plane.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sentinel-aws' }, stringData: { credentials } });
    await providerConfig('sentinel', 'sentinel-aws');
    await plane.apply(vpcManifest('guarded', { cidrBlock: '10.80.0.0/16' }, useProviderConfig('sentinel')));
    await eventually(async () => condition(await plane.getVpc('guarded'), 'Ready')?.status === 'True', 'Ready');

    const workflowId = workflowIdFor(refFor(vpcApi, plane.namespace, 'guarded'));
    const places = {
      'raw history': historyText(await plane.temporal.workflow.getHandle(workflowId).fetchHistory()),
      'decrypted history': historyText(await plane.decodedHistory(workflowId)),
      logs: plane.logs.join(''),
      events: await plane.kubectl(['get', 'events', '-o', 'yaml']),
      object: await plane.kubectl(['get', 'vpc', 'guarded', '-o', 'yaml']),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.includes(secretAccessKey), `secret key in ${where}`).toBe(false);
      expect(text.includes(accessKeyId), `access key id in ${where}`).toBe(false);
    }
  });

  it('keeps a key pair’s private key and an instance’s user data out of history, logs, events and status', async () => {
    const userData = `#!/bin/sh\necho sentinel-${randomBytes(16).toString('hex')} > /etc/motd\n`;
    const manifests = [
      vpcManifest('sensitive', { cidrBlock: '10.82.0.0/16' }),
      {
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'Subnet',
        metadata: { name: 'sensitive' },
        spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.82.1.0/24', vpcIdRef: { name: 'sensitive' } } },
      },
      {
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'KeyPair',
        metadata: { name: `sensitive-${plane.namespace}` }, // key names are unique per region
        spec: { forProvider: { region: 'us-east-1' }, writeConnectionSecretToRef: { name: 'sensitive-key' } },
      },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sensitive-user-data' }, stringData: { script: userData } },
      {
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'Instance',
        metadata: { name: 'sensitive' },
        spec: {
          forProvider: {
            region: 'us-east-1',
            imageId: 'ami-1e749f67',
            instanceType: 't3.micro',
            subnetIdRef: { name: 'sensitive' },
            keyNameRef: { name: `sensitive-${plane.namespace}` },
            userDataSecretRef: { name: 'sensitive-user-data', key: 'script' },
          },
          writeConnectionSecretToRef: { name: 'sensitive-connection' },
        },
      },
    ];
    for (const manifest of manifests) await plane.apply(manifest);
    await plane.ready('instance', 'sensitive', 120_000);
    const keySecret = JSON.parse(await plane.kubectl(['get', 'secret', 'sensitive-key', '-o', 'json'])) as { data: Record<string, string> };
    const privateKey = Buffer.from(keySecret.data.privateKey!, 'base64').toString();
    expect(privateKey).toMatch(/PRIVATE KEY/);
    // A line from the middle of the key: long, and found even where the key was cut or reflowed.
    const keyLines = privateKey.split('\n').filter((line) => line.length > 40);
    const keyLine = keyLines[Math.floor(keyLines.length / 2)]!;
    const sentinel = userData.match(/sentinel-[0-9a-f]+/)![0];

    const histories = await Promise.all(
      manifests
        .filter((m) => m.kind !== 'Secret')
        .map(async (m) => {
          const id = workflowIdFor({ group: 'ec2.aws.chronoplane.io', kind: m.kind, namespace: plane.namespace, name: m.metadata.name });
          return [historyText(await plane.temporal.workflow.getHandle(id).fetchHistory()), historyText(await plane.decodedHistory(id))];
        }),
    );
    const places = {
      'raw histories': histories.map(([raw]) => raw).join('\n'),
      'decrypted histories': histories.map(([, decoded]) => decoded).join('\n'),
      logs: plane.logs.join(''),
      events: await plane.kubectl(['get', 'events', '-o', 'yaml']),
      'every object': await plane.kubectl(['get', 'managed', '-o', 'yaml']),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.includes(keyLine), `private key in ${where}`).toBe(false);
      expect(text.includes(sentinel), `user data in ${where}`).toBe(false);
      expect(text.includes(Buffer.from(userData).toString('base64')), `user data, as RunInstances takes it, in ${where}`).toBe(false);
    }

    // A new value in the Secret is drift that needs a new instance: reported, by field, at the
    // instance's next own pass (its safety net, asked for here at once), never with the value.
    const changed = `#!/bin/sh\necho sentinel-${randomBytes(16).toString('hex')} > /etc/motd\n`;
    await plane.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sensitive-user-data' }, stringData: { script: changed } });
    const instanceWorkflow = plane.temporal.workflow.getHandle(
      workflowIdFor({ group: 'ec2.aws.chronoplane.io', kind: 'Instance', namespace: plane.namespace, name: 'sensitive' }),
    );
    await instanceWorkflow.executeUpdate(reconcileNowUpdate);
    const instance = await eventually(async () => {
      const object = await plane.getObject('instance', 'sensitive');
      return condition(object, 'Synced')?.status === 'False' && object;
    }, 'Synced=False');
    expect(condition(instance, 'Synced')!.message).toContain('userData changed (needs replacement)');
    expect(condition(instance, 'Ready')!.status).toBe('True'); // the running instance is still usable
    const newSentinel = changed.match(/sentinel-[0-9a-f]+/)![0];
    const after = [
      plane.logs.join(''),
      await plane.kubectl(['get', 'events', '-o', 'yaml']),
      await plane.kubectl(['get', 'managed', '-o', 'yaml']),
    ];
    expect(after.some((text) => text.includes(newSentinel))).toBe(false);
  });

  it('reports a missing credentials Secret in Synced, by name', async () => {
    await providerConfig('missing', 'no-such-secret');
    await plane.apply(vpcManifest('orphan-creds', { cidrBlock: '10.81.0.0/16' }, useProviderConfig('missing')));
    const vpc = await eventually(async () => {
      const v = await plane.getVpc('orphan-creds');
      return condition(v, 'Synced')?.status === 'False' && v;
    }, 'Synced=False');
    expect(condition(vpc, 'Synced')!.message).toBe(
      `cannot read credentials of ProviderConfig ${plane.namespace}/missing: key "credentials" of Secret ${plane.namespace}/no-such-secret not found`,
    );
  });
});
