// The Crossplane v2 Object's API: provider-kubernetes' namespaced examples fit it as written,
// and its CRD has upstream's identity, defaults and columns.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { managedResourceCrd } from '#apis/crd';
import { clusterCollectionKind, namespacedCollectionKind } from '../collection';
import { ClusterCollectionSpec, NamespacedCollectionSpec } from '../collection/schema';
import { namespacedObjectKind } from '.';
import { NamespacedObjectSpec } from './namespaced-schema';

const repo = join(import.meta.dirname, '..', '..', '..');

async function manifestsIn(dir: string): Promise<{ file: string; object: { apiVersion: string; kind: string; spec: unknown } }[]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.yaml'));
  const all = await Promise.all(
    files.map(async (file) =>
      parseAllDocuments(await readFile(join(dir, file), 'utf8'))
        .map((doc) => doc.toJS())
        .filter(Boolean)
        .map((object) => ({ file, object })),
    ),
  );
  return all.flat();
}

type Crd = ReturnType<typeof managedResourceCrd>;
const specSchema = (crd: Crd) =>
  (crd.spec.versions[0]!.schema.openAPIV3Schema as { properties: { spec: { properties: Record<string, any> } } }).properties.spec;

describe('the kubernetes.m.crossplane.io API', () => {
  it("fits provider-kubernetes' namespaced examples as written", async () => {
    const found = (await manifestsIn(join(repo, 'examples', 'kubernetes-m'))).filter((m) => m.object.apiVersion.includes('crossplane.io'));
    expect(found.length).toBeGreaterThanOrEqual(10);
    for (const { file, object } of found) {
      expect(object.apiVersion, file).toBe('kubernetes.m.crossplane.io/v1alpha1');
      const schema = object.kind === 'Object' ? NamespacedObjectSpec : NamespacedCollectionSpec;
      expect(Value.Errors(schema, object.spec).First(), file).toBeUndefined();
    }
  });

  it("fits provider-kubernetes' cluster-scoped collection example", async () => {
    const [collection] = (await manifestsIn(join(repo, 'examples', 'kubernetes', 'collection'))).filter(
      (m) => m.object.kind === 'ObservedObjectCollection',
    );
    expect(collection!.object.apiVersion).toBe('kubernetes.crossplane.io/v1alpha1');
    expect(Value.Errors(ClusterCollectionSpec, collection!.object.spec).First()).toBeUndefined();
  });

  it('serves a namespaced Object with v2 defaults: the ClusterProviderConfig default, ["*"], and no deletionPolicy', () => {
    const crd = managedResourceCrd(namespacedObjectKind);
    expect(crd.metadata.name).toBe('objects.kubernetes.m.crossplane.io');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
    const spec = specSchema(crd);
    expect(Object.keys(spec.properties).sort()).toEqual(
      [
        'connectionDetails',
        'forProvider',
        'managementPolicies',
        'providerConfigRef',
        'readiness',
        'references',
        'watch',
        'writeConnectionSecretToRef',
      ].sort(),
    );
    expect(spec.properties.providerConfigRef.default).toEqual({ kind: 'ClusterProviderConfig', name: 'default' });
    expect(spec.properties.managementPolicies.default).toEqual(['*']);
    expect(spec.properties.forProvider.properties.deletionPropagationPolicy.default).toBe('Background');
    expect(Object.keys(spec.properties.writeConnectionSecretToRef.properties)).toEqual(['name']);
    const reference = spec.properties.references.items.properties;
    expect(Object.keys(reference).sort()).toEqual(['dependsOn', 'patchesFrom', 'toFieldPath']);
    expect([reference.dependsOn.properties.apiVersion.default, reference.dependsOn.properties.kind.default]).toEqual([
      'kubernetes.m.crossplane.io/v1alpha1',
      'Object',
    ]);
  });

  it("shows provider-kubernetes' columns on both groups' collections", () => {
    for (const kind of [clusterCollectionKind, namespacedCollectionKind]) {
      const crd = managedResourceCrd(kind);
      const columns = crd.spec.versions[0]!.additionalPrinterColumns as { name: string; priority?: number }[];
      expect(columns.filter((c) => !c.priority).map((c) => c.name)).toEqual(['KIND', 'PROVIDERCONFIG', 'SYNCED', 'READY', 'AGE']);
      expect(Object.keys(specSchema(crd).properties).sort()).toEqual(['objectTemplate', 'observeObjects', 'providerConfigRef']);
    }
    expect([managedResourceCrd(clusterCollectionKind).spec.scope, managedResourceCrd(namespacedCollectionKind).spec.scope]).toEqual([
      'Cluster',
      'Namespaced',
    ]);
  });
});
