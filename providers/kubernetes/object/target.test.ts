import { describe, expect, it } from 'vitest';
import { desiredObject } from './target';
import type { ManagedResource } from '#core/managed-resource';
import type { ObjectParameters } from './schema';

const object = (name: string, manifest: ObjectParameters['manifest']) =>
  ({ metadata: { name, uid: 'u' }, spec: { forProvider: { manifest } } }) as unknown as ManagedResource<ObjectParameters, unknown>;

describe('desiredObject', () => {
  it('defaults metadata.name to the Object’s name, as provider-kubernetes does', () => {
    expect(desiredObject(object('sample', { apiVersion: 'v1', kind: 'Namespace' })).metadata).toEqual({ name: 'sample' });
    expect(
      desiredObject(object('sample', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'ns' } })).metadata,
    ).toEqual({ name: 'other', namespace: 'ns' });
  });
});
