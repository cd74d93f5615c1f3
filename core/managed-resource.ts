// The in-memory shape of a managed resource as read from the API server. Kinds narrow
// `forProvider` and `atProvider`; everything else is common to all managed kinds.
import type { Condition } from './conditions';
import type { DeletionPolicy, ManagementAction, ManagementPolicy } from './managed';
import type { GenericReference } from './references/fields';

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  generation: number;
  resourceVersion: string;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: string;
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
}

export interface ManagedResource<F = Record<string, unknown>, A = Record<string, unknown>> {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec: {
    forProvider: F;
    /**
     * Crossplane v2's `{kind, name}` on namespaced kinds (runtime/provider-config.ts resolves it);
     * the legacy cluster-scoped Object has only `name`, of a legacy ProviderConfig.
     */
    providerConfigRef?: { kind?: 'ProviderConfig' | 'ClusterProviderConfig'; name: string };
    deletionPolicy?: DeletionPolicy;
    managementPolicies?: ManagementAction[];
    /** The earlier single-policy form; a kind's CRD admits at most one of the two. */
    managementPolicy?: ManagementPolicy;
    /** `namespace` only on cluster-scoped kinds, whose objects have none of their own. */
    writeConnectionSecretToRef?: { name: string; namespace?: string };
    references?: GenericReference[];
  };
  status?: {
    atProvider?: A;
    conditions?: Condition[];
    observedGeneration?: number;
  };
}

/**
 * The actions the resource's management policy allows, from either form: the list
 * (`managementPolicies`, absent means all) or the earlier single policy (`managementPolicy`,
 * mapped as provider-kubernetes' conversion maps it). deletionPolicy Orphan is applied on top.
 */
export function managementPoliciesOf(spec: Pick<ManagedResource['spec'], 'managementPolicies' | 'managementPolicy'>): ManagementAction[] {
  if (spec.managementPolicies) return spec.managementPolicies;
  switch (spec.managementPolicy ?? 'Default') {
    case 'Default':
      return ['*'];
    case 'ObserveCreateUpdate':
      return ['Observe', 'Create', 'Update'];
    case 'ObserveDelete':
      return ['Observe', 'Delete'];
    case 'Observe':
      return ['Observe'];
  }
}
