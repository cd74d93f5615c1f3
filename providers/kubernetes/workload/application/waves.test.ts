// Namespaces and CRDs go first, by kind and group, whatever their version.
import { describe, expect, it } from 'vitest';
import { byWave, isFirstWave } from './waves';

describe('isFirstWave', () => {
  it.each([
    [{ apiVersion: 'v1', kind: 'Namespace' }, true],
    [{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }, true],
    [{ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition' }, true],
    [{ apiVersion: 'example.org/v1', kind: 'Namespace' }, false],
    [{ apiVersion: 'example.org/v1', kind: 'CustomResourceDefinition' }, false],
    [{ apiVersion: 'apps/v1', kind: 'Deployment' }, false],
    [{ apiVersion: 'v1', kind: 'Service' }, false],
    [{ kind: 'Namespace' }, false],
    [undefined, false],
  ])('%j: %s', (object, expected) => {
    expect(isFirstWave(object)).toBe(expected);
  });
});

describe('byWave', () => {
  it('splits in order, keeping the order within each wave', () => {
    const items = [
      { name: 'deployment', t: { apiVersion: 'apps/v1', kind: 'Deployment' } },
      { name: 'ns', t: { apiVersion: 'v1', kind: 'Namespace' } },
      { name: 'service', t: { apiVersion: 'v1', kind: 'Service' } },
      { name: 'crd', t: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' } },
    ];
    const [first, rest] = byWave(items, (i) => i.t);
    expect(first.map((i) => i.name)).toEqual(['ns', 'crd']);
    expect(rest.map((i) => i.name)).toEqual(['deployment', 'service']);
  });
});
