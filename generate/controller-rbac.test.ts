import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCrds } from '#providers/all-crds';
import { chartDir, renderChartDirectories, renderChartRules } from './chart-files';
import { LEADER_ELECTION_RULES, controllerRules, type PolicyRule } from './controller-rbac';
import { managedKinds } from '#providers/registry';

/** `resource.group` (core: `resource.`) → the verbs granted on it, over every rule. */
function grants(rules: PolicyRule[]): Map<string, Set<string>> {
  const granted = new Map<string, Set<string>>();
  for (const rule of rules) {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources) {
        const key = `${resource}.${group}`;
        granted.set(key, new Set([...(granted.get(key) ?? []), ...rule.verbs]));
      }
    }
  }
  return granted;
}

const verbsOn = (resource: string) => [...(grants(controllerRules()).get(resource) ?? [])].sort();

describe("the controller's ClusterRole", () => {
  it('grants nothing with a wildcard', () => {
    for (const rule of [...controllerRules(), ...LEADER_ELECTION_RULES]) {
      for (const value of [...rule.apiGroups, ...rule.resources, ...rule.verbs, ...(rule.resourceNames ?? [])]) {
        expect(value, JSON.stringify(rule)).not.toContain('*');
      }
    }
  });

  it('covers every managed kind: read, watch and patch it, patch its status', () => {
    expect(managedKinds.length).toBeGreaterThan(0);
    for (const { api } of managedKinds) {
      const name = `${api.plural}.${api.group}`;
      expect(verbsOn(name), name).toEqual(expect.arrayContaining(['get', 'list', 'patch', 'watch']));
      expect(verbsOn(`${api.plural}/status.${api.group}`), `${name} status`).toEqual(['patch']);
    }
  });

  it('replaces (update) only the kinds whose references write values, and the resources applications update', () => {
    const replaced = [...grants(controllerRules())].filter(([, verbs]) => verbs.has('update')).map(([r]) => r);
    // Every EC2 kind and both Objects take generic references; collections and applications none.
    expect(replaced).not.toContain('observedobjectcollections.kubernetes.crossplane.io');
    expect(replaced).not.toContain('kubernetesapplications.workload.crossplane.io');
    expect(replaced).toEqual(
      expect.arrayContaining([
        'vpcs.ec2.aws.chronoplane.io',
        'subnets.ec2.aws.chronoplane.io',
        'objects.kubernetes.crossplane.io',
        'objects.kubernetes.m.crossplane.io',
        'kubernetesapplicationresources.workload.crossplane.io',
      ]),
    );
  });

  it('creates and deletes only the kinds that other kinds make: Objects and KubernetesApplicationResources', () => {
    const creatable = [...grants(controllerRules())].filter(([, verbs]) => verbs.has('create') || verbs.has('delete')).map(([r]) => r);
    expect(creatable.sort()).toEqual(
      [
        'events.',
        'kubernetesapplicationresources.workload.crossplane.io',
        'objects.kubernetes.crossplane.io',
        'objects.kubernetes.m.crossplane.io',
        'secrets.',
      ].sort(),
    );
    expect(verbsOn('events.')).toEqual(['create']);
    expect(verbsOn('secrets.')).toEqual(['create', 'get', 'list', 'update', 'watch']);
  });

  it('only reads the CRDs without a controller (ProviderConfigs, KubernetesClusters)', () => {
    const managed = new Set(managedKinds.map((k) => `${k.api.plural}.${k.api.group}`));
    const unmanaged = allCrds()
      .map((crd) => crd.metadata.name)
      .filter((name) => !managed.has(name));
    expect(unmanaged.length).toBeGreaterThan(0);
    for (const name of unmanaged) {
      expect(verbsOn(name).length, name).toBeGreaterThan(0);
      expect(['get', 'list', 'watch'], name).toEqual(expect.arrayContaining(verbsOn(name)));
    }
  });

  it('impersonates only the InjectedIdentity ServiceAccount', () => {
    const impersonating = controllerRules().filter((rule) => rule.verbs.includes('impersonate'));
    expect(impersonating).toEqual([
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'], resourceNames: ['provider-kubernetes'] },
    ]);
  });

  it('keeps leases out of the ClusterRole: the leader-election Role has them, in its own namespace', () => {
    expect([...grants(controllerRules()).keys()].filter((r) => r.startsWith('leases.'))).toEqual([]);
    expect(LEADER_ELECTION_RULES).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'watch', 'create', 'update'] },
    ]);
  });

  it("matches the chart's generated files (run `npm run gen` after adding a kind)", async () => {
    for (const [file, yaml] of Object.entries(renderChartRules())) expect(await readFile(join(chartDir, file), 'utf8'), file).toBe(yaml);
    for (const [sub, files] of Object.entries(renderChartDirectories())) {
      expect((await readdir(join(chartDir, sub))).sort(), sub).toEqual(Object.keys(files).sort());
      for (const [file, yaml] of Object.entries(files)) expect(await readFile(join(chartDir, sub, file), 'utf8'), file).toBe(yaml);
    }
  });
});
