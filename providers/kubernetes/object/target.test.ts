import { describe, expect, it } from 'vitest';
import { desiredObject, describeTarget, fieldManagerFor } from './target';
import type { ManagedResource } from '../../../runtime/managed-resource';
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

describe('fieldManagerFor', () => {
  it('is chronoplane/<Object name>', () => {
    expect(fieldManagerFor('sample-service-owner')).toBe('chronoplane/sample-service-owner');
  });

  it('stays within the API server’s 128 characters, distinct and stable for long names', () => {
    const long = 'a'.repeat(200);
    const manager = fieldManagerFor(long);
    expect(manager.length).toBe(128);
    expect(manager).toBe(fieldManagerFor(long));
    expect(manager).not.toBe(fieldManagerFor(`${'a'.repeat(199)}b`));
  });
});

describe('describeTarget', () => {
  it('names namespaced and cluster-scoped targets', () => {
    expect(describeTarget({ kind: 'ConfigMap', namespace: 'default', name: 'c' })).toBe('ConfigMap default/c');
    expect(describeTarget({ kind: 'Namespace', namespace: '', name: 'n' })).toBe('Namespace n');
  });
});
