// The KubernetesCluster CRD: a plain namespaced kind (no controller) in the seed's
// compute.crossplane.io/v1alpha1, whose spec names the connection Secret holding a kubeconfig.
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { allCrds } from '../../all-crds';
import { KubernetesClusterSpec, kubernetesClusterCrd, kubernetesClusterKey, kubernetesClusterScope } from './cluster';

type Schema = { properties: Record<string, Schema>; required?: string[]; description?: string };

describe('the KubernetesCluster API', () => {
  const crd = kubernetesClusterCrd();
  const version = crd.spec.versions[0]!;
  const root = version.schema.openAPIV3Schema as unknown as Schema;

  it('is compute.crossplane.io/v1alpha1 KubernetesCluster, namespaced, installed with the rest', () => {
    expect(crd.metadata.name).toBe('kubernetesclusters.compute.crossplane.io');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
    expect(crd.spec.names).toMatchObject({ kind: 'KubernetesCluster', plural: 'kubernetesclusters', shortNames: ['kcluster'] });
    expect(crd.spec.names.categories).toContain('crossplane');
    expect(allCrds().map((c) => c.metadata.name)).toContain('kubernetesclusters.compute.crossplane.io');
  });

  it('shows its connection Secret and age', () => {
    expect(version.additionalPrinterColumns).toEqual([
      { name: 'CONNECTION-SECRET', type: 'string', jsonPath: '.spec.writeConnectionSecretToRef.name' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
  });

  it('requires the connection Secret, and documents every field for kubectl explain', () => {
    const spec = root.properties.spec!;
    expect(root.required).toContain('spec');
    expect(spec.required).toEqual(['writeConnectionSecretToRef']);
    expect(spec.properties.writeConnectionSecretToRef!.required).toEqual(['name']);
    expect(spec.properties.writeConnectionSecretToRef!.description).toMatch(/key "kubeconfig"/);
    for (const schema of [
      root,
      spec,
      spec.properties.writeConnectionSecretToRef!,
      spec.properties.writeConnectionSecretToRef!.properties.name!,
    ]) {
      expect(schema.description).toBeTruthy();
    }
    expect(Value.Check(KubernetesClusterSpec, { writeConnectionSecretToRef: { name: 'remote-1-kubeconfig' } })).toBe(true);
    expect(Value.Check(KubernetesClusterSpec, { writeConnectionSecretToRef: { name: '' } })).toBe(false);
    expect(Value.Check(KubernetesClusterSpec, {})).toBe(false);
  });

  it('names itself for reads and lists of the control cluster', () => {
    expect(kubernetesClusterKey({ namespace: 'complex', name: 'wordpress-demo-cluster' })).toEqual({
      apiVersion: 'compute.crossplane.io/v1alpha1',
      kind: 'KubernetesCluster',
      namespace: 'complex',
      name: 'wordpress-demo-cluster',
    });
    expect(kubernetesClusterScope('complex')).toEqual({
      apiVersion: 'compute.crossplane.io/v1alpha1',
      kind: 'KubernetesCluster',
      namespace: 'complex',
    });
  });
});
