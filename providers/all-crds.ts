// Every CRD Chronoplane installs, derived from the registry and the schemas of the kinds that
// have no controller (ProviderConfigs, KubernetesCluster).
import { crd, managedResourceCrd } from '#apis/crd';
import { managedKinds } from './registry';
import { kubernetesProviderConfigCrd } from './kubernetes/crds';
import { kubernetesClusterCrd } from './kubernetes/workload/cluster';
import { modernProviderConfigCrds } from './kubernetes/modern-providerconfigs';
import {
  ClusterProviderConfigSpec,
  ProviderConfigSpec,
  ProviderConfigStatus,
  clusterProviderConfigApi,
  providerConfigApi,
} from './aws/providerconfig';

const awsProviderConfigColumns = [
  { name: 'SOURCE', type: 'string', jsonPath: '.spec.credentials.source' },
  { name: 'ENDPOINT', type: 'string', jsonPath: '.spec.endpoint.url' },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

export function allCrds() {
  return [
    crd({
      api: providerConfigApi,
      scope: 'Namespaced',
      spec: ProviderConfigSpec,
      status: ProviderConfigStatus,
      printerColumns: awsProviderConfigColumns,
    }),
    crd({
      api: clusterProviderConfigApi,
      scope: 'Cluster',
      spec: ClusterProviderConfigSpec,
      status: ProviderConfigStatus,
      printerColumns: awsProviderConfigColumns,
    }),
    kubernetesProviderConfigCrd(),
    ...modernProviderConfigCrds(),
    kubernetesClusterCrd(),
    ...managedKinds.map((k) => managedResourceCrd(k)),
  ];
}
