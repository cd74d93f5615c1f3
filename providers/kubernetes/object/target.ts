// The object an Object manages in its target cluster, as this Object wants it: its manifest
// with metadata.name defaulted to the Object's name, as provider-kubernetes does.
import type { ManagedResource } from '#core/managed-resource';
import type { DesiredObject } from '../remote/target';
import type { ObjectParameters } from './schema';

export function desiredObject(mr: ManagedResource<ObjectParameters, unknown>): DesiredObject {
  const { manifest } = mr.spec.forProvider;
  return { ...manifest, metadata: { ...manifest.metadata, name: manifest.metadata?.name ?? mr.metadata.name } } as DesiredObject;
}
