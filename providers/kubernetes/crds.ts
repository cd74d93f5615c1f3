// The CRDs of the Kubernetes provider, from the schemas in this folder: Object (both versions,
// one schema) and ProviderConfig, with provider-kubernetes' printer columns.
import { crd } from '../../apis/crd';
import { OBJECT_OLDER_VERSIONS, ObjectSpec, ObjectStatus, objectApi } from './object/schema';
import { KubernetesProviderConfigSpec, KubernetesProviderConfigStatus, kubernetesProviderConfigApi } from './providerconfig';

export function kubernetesCrds() {
  return [
    crd({
      api: objectApi,
      scope: 'Cluster',
      spec: ObjectSpec,
      status: ObjectStatus,
      olderVersions: OBJECT_OLDER_VERSIONS,
      printerColumns: [
        { name: 'KIND', type: 'string', jsonPath: '.spec.forProvider.manifest.kind' },
        { name: 'APIVERSION', type: 'string', jsonPath: '.spec.forProvider.manifest.apiVersion', priority: 1 },
        { name: 'METANAME', type: 'string', jsonPath: '.spec.forProvider.manifest.metadata.name', priority: 1 },
        { name: 'METANAMESPACE', type: 'string', jsonPath: '.spec.forProvider.manifest.metadata.namespace', priority: 1 },
        { name: 'PROVIDERCONFIG', type: 'string', jsonPath: '.spec.providerConfigRef.name' },
        { name: 'SYNCED', type: 'string', jsonPath: ".status.conditions[?(@.type=='Synced')].status" },
        { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
        { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    }),
    crd({
      api: kubernetesProviderConfigApi,
      scope: 'Cluster',
      spec: KubernetesProviderConfigSpec,
      status: KubernetesProviderConfigStatus,
      printerColumns: [
        { name: 'SOURCE', type: 'string', jsonPath: '.spec.credentials.source' },
        { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    }),
  ];
}
