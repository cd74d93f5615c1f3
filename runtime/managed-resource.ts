// The in-memory shape of a managed resource as read from the API server. Kinds narrow
// `forProvider` and `atProvider`; everything else is common to all managed kinds.
import type { Condition } from '../apis/conditions';
import type { DeletionPolicy, ManagementAction } from '../apis/managed';
import type { GenericReference } from '../apis/references';

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
    providerConfigRef?: { name: string };
    deletionPolicy?: DeletionPolicy;
    managementPolicies?: ManagementAction[];
    writeConnectionSecretToRef?: { name: string };
    references?: GenericReference[];
  };
  status?: {
    atProvider?: A;
    conditions?: Condition[];
    observedGeneration?: number;
  };
}
