// One informer per managed kind, across all namespaces or one, for the watcher (which turns its
// events into signals) and the worker (which reads objects from its cache). The informer
// relists by itself after a watch expires (410 Gone); on any other error it stops, so we
// restart it with backoff. A relist replays every object as an add, which is safe because
// signals are idempotent.
//
// Objects are trimmed before they enter the cache: managedFields alone is often as large as the
// rest of the object, and with thousands of objects the cache is most of a process's heap.
import { EventEmitter } from 'node:events';
import { CustomObjectsApi, KubeConfig, ListWatch, Watch, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { isClusterScoped, type KindApi } from '#core/managed-kind';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type WatchHandler = (api: KindApi, obj: KubernetesObject, type: WatchEventType) => void;
/** Returns the object as it should be kept: a copy without what nobody reads. Never mutates. */
export type Trim = (obj: KubernetesObject) => KubernetesObject;

export interface WatchKindOptions {
  /** One namespace; all namespaces when undefined. */
  namespace?: string;
  onEvent?: WatchHandler;
  onError: (api: KindApi, error: unknown, retryInSeconds: number) => void;
  onConnect?: (api: KindApi) => void;
  /**
   * The server answered a watch request: the kind is being watched again. ListWatch's own
   * 'connect' comes before it even tries, so it cannot tell a cluster that is back from one
   * that is still down.
   */
  onEstablished?: (api: KindApi) => void;
  /** The longest wait between two attempts to restart a failed watch (default 30 s). */
  maxRetrySeconds?: number;
  /** Defaults to dropping managedFields only. */
  trim?: Trim;
  /** Where objects come from: the API server, unless a test plays the server in-process. */
  source?: ListAndWatch;
  /**
   * The collection to watch, for kinds that are not custom resources of the control plane
   * (`/api/v1/configmaps` in a target cluster); pass `source` too.
   */
  path?: string;
}

export interface ListAndWatch {
  /** One page of the list, from `continueToken` on. */
  list: (continueToken?: string) => Promise<KubernetesListObject<KubernetesObject>>;
  watch: Pick<Watch, 'watch'>;
}

/** An informer and its cache: start it, read from it, stop it for good. */
export interface KindWatch {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The object as the informer last saw it (trimmed), or undefined if it has not seen it. */
  get(namespace: string, name: string): KubernetesObject | undefined;
  /** Every object the informer holds (trimmed), as it last saw them. */
  list(): readonly KubernetesObject[];
  /**
   * The resourceVersion up to which the cache has applied every change of this kind, or
   * undefined while it is not watching: before its first list, during a relist, and from an
   * error until the restarted watch is open again.
   */
  appliedResourceVersion(): string | undefined;
  /** Emits 'progress' whenever appliedResourceVersion may have moved on. */
  readonly progress: EventEmitter;
}

/** Objects per list page. */
const LIST_PAGE = 500;

/** Errors further apart than this start the backoff again from one second. */
const QUIET_PERIOD_MS = 60_000;

export function watchKind(kubeConfig: KubeConfig, api: KindApi, options: WatchKindOptions): KindWatch {
  const { trim = withoutManagedFields } = options;
  // A cluster-scoped kind has no namespace to narrow to: its objects are watched wherever the
  // process watches at all.
  const namespace = isClusterScoped(api) ? undefined : options.namespace;
  const { group, version, plural } = api;
  const path =
    options.path ?? (namespace ? `/apis/${group}/${version}/namespaces/${namespace}/${plural}` : `/apis/${group}/${version}/${plural}`);
  const source = options.source ?? apiServer(kubeConfig, api, namespace);

  const progress = new EventEmitter();
  // Every pass that waits for the cache listens here for a moment; there may be thousands.
  progress.setMaxListeners(0);
  let watching = false;
  const watch = trimmingWatch(
    source.watch,
    trim,
    () => {
      // ListWatch calls watch() once a list (if it needed one) is applied: the cache is current.
      watching = true;
      progress.emit('progress');
    },
    () => progress.emit('progress'),
    () => options.onEstablished?.(api),
  );
  const informer = new ListWatch<KubernetesObject>(path, watch as Watch, () => listTrimmed(source, trim), false);

  const { onEvent } = options;
  if (onEvent) {
    informer.on('add', (obj) => onEvent(api, obj, 'ADDED'));
    informer.on('update', (obj) => onEvent(api, obj, 'MODIFIED'));
    informer.on('delete', (obj) => onEvent(api, obj, 'DELETED'));
  }
  informer.on('connect', () => options.onConnect?.(api));

  let failures = 0;
  let lastErrorAt = 0;
  let stopped = false;
  informer.on('error', (error) => {
    watching = false;
    if (stopped) return;
    const now = Date.now();
    failures = now - lastErrorAt > QUIET_PERIOD_MS ? 1 : failures + 1;
    lastErrorAt = now;
    const delay = Math.min(2 ** (failures - 1), options.maxRetrySeconds ?? 30);
    options.onError(api, error, delay);
    setTimeout(() => {
      if (!stopped) void informer.start();
    }, delay * 1000);
  });

  return {
    start: () => informer.start(),
    async stop() {
      stopped = true;
      watching = false;
      await informer.stop();
    },
    get: (ns, name) => informer.get(name, ns || undefined),
    list: () => informer.list(),
    // Empty while ListWatch relists after a 410, so that is "not watching" too.
    appliedResourceVersion: () => (watching && informer.latestResourceVersion()) || undefined,
    progress,
  };
}

function apiServer(kubeConfig: KubeConfig, api: KindApi, namespace: string | undefined): ListAndWatch {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const { group, version, plural } = api;
  const list = (
    namespace
      ? (_continue?: string) => custom.listNamespacedCustomObject({ group, version, plural, namespace, limit: LIST_PAGE, _continue })
      : (_continue?: string) => custom.listClusterCustomObject({ group, version, plural, limit: LIST_PAGE, _continue })
  ) as ListAndWatch['list'];
  return { list, watch: new Watch(kubeConfig) };
}

/**
 * Lists page by page, trimming each page before fetching the next: a single list of 10,000
 * objects would hold every untrimmed object (and the response text) in memory at once, and
 * V8 keeps the heap it grew to. All pages come from one snapshot, at the first page's version.
 */
async function listTrimmed(source: ListAndWatch, trim: Trim): Promise<KubernetesListObject<KubernetesObject>> {
  const first = await source.list();
  const items = first.items.map(trim);
  for (let token = first.metadata?._continue; token;) {
    const page = await source.list(token);
    for (const item of page.items) items.push(trim(item));
    token = page.metadata?._continue;
  }
  return { ...first, metadata: { resourceVersion: first.metadata?.resourceVersion }, items };
}

/**
 * A watch whose objects are trimmed before ListWatch stores them, and that reports when it
 * opens (`onOpen`), when the server has answered it (`onEstablished`) and after each event is
 * applied (`onApplied`). ListWatch builds its own plain Watch in makeInformer, so this is how a
 * transform gets in front of its cache.
 */
function trimmingWatch(
  inner: Pick<Watch, 'watch'>,
  trim: Trim,
  onOpen: () => void,
  onApplied: () => void,
  onEstablished: () => void,
): Pick<Watch, 'watch'> {
  return {
    async watch(path, queryParams, callback, done) {
      onOpen();
      // Watch.watch resolves once the request is answered or has failed; a failure has called
      // `done` with its error by then.
      let failed = false;
      const controller = await inner.watch(
        path,
        queryParams,
        (phase, obj: KubernetesObject, raw) => {
          const isObject = phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED';
          // ListWatch's handler is async; it records the event's resourceVersion only once the
          // cache holds the object, so "applied" is read after it settles.
          void Promise.resolve(callback(phase, isObject ? trim(obj) : obj, raw)).then(onApplied);
        },
        (error) => {
          if (error) failed = true;
          done(error);
        },
      );
      if (!failed) onEstablished();
      return controller;
    },
  };
}

/** managedFields: server-side apply's bookkeeping, which no reader of ours needs. */
export function withoutManagedFields(obj: KubernetesObject): KubernetesObject {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
