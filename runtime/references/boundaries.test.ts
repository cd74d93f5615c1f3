// A namespaced object's references stay in its namespace; a cluster-scoped one may name any.
import { describe, expect, it } from 'vitest';
import { withinNamespace } from './boundaries';
import { dependenciesOf } from './dependencies';
import type { GenericReference } from '#core/references/fields';
import type { ManagedResource } from '#core/managed-resource';
import type { KindApi } from '#core/managed-kind';

const vpcApi = { group: 'ec2.aws.chronoplane.io', kind: 'VPC' } as KindApi;
const objectOf = (namespace: string | undefined, references: GenericReference[], forProvider: Record<string, unknown> = {}) =>
  ({ metadata: { name: 'x', namespace }, spec: { forProvider, references } }) as unknown as ManagedResource;
const secret = (namespace?: string) => ({ apiVersion: 'v1', kind: 'Secret', name: 'db', ...(namespace && { namespace }) });

describe('withinNamespace', () => {
  it.each<{ name: string; reference: GenericReference; error?: string }>([
    {
      name: 'fromObject into another namespace',
      reference: { fromObject: { ...secret('team-a'), fieldPath: 'data.password' }, toFieldPath: 'spec.forProvider.tags.leak' },
      error: 'references may only name objects in namespace team-b: Secret team-a/db is in team-a',
    },
    {
      name: 'patchesFrom into another namespace',
      reference: { patchesFrom: { ...secret('team-a'), fieldPath: 'data.password' } },
      error: 'references may only name objects in namespace team-b: Secret team-a/db is in team-a',
    },
    {
      name: 'dependsOn into another namespace',
      reference: { dependsOn: secret('kube-system') },
      error: 'references may only name objects in namespace team-b: Secret kube-system/db is in kube-system',
    },
    { name: 'its own namespace, named', reference: { dependsOn: secret('team-b') } },
    { name: 'its own namespace, by default', reference: { fromObject: { ...secret(), fieldPath: 'data.x' }, toFieldPath: 'spec.x' } },
  ])('$name', ({ reference, error }) => {
    const dependencies = dependenciesOf({}, objectOf('team-b', [reference]));
    const boundary = withinNamespace('team-b', dependencies);
    expect(boundary.errors).toEqual(error ? [error] : []);
    expect(boundary.inside).toEqual(error ? [] : dependencies);
  });

  it('keeps the dependencies inside and refuses only those that cross', () => {
    const dependencies = dependenciesOf(
      { references: [{ field: 'vpcId', to: vpcApi }] },
      objectOf('team-b', [{ dependsOn: secret('team-a') }, { dependsOn: secret() }], { vpcIdRef: { name: 'net' } }),
    );
    const boundary = withinNamespace('team-b', dependencies);
    expect(boundary.inside.map((d) => d.type)).toEqual(['ref', 'dependsOn']);
    expect(boundary.errors).toHaveLength(1);
  });

  it('lets a cluster-scoped object (the legacy Object) name any namespace', () => {
    const dependencies = dependenciesOf({}, objectOf(undefined, [{ dependsOn: secret('team-a') }, { dependsOn: secret('team-b') }]));
    expect(withinNamespace('', dependencies)).toEqual({ inside: dependencies, errors: [] });
  });
});
