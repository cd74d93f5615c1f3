// The admission policies are generated like the CRDs: the checked-in YAML must be what the code
// renders, and every namespaced kind a tenant can create must be covered.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderAdmission } from './render';
import { allCrds } from '#providers/all-crds';
import { managedKinds } from '#providers/registry';
import { isClusterScoped } from '#core/managed-kind';
import { PROVIDER_CONFIG_POLICY_NAME, REFERENCE_POLICY_NAME } from './admission';

const dir = join(import.meta.dirname, '..', 'deploy', 'admission');

interface Policy {
  kind: string;
  metadata: { name: string };
  spec: {
    policyName?: string;
    validationActions?: string[];
    failurePolicy?: string;
    matchConstraints?: { resourceRules: { apiGroups: string[]; resources: string[]; operations: string[] }[] };
    matchConditions?: { name: string; expression: string }[];
    validations?: { expression: string; messageExpression: string }[];
    variables?: { name: string; expression: string }[];
  };
}

const rendered = renderAdmission();
const objects = Object.values(rendered).flatMap((yaml) => parseAllDocuments(yaml).map((d) => d.toJS() as Policy));
const policy = (name: string) => objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === name)!;
const covered = (p: Policy) =>
  new Set(p.spec.matchConstraints!.resourceRules.flatMap((r) => r.resources.map((x) => `${x}.${r.apiGroups[0]}`)));

describe('generated admission policies', () => {
  it('match the code (run `npm run gen` after changing generate/admission.ts or adding a kind)', async () => {
    expect((await readdir(dir)).sort()).toEqual(Object.keys(rendered).sort());
    for (const [file, yaml] of Object.entries(rendered)) expect(await readFile(join(dir, file), 'utf8'), file).toBe(yaml);
  });

  it('cover every namespaced managed kind, and no cluster-scoped one', () => {
    const references = covered(policy(REFERENCE_POLICY_NAME));
    for (const { api } of managedKinds) expect(references.has(`${api.plural}.${api.group}`), api.kind).toBe(!isClusterScoped(api));
  });

  it('cover every namespaced ProviderConfig', () => {
    const namespaced = allCrds().filter((c) => c.spec.names.kind === 'ProviderConfig' && c.spec.scope === 'Namespaced');
    if (namespaced.length === 0) return;
    const providerConfigs = covered(policy(PROVIDER_CONFIG_POLICY_NAME));
    for (const c of namespaced) expect(providerConfigs.has(c.metadata.name)).toBe(true);
  });

  it('deny (not only warn or audit) through a binding of each policy, failing closed', () => {
    const policies = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy');
    expect(policies.length).toBeGreaterThan(0);
    for (const p of policies) {
      expect(p.spec.failurePolicy).toBe('Fail');
      const binding = objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding' && o.spec.policyName === p.metadata.name);
      expect(binding?.spec.validationActions).toEqual(['Deny']);
    }
  });

  it('check creates and updates, and never an object being deleted (its finalizers must always come off)', () => {
    for (const p of objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy')) {
      for (const rule of p.spec.matchConstraints!.resourceRules) expect(rule.operations).toEqual(['CREATE', 'UPDATE']);
      expect(p.spec.matchConditions).toEqual([{ name: 'not-being-deleted', expression: '!has(object.metadata.deletionTimestamp)' }]);
    }
  });

  it('read optional fields only behind has()', () => {
    for (const p of objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy')) {
      for (const { expression } of p.spec.variables ?? []) {
        // Every optional field of a reference is tested before it is read.
        for (const [, path] of expression.matchAll(/(r\.\w+\.namespace)\b(?! *\))/g)) expect(expression).toContain(`has(${path})`);
        expect(expression).toMatch(/^(?:request\.operation == 'UPDATE' && |\(?has\((?:object|oldObject)\.spec\))/);
      }
    }
  });
});
