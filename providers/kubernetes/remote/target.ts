// An object in a target cluster as a managed resource wants it, how it is keyed in the shared
// watches, how messages name it, and the server-side-apply field manager that marks the fields
// that managed resource owns there. Shared by every kind that manages objects in other
// clusters (provider-kubernetes' Object, a KubernetesApplicationResource).
import { createHash } from 'node:crypto';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { TargetKey } from '../target-watches';

export type DesiredObject = KubernetesObject & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

export function targetKeyOf(cluster: string, desired: DesiredObject): TargetKey {
  return {
    cluster,
    apiVersion: desired.apiVersion,
    kind: desired.kind,
    namespace: desired.metadata.namespace ?? '',
    name: desired.metadata.name,
  };
}

/** `ConfigMap default/settings`, `Namespace team-a`: for summaries and messages. */
export function describeTarget(target: Pick<TargetKey, 'kind' | 'namespace' | 'name'>): string {
  return `${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
}

/** The API server refuses field managers longer than this. */
const MAX_FIELD_MANAGER = 128;
const PREFIX = 'chronoplane/';

/**
 * One field manager per managed resource, as provider-kubernetes has (`provider-kubernetes/<name>`):
 * two resources can own different fields of one target without taking them from each other. A
 * name too long for the limit keeps a readable head and ends in a hash of the whole name, so it
 * stays unique and stable across restarts.
 */
export function fieldManagerFor(objectName: string): string {
  const plain = PREFIX + objectName;
  if (plain.length <= MAX_FIELD_MANAGER) return plain;
  const hash = createHash('sha256').update(objectName).digest('hex').slice(0, 16);
  return `${plain.slice(0, MAX_FIELD_MANAGER - hash.length - 1)}-${hash}`;
}

/**
 * The field manager of a managed resource: `chronoplane/<name>` for a cluster-scoped one (an
 * Object), `chronoplane/<namespace>/<name>` for a namespaced one, whose name alone is not unique.
 */
export function fieldManagerOf(metadata: { name: string; namespace?: string }): string {
  return fieldManagerFor(metadata.namespace ? `${metadata.namespace}/${metadata.name}` : metadata.name);
}
