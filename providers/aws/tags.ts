// External resource labeling (seed 001, "External Resource Labeling"), plus the uid tag that
// lets Create find what an interrupted earlier attempt already made.
import type { ExternalClaim } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import type { KindApi } from '#core/managed-kind';
import { providerConfigRefOf } from '#runtime/provider-config';

const PROVIDER_NAME = 'provider-chronoplane-aws';
export const UID_TAG = 'chronoplane.io/uid';

/** EC2's limits: 50 tags a resource, keys up to 128 characters, values up to 256. */
export const AWS_TAG_LIMITS = { maxEntries: 50, maxKeyLength: 128, maxValueLength: 256 };

/** The tags Chronoplane sets on every resource it makes (crossplaneTags), which count toward EC2's 50. */
export const SYSTEM_TAG_KEYS = [
  'crossplane-kind',
  'crossplane-name',
  'crossplane-namespace',
  'crossplane-provider',
  'crossplane-providerconfig',
  'crossplane-providerconfig-kind',
  UID_TAG,
] as const;

/** What a spec may hold: EC2's 50 less ours, or every create would fail with TagLimitExceeded. */
export const USER_TAG_LIMIT = AWS_TAG_LIMITS.maxEntries - SYSTEM_TAG_KEYS.length;

/**
 * Crossplane v2's tags: the config's name and, beside it, its kind; with crossplane-namespace
 * they name a namespaced ProviderConfig fully (team-a's "creds" is not team-b's).
 */
function crossplaneTags(api: KindApi, mr: ManagedResource<unknown, unknown>): Record<(typeof SYSTEM_TAG_KEYS)[number], string> {
  const providerConfig = providerConfigRefOf(mr);
  return {
    'crossplane-kind': `${api.singular}.${api.group}`,
    'crossplane-name': mr.metadata.name,
    'crossplane-namespace': mr.metadata.namespace ?? '',
    'crossplane-provider': PROVIDER_NAME,
    'crossplane-providerconfig': providerConfig.name,
    'crossplane-providerconfig-kind': providerConfig.kind,
    [UID_TAG]: mr.metadata.uid,
  };
}

/** Tags Chronoplane owns; a user's spec may not override them, and drift checks skip them. */
function isSystemTag(key: string): boolean {
  return key.startsWith('crossplane-') || key === UID_TAG;
}

export interface Tag {
  Key?: string;
  Value?: string;
}

/** Whether a resource carries the uid tag of this managed resource, i.e. an earlier attempt made it. */
export const carriesUid = (tags: readonly Tag[] | undefined, uid: string): boolean =>
  (tags ?? []).some((t) => t.Key === UID_TAG && t.Value === uid);

/**
 * Who the tags say owns the resource, when that is not the object with `ownUid`: undefined for
 * a resource carrying this object's uid tag (the common case, which costs nothing more) or no
 * uid tag at all (never ours).
 */
export function claimOf(tags: readonly Tag[] | undefined, ownUid: string): ExternalClaim | undefined {
  const uid = tags?.find((t) => t.Key === UID_TAG)?.Value;
  if (!uid || uid === ownUid) return undefined;
  const map = tagsToMap(tags);
  const named = (key: string) => map[key] || undefined;
  // A cluster-scoped owner's namespace tag is empty, so only a missing one is unknown.
  return { uid, kind: named('crossplane-kind'), namespace: map['crossplane-namespace'], name: named('crossplane-name') };
}

export const tagsToMap = (tags: readonly Tag[] | undefined): Record<string, string> =>
  Object.fromEntries((tags ?? []).filter((t) => t.Key !== undefined).map((t) => [t.Key!, t.Value ?? '']));

export const mapToTags = (map: Record<string, string>): Tag[] => Object.entries(map).map(([Key, Value]) => ({ Key, Value }));

interface TagChanges {
  set: Record<string, string>;
  remove: string[];
}

/**
 * The tag edits that make EC2 match `desired` (the user's tags plus the crossplane-* tags).
 * Tags under aws: belong to AWS and cannot be removed, so they are left alone.
 */
export function tagChanges(desired: Record<string, string>, observed: Record<string, string>): TagChanges {
  const set = Object.fromEntries(Object.entries(desired).filter(([k, v]) => observed[k] !== v));
  const remove = Object.keys(observed).filter((k) => !(k in desired) && !k.startsWith('aws:'));
  return { set, remove };
}

/** How observed tags differ from desired ones, for humans; empty means up to date. */
export function tagDifferences(desired: Record<string, string>, observed: readonly Tag[] | undefined): string[] {
  const changes = tagChanges(desired, tagsToMap(observed));
  return [
    ...Object.keys(changes.set).map((key) => `tag ${key}: want "${changes.set[key]}"`),
    ...changes.remove.map((key) => `tag ${key}: not in spec`),
  ];
}

/** The user's tags; system tags are always added by the caller and cannot be overridden here. */
export function userTags(spec: { tags?: Record<string, string> }): Record<string, string> {
  return Object.fromEntries(Object.entries(spec.tags ?? {}).filter(([k]) => !isSystemTag(k)));
}

/** Every tag the external resource should carry: the user's, then the system tags. */
export function desiredTags(api: KindApi, mr: ManagedResource<{ tags?: Record<string, string> }, unknown>): Record<string, string> {
  return { ...userTags(mr.spec.forProvider), ...crossplaneTags(api, mr) };
}
