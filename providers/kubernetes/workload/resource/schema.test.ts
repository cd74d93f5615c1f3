// The KubernetesApplicationResource API as upstream serves it: the seed's templates fit it as
// written, `kubectl get` shows upstream's columns, status has upstream's fields, and the
// template's identity is fixed by CEL transition rules. CEL itself is evaluated by the API
// server, so admission belongs to an integration test; here the rules must be in place.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { managedResourceCrd } from '#apis/crd';
import { kubernetesApplicationResourceKind } from '.';
import { KubernetesApplicationResourceSpec } from './schema';

const crd = () => managedResourceCrd(kubernetesApplicationResourceKind);
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };
const root = () => crd().spec.versions[0]!.schema.openAPIV3Schema as Schema;
const at = (schema: Schema, ...path: string[]): Schema =>
  path.reduce((node, step) => {
    const next = node.properties?.[step];
    if (!next) throw new Error(`no schema at ${path.join('.')}`);
    return next;
  }, schema);

describe('the KubernetesApplicationResource API', () => {
  it('is upstream’s: namespaced, workload.crossplane.io/v1alpha1, in category crossplane', () => {
    const { metadata, spec } = crd();
    expect(metadata.name).toBe('kubernetesapplicationresources.workload.crossplane.io');
    expect(spec.scope).toBe('Namespaced');
    expect(spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
    expect(spec.names).toMatchObject({
      kind: 'KubernetesApplicationResource',
      plural: 'kubernetesapplicationresources',
      categories: ['crossplane'],
    });
  });

  it('shows exactly the seed’s columns', () => {
    expect(crd().spec.versions[0]!.additionalPrinterColumns).toEqual([
      { name: 'TEMPLATE-KIND', type: 'string', jsonPath: '.spec.template.kind' },
      { name: 'TEMPLATE-NAME', type: 'string', jsonPath: '.spec.template.metadata.name' },
      { name: 'CLUSTER', type: 'string', jsonPath: '.status.clusterRef.name' },
      { name: 'STATUS', type: 'string', jsonPath: '.status.state' },
    ]);
  });

  it('fits the seed’s wordpress-demo templates as written', async () => {
    const file = join(import.meta.dirname, '..', '..', '..', '..', 'examples', 'workload', 'wordpress-demo.yaml');
    const app = parse(await readFile(file, 'utf8')) as { spec: { resourceTemplates: { spec: unknown }[] } };
    expect(app.spec.resourceTemplates).toHaveLength(3);
    for (const { spec } of app.spec.resourceTemplates)
      expect(Value.Errors(KubernetesApplicationResourceSpec, spec).First()).toBeUndefined();
  });

  it('keeps the template whole, and requires its apiVersion, kind and metadata.name', () => {
    const template = at(root(), 'spec', 'template');
    expect(template['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(template.required).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(at(template, 'metadata')['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(at(template, 'metadata').required).toEqual(['name']);
    expect(at(root(), 'spec').required).toEqual(['template']);
    expect(at(root(), 'spec', 'secrets')).toMatchObject({ type: 'array', items: { properties: { name: { type: 'string' } } } });
  });

  it('fixes the template’s apiVersion, kind, name and namespace, saying to delete and recreate', () => {
    const rules = at(root(), 'spec', 'template')['x-kubernetes-validations'] as { rule: string; message: string }[];
    expect(rules.map((r) => r.rule)).toEqual([
      'self.apiVersion == oldSelf.apiVersion',
      'self.kind == oldSelf.kind',
      'self.metadata.name == oldSelf.metadata.name',
      'has(self.metadata.__namespace__) == has(oldSelf.metadata.__namespace__) && (!has(self.metadata.__namespace__) || self.metadata.__namespace__ == oldSelf.metadata.__namespace__)',
    ]);
    for (const { message } of rules) expect(message).toMatch(/delete and recreate the KubernetesApplicationResource/);
  });

  it('has upstream’s status fields in place of atProvider: state, clusterRef, remote; and Crossplane 2’s lastHandledReconcileAt', () => {
    const status = at(root(), 'status');
    expect(Object.keys(status.properties!).sort()).toEqual([
      'clusterRef',
      'conditions',
      'lastHandledReconcileAt',
      'observedGeneration',
      'remote',
      'state',
    ]);
    expect(at(status, 'state').enum).toEqual(['Pending', 'Scheduled', 'Submitted', 'Failed']);
    expect(Object.keys(at(status, 'clusterRef').properties!)).toEqual(['apiVersion', 'kind', 'namespace', 'name']);
    expect(at(status, 'remote')['x-kubernetes-preserve-unknown-fields']).toBe(true);
  });
});
