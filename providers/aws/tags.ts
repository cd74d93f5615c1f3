// External resource labeling (seed 001, "External Resource Labeling"), plus the uid tag that
// lets Create find what an interrupted earlier attempt already made.
import type { ManagedResource } from '../../runtime/managed-resource';
import type { KindApi } from '../../runtime/managed-kind';

export const PROVIDER_NAME = 'provider-chronoplane-aws';
export const UID_TAG = 'chronoplane.io/uid';

/** EC2's limits: 50 tags a resource, keys up to 128 characters, values up to 256. */
export const AWS_TAG_LIMITS = { maxEntries: 50, maxKeyLength: 128, maxValueLength: 256 };

export function crossplaneTags(api: KindApi, mr: ManagedResource<unknown, unknown>): Record<string, string> {
  return {
    'crossplane-kind': `${api.singular}.${api.group}`,
    'crossplane-name': mr.metadata.name,
    'crossplane-namespace': mr.metadata.namespace ?? '',
    'crossplane-provider': PROVIDER_NAME,
    'crossplane-providerconfig': mr.spec.providerConfigRef?.name ?? 'default',
    [UID_TAG]: mr.metadata.uid,
  };
}

/** Tags Chronoplane owns; a user's spec may not override them, and drift checks skip them. */
export function isSystemTag(key: string): boolean {
  return key.startsWith('crossplane-') || key === UID_TAG;
}

export interface Tag {
  Key?: string;
  Value?: string;
}

export const tagsToMap = (tags: readonly Tag[] | undefined): Record<string, string> =>
  Object.fromEntries((tags ?? []).filter((t) => t.Key !== undefined).map((t) => [t.Key!, t.Value ?? '']));

export const mapToTags = (map: Record<string, string>): Tag[] => Object.entries(map).map(([Key, Value]) => ({ Key, Value }));
