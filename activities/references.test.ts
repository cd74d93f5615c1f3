// Reading dependencies: one already usable in the worker's cache is taken from there; anything
// else (missing, not Ready, no external name yet) is read from the API server, so a lagging
// cache never makes a resource wait.
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME } from '../apis/annotations';
import { kindFor } from '../providers/registry';
import type { ResourceRef } from '../runtime/managed-kind';
import type { ManagedResource } from '../runtime/managed-resource';
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
