// Credentials come from a ProviderConfig's Secret and never leave the activity that uses them:
// not in workflow history, not in logs, not in events, not in the object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ControlPlane, condition, eventually, vpcManifest } from './harness';
import { runKubectl } from './kubectl';
import { refFor, workflowIdFor } from '../../runtime/managed-kind';
import { vpcApi } from '../../providers/aws/ec2/vpc/schema';

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

async function providerConfig(name: string, secretName: string): Promise<void> {
  const manifest = {
    apiVersion: 'aws.chronoplane.io/v1alpha1',
    kind: 'ProviderConfig',
    metadata: { name },
    spec: {
      credentials: { source: 'Secret', secretRef: { namespace: plane.namespace, name: secretName, key: 'credentials' } },
      endpoint: { url: plane.ec2Endpoint },
    },
  };
  await runKubectl(['apply', '-f', '-'], JSON.stringify(manifest));
}

describe('credentials', () => {
  it('never appear in workflow history, logs, events or status', async () => {
    const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
    const secretAccessKey = `sentinel-${randomBytes(16).toString('hex')}`;
    const credentials = `[default]\naws_access_key_id = ${accessKeyId}\naws_secret_access_key = ${secretAccessKey}\n`;
    await plane.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sentinel-aws' }, stringData: { credentials } });
    await providerConfig(`sentinel-${plane.namespace}`, 'sentinel-aws');
    await plane.apply(
      vpcManifest('guarded', { cidrBlock: '10.80.0.0/16' }, { spec: { providerConfigRef: { name: `sentinel-${plane.namespace}` } } }),
    );
    await eventually(async () => condition(await plane.getVpc('guarded'), 'Ready')?.status === 'True', 'Ready');

    const history = await plane.temporal.workflow.getHandle(workflowIdFor(refFor(vpcApi, plane.namespace, 'guarded'))).fetchHistory();
    const places = {
      history: historyText(history),
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

  it('reports a missing credentials Secret in Synced, by name', async () => {
    await providerConfig(`missing-${plane.namespace}`, 'no-such-secret');
    await plane.apply(
      vpcManifest('orphan-creds', { cidrBlock: '10.81.0.0/16' }, { spec: { providerConfigRef: { name: `missing-${plane.namespace}` } } }),
    );
    const vpc = await eventually(async () => {
      const v = await plane.getVpc('orphan-creds');
      return condition(v, 'Synced')?.status === 'False' && v;
    }, 'Synced=False');
    expect(condition(vpc, 'Synced')!.message).toBe(
      `cannot read credentials: key "credentials" of Secret ${plane.namespace}/no-such-secret not found`,
    );
  });
});
