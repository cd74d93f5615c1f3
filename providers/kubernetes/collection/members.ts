// A collection's members: for every target object its selector matches, one observe-only
// Object, named deterministically from the target (so a pass that died after an apply finds
// what it made), labelled with the membership label, carrying the template's labels and
// annotations and owned by the collection, so that they go with it. Which members to apply,
// which to delete, and which names another owner holds. Pure.
import { createHash } from 'node:crypto';
import { MEMBERSHIP_LABEL, type CollectionSpec } from './schema';

/** The collection, as its members' owner reference names it. */
export interface Collection {
  apiVersion: string;
  kind: string;
  /** '' for the cluster-scoped group. */
  namespace: string;
  name: string;
  uid: string;
  spec: CollectionSpec;
}

/** Where members go: Objects of this apiVersion (the legacy or the v2 group). */
export interface MemberKind {
  apiVersion: string;
  kind: string;
}

/** An object of the target cluster the selector matched. */
export interface Target {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** A member Object as the control cluster holds it (or as we apply it). */
export interface Member {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    deletionTimestamp?: string;
  };
  spec?: {
    forProvider?: { manifest?: { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } } };
    managementPolicies?: string[];
    providerConfigRef?: { kind?: string; name?: string };
  };
}

export const membershipLabelOf = (collection: Pick<Collection, 'name'>): Record<string, string> => ({
  [MEMBERSHIP_LABEL]: collection.name,
});

/**
 * `<collection>-<7 hex digits>`: the first digits of the SHA-256 of the target's identity, as
 * upstream names members (its Go GroupVersionKind string, `apps/v1, Kind=Deployment` or
 * `/v1, Kind=ConfigMap`, then namespace and name), so that a collection moved between the two
 * implementations keeps its members' names.
 */
export function memberName(collection: Pick<Collection, 'name'>, target: Target): string {
  const [group, version] = target.apiVersion.includes('/') ? target.apiVersion.split('/') : ['', target.apiVersion];
  const identity = `${group}/${version}, Kind=${target.kind}/${target.namespace}/${target.name}`;
  return `${collection.name}-${createHash('sha256').update(identity).digest('hex').slice(0, 7)}`;
}

/** The member Object for `target`: observe-only, with the collection's provider config. */
export function desiredMember(collection: Collection, memberKind: MemberKind, target: Target): Member {
  const template = collection.spec.objectTemplate?.metadata;
  const annotations = template?.annotations;
  return {
    apiVersion: memberKind.apiVersion,
    kind: memberKind.kind,
    metadata: {
      name: memberName(collection, target),
      ...(collection.namespace ? { namespace: collection.namespace } : {}),
      labels: { ...template?.labels, ...membershipLabelOf(collection) },
      ...(annotations && Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [{ apiVersion: collection.apiVersion, kind: collection.kind, name: collection.name, uid: collection.uid }],
    },
    spec: {
      forProvider: {
        manifest: {
          apiVersion: target.apiVersion,
          kind: target.kind,
          metadata: { name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) },
        },
      },
      managementPolicies: ['Observe'],
      ...(collection.spec.providerConfigRef ? { providerConfigRef: collection.spec.providerConfigRef } : {}),
    },
  };
}

export const isOwnedBy = (member: Member, collection: Pick<Collection, 'uid'>): boolean =>
  (member.metadata.ownerReferences ?? []).some((o) => o.uid === collection.uid);

/** Whether `existing` carries everything `desired` sets (others' labels and annotations may be there too). */
function isAsDesired(existing: Member, desired: Member): boolean {
  const includes = (have: Record<string, string> | undefined, want: Record<string, string> | undefined) =>
    Object.entries(want ?? {}).every(([key, value]) => have?.[key] === value);
  const manifest = (m: Member) => {
    const found = m.spec?.forProvider?.manifest;
    return [found?.apiVersion, found?.kind, found?.metadata?.name, found?.metadata?.namespace ?? ''];
  };
  const policies = (m: Member) => JSON.stringify(m.spec?.managementPolicies ?? ['*']);
  const providerConfig = (m: Member) => JSON.stringify([m.spec?.providerConfigRef?.kind ?? null, m.spec?.providerConfigRef?.name ?? null]);
  return (
    includes(existing.metadata.labels, desired.metadata.labels) &&
    includes(existing.metadata.annotations, desired.metadata.annotations) &&
    JSON.stringify(manifest(existing)) === JSON.stringify(manifest(desired)) &&
    policies(existing) === policies(desired) &&
    (desired.spec?.providerConfigRef === undefined || providerConfig(existing) === providerConfig(desired))
  );
}

export interface MembersPlan {
  /** Members to create or bring back in line (server-side apply). */
  apply: Member[];
  /** Members whose target no longer matches (or is gone). */
  remove: Member[];
  /** Members as they should be that are (the desired count is `desired`). */
  present: number;
  desired: number;
  /** Names the collection refuses: an Object of that name that is not its own. */
  conflicts: string[];
}

/**
 * What to do so that `existing` (the Objects of the members' kind in the collection's scope)
 * has one member per target, and no other member. Only Objects the collection owns are its
 * members: one that merely carries the label, or that holds a member's name, is never touched.
 */
export function planMembers(
  collection: Collection,
  memberKind: MemberKind,
  targets: readonly Target[],
  existing: readonly Member[],
): MembersPlan {
  const byName = new Map(existing.map((m) => [m.metadata.name, m]));
  const wanted = new Map(targets.map((t) => [memberName(collection, t), desiredMember(collection, memberKind, t)]));
  const plan: MembersPlan = { apply: [], remove: [], present: 0, desired: wanted.size, conflicts: [] };
  for (const [name, desired] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const found = byName.get(name);
    if (found && !isOwnedBy(found, collection)) {
      plan.conflicts.push(`${describeMember(found)} already exists and is not this collection\u2019s; it is left alone`);
    } else if (!found || !isAsDesired(found, desired)) {
      plan.apply.push(desired);
    } else if (!found.metadata.deletionTimestamp) {
      plan.present++;
    }
  }
  plan.remove = existing.filter((m) => isOwnedBy(m, collection) && !wanted.has(m.metadata.name) && !m.metadata.deletionTimestamp);
  return plan;
}

export const hasWork = (plan: MembersPlan): boolean => plan.apply.length > 0 || plan.remove.length > 0;

export function describePlan(plan: MembersPlan): string {
  const parts = [
    plan.apply.length > 0 ? `apply ${plan.apply.map((m) => m.metadata.name).join(', ')}` : '',
    plan.remove.length > 0 ? `delete ${plan.remove.map((m) => m.metadata.name).join(', ')}` : '',
  ];
  return parts.filter(Boolean).join('; ');
}

export const describeMember = (m: Pick<Member, 'kind' | 'metadata'>): string =>
  `${m.kind} ${m.metadata.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata.name}`;
