import { describe, expect, it } from 'vitest';
import { allCrds } from '#providers/all-crds';
import { AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW, EDIT_ROLE, VIEW_ROLE, aggregatedRoles, type ClusterRole } from './rbac';

/** `plural.group` for each (resource, verbs) a role grants. */
function grants(role: ClusterRole): Map<string, string[]> {
  const granted = new Map<string, string[]>();
  for (const rule of role.rules) {
    for (const group of rule.apiGroups) for (const resource of rule.resources) granted.set(`${resource}.${group}`, rule.verbs);
  }
  return granted;
}

const role = (name: string) => aggregatedRoles().find((r) => r.metadata.name === name)!;
const crdsOf = (scope: string) =>
  allCrds()
    .filter((crd) => crd.spec.scope === scope)
    .map((crd) => crd.metadata.name);

describe('the aggregated ClusterRoles for tenants', () => {
  it('let edit write every namespaced CRD and view read it, status included', () => {
    const edit = grants(role(EDIT_ROLE));
    const view = grants(role(VIEW_ROLE));
    expect(crdsOf('Namespaced').length).toBeGreaterThan(0);
    for (const name of crdsOf('Namespaced')) {
      expect(edit.get(name), name).toEqual(['create', 'delete', 'deletecollection', 'patch', 'update', 'get', 'list', 'watch']);
      expect(view.get(name), name).toEqual(['get', 'list', 'watch']);
      const [plural, ...group] = name.split('.');
      expect(view.get(`${plural}/status.${group.join('.')}`), `${name} status`).toEqual(['get', 'list', 'watch']);
    }
  });

  it('grant nothing on a cluster-scoped CRD, and no write to any status', () => {
    const granted = [...grants(role(EDIT_ROLE)).keys(), ...grants(role(VIEW_ROLE)).keys()];
    expect(crdsOf('Cluster').length).toBeGreaterThan(0);
    for (const name of crdsOf('Cluster')) {
      const [plural, ...group] = name.split('.');
      expect(granted, name).not.toContain(name);
      expect(granted, name).not.toContain(`${plural}/status.${group.join('.')}`);
    }
    expect([...grants(role(EDIT_ROLE)).keys()].filter((resource) => resource.includes('/'))).toEqual([]);
  });

  it('grant only what the CRDs serve: no wildcards', () => {
    for (const r of aggregatedRoles()) {
      for (const rule of r.rules) expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
    }
  });

  it('aggregate edit into admin and edit, view into admin, edit and view', () => {
    const labels = (name: string) => Object.keys(role(name).metadata.labels).filter((l) => l.startsWith('rbac.authorization.k8s.io/'));
    expect(labels(EDIT_ROLE).sort()).toEqual([AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT].sort());
    expect(labels(VIEW_ROLE).sort()).toEqual([AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW].sort());
    for (const r of aggregatedRoles()) for (const label of labels(r.metadata.name)) expect(r.metadata.labels[label]).toBe('true');
  });
});
