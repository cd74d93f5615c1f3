// Namespaces as tenant boundaries for references, and no silent no-ops, against the real API
// server: a reference into another namespace is refused at admission (creates and updates) with
// a message that says why; a path admission can judge (its syntax, a fromObject writing outside
// spec) is refused there too; a toFieldPath that names no field of the kind is refused by strict
// field validation and reported, with nothing written. Acts as cluster admin: what tenants may
// do through their roles is test/integration/tenancy.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlane, condition, eventually } from './harness';
import { runKubectl } from './kubectl';
import { ownProviderConfigRef, useOwnProviderConfig } from './network';

let plane: ControlPlane;
let providerConfig: string;
let otherNamespace: string;
beforeAll(async () => {
  plane = await ControlPlane.start('bounds');
  providerConfig = await useOwnProviderConfig(plane);
  otherNamespace = `${plane.namespace}-other`;
  await runKubectl(['create', 'namespace', otherNamespace]);
  await runKubectl(['-n', otherNamespace, 'create', 'secret', 'generic', 'db', '--from-literal=password=hunter2']);
  await runKubectl(['-n', plane.namespace, 'create', 'configmap', 'settings', '--from-literal=owner=net-team']);
});
afterAll(async () => {
  await runKubectl(['delete', 'namespace', otherNamespace, '--wait=false']).catch(() => undefined);
  await plane?.stop();
});

const vpc = (name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'VPC',
  metadata: { name, ...(annotations && { annotations }) },
  spec: {
    forProvider: { region: 'us-east-1', cidrBlock: '10.61.0.0/16' },
    providerConfigRef: ownProviderConfigRef(providerConfig),
    ...spec,
  },
});

/** kubectl's refusal of `manifest`, or a failure when it was admitted. */
async function refusal(manifest: object): Promise<string> {
  try {
    await plane.apply(manifest);
  } catch (error) {
    return String(error);
  }
  throw new Error(`admitted: ${JSON.stringify(manifest)}`);
}

const leak = (namespace: string) => ({
  references: [
    {
      fromObject: { apiVersion: 'v1', kind: 'Secret', name: 'db', namespace, fieldPath: 'data.password' },
      toFieldPath: 'spec.forProvider.tags.leak',
    },
  ],
});

describe('references stay in their namespace', () => {
  it('refuses a fromObject reference to a Secret in another namespace, saying why', async () => {
    const message = await refusal(vpc('leaky', leak(otherNamespace)));
    expect(message).toContain(
      `a reference may only name objects in the object's own namespace (${plane.namespace}); ${otherNamespace} is another tenant's`,
    );
    expect(await plane.getVpc('leaky')).toBeUndefined();
  });

  it('refuses patchesFrom and dependsOn into another namespace too', async () => {
    const patches = {
      references: [{ patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace: 'kube-system', fieldPath: 'data.x' } }],
    };
    const depends = { references: [{ dependsOn: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace: 'kube-system' } }] };
    for (const spec of [patches, depends]) {
      expect(await refusal(vpc('crossing', spec))).toContain(`(${plane.namespace}); kube-system is another tenant's`);
    }
  });

  it('refuses an update that adds such a reference to an object that exists', async () => {
    // Paused: only admission is under test, nothing is created at EC2.
    const paused = { 'crossplane.io/paused': 'true' };
    await plane.apply(vpc('updated', {}, paused));
    expect(await refusal(vpc('updated', leak(otherNamespace), paused))).toContain(`${otherNamespace} is another tenant's`);
    expect((await plane.getVpc('updated'))?.spec.references).toBeUndefined();
    await plane.kubectl(['delete', 'vpc', 'updated']);
  });

  it('admits a reference that names its own namespace explicitly', async () => {
    const own = { references: [{ dependsOn: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace: plane.namespace } }] };
    await runKubectl(['-n', plane.namespace, 'create', '--dry-run=server', '-f', '-'], JSON.stringify(vpc('own', own)));
  });
});

describe('paths admission can judge', () => {
  it.each([
    ['a malformed toFieldPath', 'spec..forProvider', 'must be a field path'],
    ['a fromObject writing metadata', 'metadata.labels.owner', 'its toFieldPath starts with spec.'],
    ['a fromObject writing status', 'status.atProvider.owner', 'its toFieldPath starts with spec.'],
  ])('refuses %s', async (_, toFieldPath, expected) => {
    const reference = { fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.owner' }, toFieldPath };
    expect(await refusal(vpc('bad-path', { references: [reference] }))).toContain(expected);
  });
});

describe('no silent no-ops', () => {
  it('reports a toFieldPath the kind has no field for, naming it, and writes nothing', async () => {
    const reference = {
      fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.owner' },
      toFieldPath: 'spec.forProvider.noSuchField',
    };
    await plane.apply(vpc('nowhere', { references: [reference] }));
    const resolved = await eventually(async () => {
      const c = condition(await plane.getVpc('nowhere'), 'ReferencesResolved');
      return c?.status === 'False' && c;
    }, 'ReferencesResolved=False');
    expect(resolved.message).toContain('cannot write spec.forProvider.noSuchField: the VPC kind has no such field');
    const found = (await plane.getVpc('nowhere'))!;
    expect(condition(found, 'Synced')).toMatchObject({ status: 'False' });
    expect(condition(found, 'Synced')?.message).toContain('spec.forProvider.noSuchField');
    // Nothing written: not the object (its spec is as applied), not EC2.
    expect(found.metadata.generation).toBe(1);
    expect(found.metadata.annotations?.['crossplane.io/external-name']).toBeUndefined();
    expect(await plane.vpcsTaggedWithUid(found.metadata.uid)).toEqual([]);
    await plane.kubectl(['delete', 'vpc', 'nowhere']);
  });
});
