// CustomObjectsApi's namespaced and cluster-scoped calls behind one face, so every caller works
// for both: a ref whose namespace is '' names a cluster-scoped object (provider-kubernetes'
// Object). The served version and plural come from the registry, never from durable workflow state.
import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { ManagedResource } from '#core/managed-resource';
import type { ResourceRef } from '#core/managed-kind';
import { kindFor } from '#providers/registry';

type CustomObjectTarget = ReturnType<typeof customObjectTarget>;
type Options = Parameters<CustomObjectsApi['patchNamespacedCustomObject']>[1];
type Write = { body: object; fieldManager: string; fieldValidation?: string; dryRun?: string };

export function customObjectTarget(ref: ResourceRef) {
  const { api } = kindFor(ref.group, ref.kind);
  return { group: api.group, version: api.version, namespace: ref.namespace, plural: api.plural, name: ref.name };
}

export class ScopedCustomObjects {
  constructor(private readonly api: CustomObjectsApi) {}

  get(t: CustomObjectTarget): Promise<ManagedResource> {
    return t.namespace ? this.api.getNamespacedCustomObject(t) : this.api.getClusterCustomObject(t);
  }

  patch(t: CustomObjectTarget & Write, options?: Options): Promise<ManagedResource> {
    return t.namespace ? this.api.patchNamespacedCustomObject(t, options) : this.api.patchClusterCustomObject(t, options);
  }

  patchStatus(t: CustomObjectTarget & Write, options?: Options): Promise<ManagedResource> {
    return t.namespace ? this.api.patchNamespacedCustomObjectStatus(t, options) : this.api.patchClusterCustomObjectStatus(t, options);
  }

  replace(t: CustomObjectTarget & Write): Promise<ManagedResource> {
    return t.namespace ? this.api.replaceNamespacedCustomObject(t) : this.api.replaceClusterCustomObject(t);
  }
}
