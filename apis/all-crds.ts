// Every CRD Chronoplane installs, derived from the registry and the ProviderConfig schema.
import { crd, managedResourceCrd } from './crd';
import { managedKinds } from '../providers/registry';
import { kubernetesProviderConfigCrd } from '../providers/kubernetes/crds';
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
    ...managedKinds.map((k) => managedResourceCrd(k)),
  ];
}
