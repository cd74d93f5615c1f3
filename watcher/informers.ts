// One informer per managed kind, across all namespaces. The informer relists by itself after a
// watch expires (410 Gone); on any other error it stops, so we restart it with backoff. A relist
// replays every object as an add, which is safe because signals are idempotent.
import { CustomObjectsApi, KubeConfig, makeInformer, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { KindApi } from '../runtime/managed-kind';
import type { ResourceEvent } from '../workflows/api';

export type WatchHandler = (api: KindApi, obj: KubernetesObject, type: ResourceEvent['type']) => void;

export interface InformerHooks {
  onError: (api: KindApi, error: unknown, retryInSeconds: number) => void;
  onConnect?: (api: KindApi) => void;
}

/** What the watcher needs of an informer: start it, and stop it for good. */
export interface KindWatch {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Errors further apart than this start the backoff again from one second. */
const QUIET_PERIOD_MS = 60_000;

/** Watches one kind in every namespace, or in `namespace` only. */
export function watchKind(
  kubeConfig: KubeConfig,
  api: KindApi,
  namespace: string | undefined,
  handle: WatchHandler,
  hooks: InformerHooks,
): KindWatch {
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
  informer.on('connect', () => hooks.onConnect?.(api));

  let failures = 0;
  let lastErrorAt = 0;
  let stopped = false;
  informer.on('error', (error) => {
    if (stopped) return;
    const now = Date.now();
    failures = now - lastErrorAt > QUIET_PERIOD_MS ? 1 : failures + 1;
    lastErrorAt = now;
    const delay = Math.min(2 ** (failures - 1), 30);
    hooks.onError(api, error, delay);
    setTimeout(() => {
      if (!stopped) void informer.start();
    }, delay * 1000);
  });

  return {
    start: () => informer.start(),
    async stop() {
      stopped = true;
      await informer.stop();
    },
  };
}
