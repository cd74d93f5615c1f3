// The object an Object manages in its target cluster, as this Object wants it: its manifest
// with metadata.name defaulted to the Object's name (as provider-kubernetes does), and the
// server-side-apply field manager that marks the fields this Object owns there.
import { createHash } from 'node:crypto';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ManagedResource } from '../../../runtime/managed-resource';
import type { TargetKey } from '../target-watches';
import type { ObjectParameters } from './schema';

export type DesiredObject = KubernetesObject & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

export function desiredObject(mr: ManagedResource<ObjectParameters, unknown>): DesiredObject {
  const { manifest } = mr.spec.forProvider;
  return { ...manifest, metadata: { ...manifest.metadata, name: manifest.metadata?.name ?? mr.metadata.name } } as DesiredObject;
}

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
 * One field manager per Object, as provider-kubernetes has (`provider-kubernetes/<name>`): two
 * Objects can own different fields of one target without taking them from each other. A name
 * too long for the limit keeps a readable head and ends in a hash of the whole name, so it stays
 * unique and stable across restarts.
 */
export function fieldManagerFor(objectName: string): string {
  const plain = PREFIX + objectName;
  if (plain.length <= MAX_FIELD_MANAGER) return plain;
  const hash = createHash('sha256').update(objectName).digest('hex').slice(0, 16);
  return `${plain.slice(0, MAX_FIELD_MANAGER - hash.length - 1)}-${hash}`;
}
