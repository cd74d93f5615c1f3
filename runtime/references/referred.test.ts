import { describe, expect, it } from 'vitest';
import { REFERRED_OBJECTS, referredFinalizer, referredObjects, referredObjectsValue } from './referred';

const cm = (name: string) => ({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: 'team-a', name });

describe('the record of objects an Object holds with its finalizer', () => {
  it('uses provider-kubernetes’ finalizer name', () => {
    expect(referredFinalizer('1234')).toBe('kubernetes.crossplane.io/referred-by-object-1234');
  });

  it('reads back what it writes, sorted and without duplicates, so equal sets are equal strings', () => {
    const value = referredObjectsValue([cm('b'), cm('a'), cm('b')]);
    expect(value).toBe(referredObjectsValue([cm('a'), cm('b')]));
    expect(referredObjects({ [REFERRED_OBJECTS]: value! })).toEqual([cm('a'), cm('b')]);
  });

  it('is absent when it holds nothing', () => {
    expect(referredObjectsValue([])).toBeNull();
    expect(referredObjects(undefined)).toEqual([]);
  });

  it('reads a hand-edited, malformed record as empty', () => {
    expect(referredObjects({ [REFERRED_OBJECTS]: 'not json' })).toEqual([]);
    expect(referredObjects({ [REFERRED_OBJECTS]: '[{"name": 1}]' })).toEqual([]);
  });
});
