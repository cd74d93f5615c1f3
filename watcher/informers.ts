// One informer per managed kind, across all namespaces. The informer relists by itself after a
// watch expires (410 Gone); on any other error it stops, so we restart it with backoff. A relist
// replays every object as an add, which is safe because signals are idempotent.
import {
  CustomObjectsApi,
  KubeConfig,
  makeInformer,
  type Informer,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { KindApi } from '../runtime/managed-kind';
import type { ResourceEvent } from '../workflows/api';

export type WatchHandler = (api: KindApi, obj: KubernetesObject, type: ResourceEvent['type']) => void;

export interface InformerHooks {
  onError: (api: KindApi, error: unknown, retryInSeconds: number) => void;
  onConnect?: (api: KindApi) => void;
}

/** Watches one kind in every namespace, or in `namespace` only. */
export function watchKind(
  kubeConfig: KubeConfig,
  api: KindApi,
  namespace: string | undefined,
  handle: WatchHandler,
  hooks: InformerHooks,
): Informer<KubernetesObject> {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const { group, version, plural } = api;
  const list = (
    namespace
      ? () => custom.listNamespacedCustomObject({ group, version, plural, namespace })
      : () => custom.listClusterCustomObject({ group, version, plural })
  ) as () => Promise<KubernetesListObject<KubernetesObject>>;
  const path = namespace ? `/apis/${group}/${version}/namespaces/${namespace}/${plural}` : `/apis/${group}/${version}/${plural}`;
  const informer = makeInformer(kubeConfig, path, list);

  informer.on('add', (obj) => handle(api, obj, 'ADDED'));
  informer.on('update', (obj) => handle(api, obj, 'MODIFIED'));
  informer.on('delete', (obj) => handle(api, obj, 'DELETED'));
  informer.on('connect', () => {
    failures = 0;
    hooks.onConnect?.(api);
  });

  let failures = 0;
  let stopped = false;
  informer.on('error', (error) => {
    if (stopped) return;
    failures += 1;
    const delay = Math.min(2 ** (failures - 1), 30);
    hooks.onError(api, error, delay);
    setTimeout(() => {
      if (!stopped) void informer.start();
    }, delay * 1000);
  });

  const stop = informer.stop.bind(informer);
  informer.stop = async () => {
    stopped = true;
    await stop();
  };
  return informer;
}
