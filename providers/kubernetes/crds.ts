// The Kubernetes provider's ProviderConfig CRD. The Object's comes from the registry, as every
// managed kind's does (apis/crd.ts managedResourceCrd).
import { crd, managedResourceCrd } from '#apis/crd';
import { objectKind } from './object';
import { KubernetesProviderConfigSpec, KubernetesProviderConfigStatus, kubernetesProviderConfigApi } from './providerconfig';

export function kubernetesProviderConfigCrd() {
  return crd({
    api: kubernetesProviderConfigApi,
    scope: 'Cluster',
    spec: KubernetesProviderConfigSpec,
    status: KubernetesProviderConfigStatus,
    printerColumns: [
      { name: 'SOURCE', type: 'string', jsonPath: '.spec.credentials.source' },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
}

/** Both of the provider's CRDs, for tests that install only these. */
export function kubernetesCrds() {
  return [managedResourceCrd(objectKind), kubernetesProviderConfigCrd()];
}
