import { describe, expect, it } from 'vitest';
import { describeTarget, fieldManagerFor, fieldManagerOf } from './target';

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

describe('fieldManagerOf', () => {
  it('keeps a cluster-scoped Object’s manager, and tells namespaced resources of one name apart', () => {
    expect(fieldManagerOf({ name: 'sample' })).toBe('chronoplane/sample');
    expect(fieldManagerOf({ name: 'web', namespace: 'team-a' })).toBe('chronoplane/team-a/web');
    expect(fieldManagerOf({ name: 'web', namespace: 'team-b' })).not.toBe(fieldManagerOf({ name: 'web', namespace: 'team-a' }));
  });
});

describe('describeTarget', () => {
  it('names namespaced and cluster-scoped targets', () => {
    expect(describeTarget({ kind: 'ConfigMap', namespace: 'default', name: 'c' })).toBe('ConfigMap default/c');
    expect(describeTarget({ kind: 'Namespace', namespace: '', name: 'n' })).toBe('Namespace n');
  });
});
