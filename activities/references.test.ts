// Reading dependencies: one already usable in the worker's cache is taken from there; anything
// else (missing, not Ready, no external name yet) is read from the API server, so a lagging
// cache never makes a resource wait.
import { describe, expect, it } from 'vitest';
import { ApiException } from '@kubernetes/client-node';
import { EXTERNAL_NAME } from '#core/annotations';
import { kindFor } from '#providers/registry';
import type { ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import type { KubeAccess } from './kube';
import { ReferenceAccess } from './references';

const GROUP = 'ec2.aws.chronoplane.io';
const subnetKind = kindFor(GROUP, 'Subnet');

const vpc = (ready: boolean, externalName?: string): ManagedResource =>
  ({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'VPC',
    metadata: {
      name: 'net',
      namespace: 'team-a',
      uid: 'vpc-uid',
      generation: 1,
      resourceVersion: '5',
      ...(externalName && { annotations: { [EXTERNAL_NAME]: externalName } }),
    },
    spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.0.0.0/16' } },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }) as unknown as ManagedResource;

const subnet = {
  apiVersion: `${GROUP}/v1alpha1`,
  kind: 'Subnet',
  metadata: { name: 'a', namespace: 'team-a', uid: 'subnet-uid', generation: 1, resourceVersion: '6' },
  spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.0.1.0/24', vpcIdRef: { name: 'net' } } },
} as unknown as ManagedResource;

function access(stored: ManagedResource, cached: ManagedResource | undefined) {
  const reads: string[] = [];
  const kube = {
    async get(ref: ResourceRef) {
      reads.push(`get ${ref.kind}/${ref.name}`);
      return structuredClone(stored);
    },
  } as unknown as KubeAccess;
  return { reads, references: new ReferenceAccess(kube, () => cached && structuredClone(cached)) };
}

describe('reading dependencies', () => {
  it('takes a usable dependency from the cache, without a read of the API server', async () => {
    const { reads, references } = access(vpc(true, 'vpc-1'), vpc(true, 'vpc-1'));
    const resolved = await references.resolve(subnetKind, subnet);
    expect(resolved?.resolution.writes.map((w) => w.value)).toEqual(['vpc-1']);
    expect(reads).toEqual([]);
  });

  it('asks the API server when the cache has it not Ready yet, and resolves from the answer', async () => {
    const { reads, references } = access(vpc(true, 'vpc-1'), vpc(false));
    const resolved = await references.resolve(subnetKind, subnet);
    expect(resolved?.resolution.writes.map((w) => w.value)).toEqual(['vpc-1']);
    expect(reads).toEqual(['get VPC/net']);
  });
});

describe('namespace boundaries', () => {
  it('refuses a reference into another namespace without reading anything there', async () => {
    const reads: string[] = [];
    const kube = new Proxy({} as KubeAccess, {
      get: (_, method: string) => async () => void reads.push(method),
    });
    const vpcKind = kindFor(GROUP, 'VPC');
    const leaky = structuredClone(vpc(true, 'vpc-1'));
    leaky.metadata.namespace = 'team-b';
    leaky.spec.references = [
      {
        fromObject: { apiVersion: 'v1', kind: 'Secret', name: 'db', namespace: 'team-a', fieldPath: 'data.password' },
        toFieldPath: 'spec.forProvider.tags.leak',
      },
    ];
    const resolved = await new ReferenceAccess(kube).resolve(vpcKind, leaky, { verifyWrites: true });
    expect(resolved?.observation.errors).toEqual(['references may only name objects in namespace team-b: Secret team-a/db is in team-a']);
    expect(resolved?.resolution.writes).toEqual([]);
    expect(reads).toEqual([]);
  });
});

describe('strict writes of resolved values', () => {
  const vpcKind = kindFor(GROUP, 'VPC');
  const withReference = (toFieldPath: string) => {
    const object = structuredClone(vpc(true, 'vpc-1'));
    object.spec.references = [
      { fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', fieldPath: 'data.value' }, toFieldPath },
    ];
    return object;
  };
  const kubeRefusing = (refusal?: ApiException<string>) => {
    const dryRuns: unknown[] = [];
    const kube = {
      async getReferenced() {
        return {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'settings', namespace: 'team-a', uid: 'cm' },
          data: { value: 'x' },
        };
      },
      async replace(_ref: ResourceRef, _object: ManagedResource, options: { dryRun?: boolean }) {
        dryRuns.push(options);
        if (refusal) throw refusal;
        return _object;
      },
    } as unknown as KubeAccess;
    return { kube, dryRuns };
  };

  it('reports a toFieldPath the kind has no field for, naming the path, from a dry run', async () => {
    const body = JSON.stringify({
      kind: 'Status',
      message: 'strict decoding error: unknown field "spec.forProvider.noSuchField"',
      reason: 'BadRequest',
      code: 400,
    });
    const { kube, dryRuns } = kubeRefusing(new ApiException(400, 'Bad Request', body, {}));
    const resolved = await new ReferenceAccess(kube).resolve(vpcKind, withReference('spec.forProvider.noSuchField'), {
      verifyWrites: true,
    });
    expect(dryRuns).toEqual([{ dryRun: true }]);
    expect(resolved?.observation.errors).toEqual(['cannot write spec.forProvider.noSuchField: the VPC kind has no such field']);
  });

  it('asks nothing when the write would change nothing, and nothing when not asked to verify', async () => {
    const { kube, dryRuns } = kubeRefusing();
    await new ReferenceAccess(kube).resolve(vpcKind, withReference('spec.forProvider.tags.x'));
    expect(dryRuns).toEqual([]);
    const object = withReference('spec.forProvider.tags.x');
    object.spec.forProvider = { ...object.spec.forProvider, tags: { x: 'x' } };
    await new ReferenceAccess(kube).resolve(vpcKind, object, { verifyWrites: true });
    expect(dryRuns).toEqual([]);
  });
});

describe('an Object guards the other kinds it refers to with a finalizer', () => {
  const objectKind = kindFor('kubernetes.crossplane.io', 'Object');
  const FINALIZER = 'kubernetes.crossplane.io/referred-by-object-object-uid';
  const configMap = (name: string, finalizers: string[] = [], deleting = false) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'team-a', uid: `${name}-uid`, finalizers, ...(deleting && { deletionTimestamp: '2026-01-01T00:00:00Z' }) },
  });
  const object = (references: { dependsOn: { apiVersion: string; kind: string; name: string; namespace: string } }[], record?: string) =>
    ({
      apiVersion: 'kubernetes.crossplane.io/v1alpha2',
      kind: 'Object',
      metadata: {
        name: 'o',
        uid: 'object-uid',
        resourceVersion: '3',
        ...(record && { annotations: { 'chronoplane.io/referred-objects': record } }),
      },
      spec: { forProvider: { manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } } }, references },
    }) as unknown as ManagedResource;
  const dependsOn = (name: string) => ({ dependsOn: { apiVersion: 'v1', kind: 'ConfigMap', name, namespace: 'team-a' } });

  function kubeWith(world: Record<string, ReturnType<typeof configMap>>) {
    const calls: string[] = [];
    const kube = {
      async getReferenced(key: { name: string }) {
        return world[key.name];
      },
      async setFinalizer(_apiVersion: string, key: { name: string }, finalizer: string, present: boolean) {
        calls.push(`${present ? 'add' : 'remove'} ${finalizer} ${key.name}`);
        return true;
      },
      async patch(_ref: ResourceRef, _uid: string, body: { metadata: { annotations: Record<string, string | null> } }) {
        calls.push(`record ${body.metadata.annotations['chronoplane.io/referred-objects']}`);
        return object([]);
      },
      forgetReferenced() {},
    } as unknown as KubeAccess;
    return { kube, calls };
  }
  const ref = { group: 'kubernetes.crossplane.io', kind: 'Object', namespace: '', name: 'o' };

  it('records the ConfigMap, then adds its finalizer', async () => {
    const { kube, calls } = kubeWith({ settings: configMap('settings') });
    const { done } = await new ReferenceAccess(kube).apply(objectKind, ref, object([dependsOn('settings')]));
    expect(calls).toEqual([
      'record [{"apiVersion":"v1","group":"","kind":"ConfigMap","namespace":"team-a","name":"settings"}]',
      `add ${FINALIZER} settings`,
    ]);
    expect(done).toEqual([`added finalizer ${FINALIZER} to ConfigMap team-a/settings`]);
  });

  it('leaves one that already carries it, or is being deleted, alone', async () => {
    const { kube } = kubeWith({ a: configMap('a', [FINALIZER]), b: configMap('b', [], true) });
    const resolved = await new ReferenceAccess(kube).resolve(objectKind, object([dependsOn('a'), dependsOn('b')]));
    expect(resolved?.unguarded).toEqual([]);
    expect(resolved?.observation.unmarked).toEqual([]);
  });

  it('takes the finalizer off a ConfigMap it no longer refers to, then lets go of it in the record', async () => {
    const record = '[{"apiVersion":"v1","group":"","kind":"ConfigMap","namespace":"team-a","name":"settings"}]';
    const { kube, calls } = kubeWith({ settings: configMap('settings', [FINALIZER]) });
    const resolved = await new ReferenceAccess(kube).resolve(objectKind, object([], record));
    expect(resolved?.observation.released).toEqual(['ConfigMap team-a/settings']);
    await new ReferenceAccess(kube).apply(objectKind, ref, object([], record));
    expect(calls).toEqual([`remove ${FINALIZER} settings`, 'record null']);
  });

  it('takes it off everything named or recorded when the Object goes', async () => {
    const record = '[{"apiVersion":"v1","group":"","kind":"ConfigMap","namespace":"team-a","name":"old"}]';
    const { kube, calls } = kubeWith({});
    const references = new ReferenceAccess(kube);
    expect(references.holdsMarks(objectKind, object([dependsOn('settings')], record))).toBe(true);
    await references.release(objectKind, object([dependsOn('settings')], record));
    expect(calls.sort()).toEqual([`remove ${FINALIZER} old`, `remove ${FINALIZER} settings`]);
  });
});
