// Where a sweep gets the managed objects of its kind: the worker's object cache when it is
// synced for the whole kind, else one list per kind per sweep, in pages, from the API server
// (which answers it from its watch cache).
import { CustomObjectsApi, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { KindApi } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { withoutManagedFields } from '#runtime/informers';
import type { ObjectCache } from './object-cache';

/** Every object of a kind, in one namespace or in all. */
export type ListManagedObjects = (api: KindApi, namespace: string | undefined) => Promise<ManagedResource[]>;

/** Pages bound the size of each answer: 10,000 objects come in 20 requests, not one. */
const PAGE_SIZE = 500;

export function listFromApiServer(kubeConfig: KubeConfig): ListManagedObjects {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  return async ({ group, version, plural }, namespace) => {
    const items: ManagedResource[] = [];
    let next: string | undefined;
    do {
      const request = { group, version, plural, limit: PAGE_SIZE, _continue: next };
      const page = (await (namespace
        ? custom.listNamespacedCustomObject({ ...request, namespace })
        : custom.listClusterCustomObject(request))) as KubernetesListObject<KubernetesObject>;
      // managedFields is often as large as the rest of the object, and nothing here reads it.
      items.push(...page.items.map((item) => withoutManagedFields(item) as unknown as ManagedResource));
      next = page.metadata?._continue || undefined;
    } while (next);
    return items;
  };
}

/** From the cache when it can answer for the whole kind, else from the API server. */
export function listFromCacheOr(cache: Pick<ObjectCache, 'list'>, fallback: ListManagedObjects): ListManagedObjects {
  return async (api, namespace) => cache.list(api, namespace) ?? fallback(api, namespace);
}
