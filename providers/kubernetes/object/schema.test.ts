// The Object's API, one schema for provider-kubernetes' two versions: the seed's examples fit it
// as written, the CRD serves both versions without a conversion webhook, and the rules the API
// server enforces (one policy form, apiVersion and kind in the manifest) are in place. CEL is
// evaluated by the API server, so admission itself belongs to an integration test.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubernetesCrds } from '../crds';
import { ObjectSpec } from './schema';

const examples = join(import.meta.dirname, '..', '..', '..', 'examples', 'kubernetes');

async function exampleObjects(): Promise<{ file: string; object: { apiVersion: string; kind: string; spec: unknown } }[]> {
  const files = (await readdir(examples)).filter((f) => f.endsWith('.yaml'));
  return Promise.all(files.map(async (file) => ({ file, object: parse(await readFile(join(examples, file), 'utf8')) })));
}

type Crd = ReturnType<typeof kubernetesCrds>[number];
const objectCrd = (): Crd => kubernetesCrds().find((c) => c.spec.names.kind === 'Object')!;
const specSchema = (crd: Crd) =>
  (crd.spec.versions[0]!.schema.openAPIV3Schema as { properties: { spec: Record<string, unknown> } }).properties.spec;

describe('the Object API', () => {
  it("fits seed 002's examples as written", async () => {
    const found = await exampleObjects();
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const { file, object } of found) {
      expect(object.apiVersion, file).toBe('kubernetes.crossplane.io/v1alpha1');
      expect(Value.Errors(ObjectSpec, object.spec).First(), file).toBeUndefined();
    }
  });

  it('serves v1alpha1 and v1alpha2 from one schema, cluster-scoped, storing v1alpha2, without a conversion webhook', () => {
    const crd = objectCrd();
    expect(crd.metadata.name).toBe('objects.kubernetes.crossplane.io');
    expect(crd.spec.scope).toBe('Cluster');
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1alpha1', true, false],
      ['v1alpha2', true, true],
    ]);
    expect(crd.spec.versions[0]!.schema).toEqual(crd.spec.versions[1]!.schema);
    expect(crd.spec).not.toHaveProperty('conversion');
    expect(crd.spec.names.categories).toEqual(['crossplane', 'managed', 'kubernetes']);
  });

  it("shows provider-kubernetes' columns", () => {
    const columns = objectCrd().spec.versions[1]!.additionalPrinterColumns as { name: string; priority?: number }[];
    expect(columns.filter((c) => !c.priority).map((c) => c.name)).toEqual(['KIND', 'PROVIDERCONFIG', 'SYNCED', 'READY', 'AGE']);
  });

  it('keeps the manifest whole, and has the API server require its apiVersion and kind', () => {
    const manifest = schemaAt(specSchema(objectCrd()), ['forProvider', 'manifest']);
    expect(manifest).toMatchObject({ 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('has the API server refuse a change of what names the target, with a message that says to recreate the Object', () => {
    const manifest = schemaAt(specSchema(objectCrd()), ['forProvider', 'manifest']);
    const rules = manifest['x-kubernetes-validations'] as { rule: string; message: string }[];
    expect(rules.map((r) => r.rule)).toEqual([
      'self.apiVersion == oldSelf.apiVersion',
      'self.kind == oldSelf.kind',
      '!has(oldSelf.metadata) || !has(oldSelf.metadata.name) || ' +
        '(has(self.metadata) && has(self.metadata.name) && self.metadata.name == oldSelf.metadata.name)',
      '!has(oldSelf.metadata) || !has(oldSelf.metadata.__namespace__) || ' +
        '(has(self.metadata) && has(self.metadata.__namespace__) && self.metadata.__namespace__ == oldSelf.metadata.__namespace__)',
    ]);
    for (const rule of rules) expect(rule.message).toMatch(/cannot be changed: .*left behind, unmanaged; delete and recreate the Object/);
    // CEL sees an embedded resource's metadata as name and generateName only, unless all three are declared.
    expect(Object.keys(schemaAt(manifest, ['metadata']).properties as object).sort()).toEqual(['generateName', 'name', 'namespace']);
    expect(schemaAt(manifest, ['metadata'])).toMatchObject({ 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('requires each connection detail to name its field, and a Secret key where the field is a list item', () => {
    const detail = schemaAt(specSchema(objectCrd()), ['connectionDetails', '[]']);
    expect(detail.required).toEqual(['fieldPath']);
    expect(detail['x-kubernetes-validations']).toEqual([
      expect.objectContaining({ rule: "has(self.toConnectionSecretKey) || !self.fieldPath.matches('\\\\[[0-9]+\\\\]$')" }),
    ]);
  });

  it('lets an object use one policy form only, and gives neither a default that would collide with the other', () => {
    const spec = specSchema(objectCrd());
    expect(spec['x-kubernetes-validations']).toContainEqual({
      rule: '!(has(self.managementPolicy) && has(self.managementPolicies))',
      message: 'use managementPolicy (v1alpha1) or managementPolicies (v1alpha2), not both',
    });
    expect(schemaAt(spec, ['managementPolicy'])).not.toHaveProperty('default');
    expect(schemaAt(spec, ['managementPolicies'])).not.toHaveProperty('default');
  });

  it('defaults a dependsOn to an Object of kubernetes.crossplane.io/v1alpha1, as upstream does', () => {
    const dependsOn = schemaAt(specSchema(objectCrd()), ['references', '[]', 'dependsOn']);
    expect([schemaAt(dependsOn, ['apiVersion']).default, schemaAt(dependsOn, ['kind']).default]).toEqual([
      'kubernetes.crossplane.io/v1alpha1',
      'Object',
    ]);
  });
});

/** The schema node at `path` (`[]` steps into an array's items). */
function schemaAt(schema: Record<string, unknown>, path: string[]): Record<string, unknown> {
  return path.reduce<Record<string, unknown>>((node, step) => {
    const next = step === '[]' ? node.items : (node.properties as Record<string, unknown> | undefined)?.[step];
    if (!next) throw new Error(`no schema at ${path.join('.')}`);
    return next as Record<string, unknown>;
  }, schema);
}
