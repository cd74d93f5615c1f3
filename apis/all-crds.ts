// Every CRD Chronoplane installs, derived from the registry and the schemas of the kinds that
// have no controller (ProviderConfigs, KubernetesCluster).
import { crd, managedResourceCrd } from './crd';
import { managedKinds } from '../providers/registry';
import { kubernetesProviderConfigCrd } from '../providers/kubernetes/crds';
import { kubernetesClusterCrd } from '../providers/kubernetes/workload/cluster';
import { ProviderConfigSpec, ProviderConfigStatus, providerConfigApi } from '../providers/aws/providerconfig';

export function allCrds() {
  return [
    crd({
      api: providerConfigApi,
      scope: 'Cluster',
      spec: ProviderConfigSpec,
      status: ProviderConfigStatus,
      printerColumns: [
        { name: 'SOURCE', type: 'string', jsonPath: '.spec.credentials.source' },
        { name: 'ENDPOINT', type: 'string', jsonPath: '.spec.endpoint.url' },
        { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    }),
    kubernetesProviderConfigCrd(),
    kubernetesClusterCrd(),
    ...managedKinds.map((k) => managedResourceCrd(k)),
  ];
}
