import { describe, expect, it } from 'vitest';
import { desiredMember, memberName, planMembers, type Collection, type Member, type MemberKind, type Target } from './members';

const collection: Collection = {
  apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
  kind: 'ObservedObjectCollection',
  namespace: 'team-a',
  name: 'foo-collection',
  uid: 'uid-1',
  spec: {
    observeObjects: { apiVersion: 'v1', kind: 'ConfigMap', selector: { matchLabels: { foo: 'bar' } } },
    objectTemplate: { metadata: { labels: { l1: 'v1' }, annotations: { a1: 'v1' } } },
    providerConfigRef: { kind: 'ClusterProviderConfig', name: 'kubernetes-provider' },
  },
};
const memberKind: MemberKind = { apiVersion: 'kubernetes.m.crossplane.io/v1alpha1', kind: 'Object' };
const target = (name: string, namespace = 'default'): Target => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });

describe('memberName', () => {
  it('is the collection name and the first 7 hex digits of the SHA-256 of the target, as upstream names it', () => {
    // sha256("/v1, Kind=ConfigMap/default/configmap-foo"), upstream's key for a core ConfigMap.
    expect(memberName(collection, target('configmap-foo'))).toBe('foo-collection-f878ca0');
    expect(memberName(collection, { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'x', name: 'y' })).toMatch(
      /^foo-collection-[0-9a-f]{7}$/,
    );
    expect(memberName(collection, target('configmap-foo'))).not.toBe(memberName(collection, target('configmap-foo', 'other')));
  });
});

describe('desiredMember', () => {
  it('is an observe-only Object of the target, in the collection’s namespace, labelled, annotated and owned by the collection', () => {
    expect(desiredMember(collection, memberKind, target('configmap-foo'))).toEqual({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'Object',
      metadata: {
        name: 'foo-collection-f878ca0',
        namespace: 'team-a',
        labels: { l1: 'v1', 'kubernetes.crossplane.io/owned-by-collection': 'foo-collection' },
        annotations: { a1: 'v1' },
        ownerReferences: [{ apiVersion: collection.apiVersion, kind: collection.kind, name: 'foo-collection', uid: 'uid-1' }],
      },
      spec: {
        forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'configmap-foo', namespace: 'default' } } },
        managementPolicies: ['Observe'],
        providerConfigRef: { kind: 'ClusterProviderConfig', name: 'kubernetes-provider' },
      },
    });
  });

  it('leaves out the namespaces a cluster-scoped collection or target does not have', () => {
    const member = desiredMember({ ...collection, namespace: '' }, memberKind, {
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: '',
      name: 'n',
    });
    expect(member.metadata).not.toHaveProperty('namespace');
    expect(member.spec?.forProvider?.manifest?.metadata).toEqual({ name: 'n' });
  });
});

describe('planMembers', () => {
  const existing = (t: Target, change: (m: Member) => Member = (m) => m): Member =>
    change({
      ...desiredMember(collection, memberKind, t),
      metadata: { ...desiredMember(collection, memberKind, t).metadata, uid: `u-${t.name}` },
    });

  it('applies missing members, keeps those in place, and deletes its own members whose target no longer matches', () => {
    const plan = planMembers(collection, memberKind, [target('a'), target('b')], [existing(target('a')), existing(target('gone'))]);
    expect(plan.apply.map((m) => m.metadata.name)).toEqual([memberName(collection, target('b'))]);
    expect(plan.remove.map((m) => m.metadata.name)).toEqual([memberName(collection, target('gone'))]);
    expect([plan.present, plan.desired, plan.conflicts]).toEqual([1, 2, []]);
  });

  it('re-applies a member whose template labels, policy or manifest were changed, and ignores labels others added', () => {
    const edited = existing(target('a'), (m) => ({ ...m, spec: { ...m.spec, managementPolicies: ['*'] } }));
    const relabelled = existing(target('b'), (m) => ({ ...m, metadata: { ...m.metadata, labels: { ...m.metadata.labels, mine: 'x' } } }));
    const plan = planMembers(collection, memberKind, [target('a'), target('b')], [edited, relabelled]);
    expect(plan.apply.map((m) => m.metadata.name)).toEqual([memberName(collection, target('a'))]);
    expect(plan.present).toBe(1);
  });

  it('never touches an Object it does not own: not one that holds a member’s name, nor one that only carries the label', () => {
    const squatter = existing(target('a'), (m) => ({ ...m, metadata: { ...m.metadata, ownerReferences: [] } }));
    const labelledOnly = existing(target('old'), (m) => ({ ...m, metadata: { ...m.metadata, ownerReferences: [] } }));
    const plan = planMembers(collection, memberKind, [target('a')], [squatter, labelledOnly]);
    expect(plan.apply).toEqual([]);
    expect(plan.remove).toEqual([]);
    expect(plan.conflicts).toEqual([
      `Object team-a/${memberName(collection, target('a'))} already exists and is not this collection’s; it is left alone`,
    ]);
  });
});
