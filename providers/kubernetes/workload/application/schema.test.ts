// The KubernetesApplication API as upstream serves it, and the rules the API server enforces at
// admission: CEL evaluated here as the API server would, on the rules as the CRD carries them.
// Admission itself (and CEL's cost budget) belongs to the integration test.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { evaluate } from '@marcbachmann/cel-js';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { managedResourceCrd } from '#apis/crd';
import type { CelRule } from '#core/schema';
import { KubernetesApplicationResourceSpec } from '../resource/schema';
import { kubernetesApplicationKind } from '.';
import { KubernetesApplicationSpec, MAX_TEMPLATES } from './schema';

const crd = () => managedResourceCrd(kubernetesApplicationKind);
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema; required?: string[] };
const root = () => crd().spec.versions[0]!.schema.openAPIV3Schema as Schema;
const at = (schema: Schema, ...path: string[]): Schema =>
  path.reduce((node, step) => {
    const next = step === '[]' ? node.items : node.properties?.[step];
    if (!next) throw new Error(`no schema at ${path.join('.')}`);
    return next;
  }, schema);
const rulesAt = (...path: string[]) => (at(root(), ...path)['x-kubernetes-validations'] ?? []) as CelRule[];
/** The messages of the rules at `path` that fail, as the API server would report them. */
const failing = (path: string[], self: unknown, oldSelf?: unknown) =>
  rulesAt(...path)
    .filter((r) => (oldSelf === undefined ? !/\boldSelf\b/.test(r.rule) : true))
    .filter((r) => evaluate(r.rule, { self, oldSelf }) !== true)
    .map((r) => r.message);

const seedApplication = async () => {
  const file = join(import.meta.dirname, '..', '..', '..', '..', 'examples', 'workload', 'wordpress-demo.yaml');
  const docs = parseAllDocuments(await readFile(file, 'utf8')).map((d) => d.toJS() as { kind: string; spec: unknown });
  return docs.find((d) => d.kind === 'KubernetesApplication')!;
};

describe('the KubernetesApplication API', () => {
  it('is upstream’s: namespaced, workload.crossplane.io/v1alpha1, in category crossplane', () => {
    const { metadata, spec } = crd();
    expect(metadata.name).toBe('kubernetesapplications.workload.crossplane.io');
    expect(spec.scope).toBe('Namespaced');
    expect(spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
    expect(spec.names).toMatchObject({ kind: 'KubernetesApplication', plural: 'kubernetesapplications', categories: ['crossplane'] });
  });

  it('shows exactly the seed’s columns', () => {
    expect(crd().spec.versions[0]!.additionalPrinterColumns).toEqual([
      { name: 'CLUSTER', type: 'string', jsonPath: '.status.clusterRef.name' },
      { name: 'STATUS', type: 'string', jsonPath: '.status.state' },
      { name: 'DESIRED', type: 'integer', jsonPath: '.status.desiredResources' },
      { name: 'SUBMITTED', type: 'integer', jsonPath: '.status.submittedResources' },
    ]);
  });

  it('has upstream’s status fields in place of atProvider, and Crossplane 2’s lastHandledReconcileAt', () => {
    const status = at(root(), 'status');
    expect(Object.keys(status.properties ?? {}).sort()).toEqual(
      [
        'clusterRef',
        'conditions',
        'desiredResources',
        'lastHandledReconcileAt',
        'observedGeneration',
        'state',
        'submittedResources',
      ].sort(),
    );
    expect(at(status, 'state').enum).toEqual(['Pending', 'Scheduled', 'PartiallySubmitted', 'Submitted', 'Failed']);
    expect(at(status, 'desiredResources').type).toBe('integer');
  });

  it('fits the seed’s wordpress-demo application as written', async () => {
    const app = await seedApplication();
    expect(Value.Errors(KubernetesApplicationSpec, app.spec).First()).toBeUndefined();
  });

  it('rejects at admission a template a resource would refuse: no apiVersion, kind or name, or a name no object can have', () => {
    const template = at(root(), 'spec', 'resourceTemplates', '[]', 'spec', 'template');
    expect(template.required).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(at(template, 'metadata').required).toEqual(['name']);
    const named = (name: string) => ({
      resourceTemplates: [{ metadata: { name }, spec: { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } } }],
    });
    expect(Value.Check(KubernetesApplicationSpec, named('fine.name-1'))).toBe(true);
    expect(Value.Check(KubernetesApplicationSpec, named('Not_A_Name'))).toBe(false);
  });

  it('carries none of the resource’s transition rules into the templates, where the API server refuses them', () => {
    const templates = JSON.stringify(at(root(), 'spec', 'resourceTemplates'));
    expect(templates).not.toMatch(/oldSelf/);
    // …and the resource's own schema keeps them.
    expect(JSON.stringify(KubernetesApplicationResourceSpec)).toMatch(/oldSelf/);
  });
});

describe('admission rules (CEL)', () => {
  const named = (...names: string[]) => names.map((name) => ({ metadata: { name } }));

  it('wants template names unique, within a bounded list', () => {
    expect(failing(['spec', 'resourceTemplates'], named('a', 'b', 'c'))).toEqual([]);
    expect(failing(['spec', 'resourceTemplates'], named('a', 'b', 'a'))).toEqual([
      'resourceTemplates[].metadata.name must be unique: each names one KubernetesApplicationResource',
    ]);
    expect(at(root(), 'spec', 'resourceTemplates').maxItems).toBe(MAX_TEMPLATES);
    expect(at(root(), 'spec', 'resourceTemplates', '[]', 'metadata', 'name').maxLength).toBe(253);
  });

  it('keeps clusterSelector as it was created: set, changed or removed, it says to delete and recreate', () => {
    const selector = { matchLabels: { app: 'wordpress-demo' } };
    const spec = (clusterSelector?: unknown) => ({ resourceTemplates: [], ...(clusterSelector ? { clusterSelector } : {}) });
    expect(failing(['spec'], spec(selector), spec(selector))).toEqual([]);
    expect(failing(['spec'], spec(), spec())).toEqual([]);
    for (const [now, before] of [
      [spec({ matchLabels: { app: 'other' } }), spec(selector)],
      [spec(), spec(selector)],
      [spec(selector), spec()],
    ]) {
      expect(failing(['spec'], now, before)).toEqual([
        expect.stringMatching(/spec\.clusterSelector cannot be changed: delete and recreate/),
      ]);
    }
  });

  it('wants values for In and NotIn, and none for Exists and DoesNotExist', () => {
    const path = ['spec', 'clusterSelector', 'matchExpressions', '[]'];
    expect(failing(path, { key: 'a', operator: 'In', values: ['x'] })).toEqual([]);
    expect(failing(path, { key: 'a', operator: 'Exists' })).toEqual([]);
    expect(failing(path, { key: 'a', operator: 'NotIn', values: [] })).toHaveLength(1);
    expect(failing(path, { key: 'a', operator: 'DoesNotExist', values: ['x'] })).toHaveLength(1);
    expect(at(root(), ...path, 'operator').enum).toEqual(['In', 'NotIn', 'Exists', 'DoesNotExist']);
  });
});
