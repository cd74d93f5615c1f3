// The CLI's access to the API server, with the admin's kubeconfig (KUBECONFIG, ~/.kube/config
// or in-cluster, as every program here loads it). Reads managed objects and whatever generic
// references name, and edits annotations with merge patches (nothing else of an object).
import { CustomObjectsApi, KubernetesObjectApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { apiVersionOf, isClusterScoped, type ManagedKind } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';

/** Any object a trace may show: a managed resource, or what a generic reference names. */
export interface TracedObject {
  apiVersion: string;
  kind: string;
  metadata: ManagedResource['metadata'];
  spec?: ManagedResource['spec'];
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[]; lastHandledReconcileAt?: string };
}

export class Cluster {
  private readonly custom: CustomObjectsApi;
  private readonly objects: KubernetesObjectApi;

  constructor(kubeConfig: KubeConfig) {
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.objects = KubernetesObjectApi.makeApiClient(kubeConfig);
  }

  /** The object, or undefined when there is none (or its kind is not served). */
  async read(apiVersion: string, kind: string, namespace: string, name: string): Promise<TracedObject | undefined> {
    try {
      const spec = { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) } };
      return (await this.objects.read(spec)) as unknown as TracedObject;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  get(kind: ManagedKind, namespace: string, name: string): Promise<TracedObject | undefined> {
    return this.read(apiVersionOf(kind.api), kind.api.kind, isClusterScoped(kind.api) ? '' : namespace, name);
  }

  /**
   * Every object of the kind in the namespace; all of them for a cluster-scoped kind or for
   * namespace '' (what a cluster-scoped object may be used by). None when the kind is not installed.
   */
  async list(kind: ManagedKind, namespace: string): Promise<TracedObject[]> {
    const { group, version, plural } = kind.api;
    try {
      const list = (
        isClusterScoped(kind.api) || namespace === ''
          ? await this.custom.listClusterCustomObject({ group, version, plural })
          : await this.custom.listNamespacedCustomObject({ group, version, plural, namespace })
      ) as { items: TracedObject[] };
      return list.items.map((item) => ({ ...item, apiVersion: apiVersionOf(kind.api), kind: kind.api.kind }));
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }

  /** Sets (a string) or removes (null) annotations, leaving everything else of the object alone. */
  async annotate(kind: ManagedKind, namespace: string, name: string, annotations: Record<string, string | null>): Promise<TracedObject> {
    const { group, version, plural } = kind.api;
    const body = { metadata: { annotations } };
    const options = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    return (await (isClusterScoped(kind.api)
      ? this.custom.patchClusterCustomObject({ group, version, plural, name, body }, options)
      : this.custom.patchNamespacedCustomObject({ group, version, plural, namespace, name, body }, options))) as TracedObject;
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: number })?.code === 404;
}
