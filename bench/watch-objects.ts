// Watches the managed objects of a benchmark run, ours or a peer's, through informers: the
// objects as last seen, and when each was first seen Ready=True. Timestamps are taken as the
// watch event arrives, so they trail the status write by the watch's delivery time.
import { CustomObjectsApi, KubeConfig, makeInformer, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';

interface WatchedKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
}

/** Where to watch: one namespace or the whole cluster, optionally narrowed by a label selector. */
interface WatchScope {
  namespace?: string;
  labelSelector?: string;
}

export interface ManagedObject extends KubernetesObject {
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

export interface WatchedObjects {
  /** The objects as last seen, by `Kind/name`. */
  current: Map<string, ManagedObject>;
  /** When each object was first seen at all (ms since the epoch), by `Kind/name`. */
  seenAt: Map<string, number>;
  /** When each object was first seen Ready=True (ms since the epoch), by `Kind/name`. */
  readyAt: Map<string, number>;
  /** When each object was seen deleted from the API server (ms since the epoch), by `Kind/name`. */
  goneAt: Map<string, number>;
  /** Resolves once `done()` holds; it is checked now and after every watch event. */
  waitFor(done: () => boolean, timeoutMs: number): Promise<void>;
  /** The objects still there, with their conditions: for a timeout's message. */
  describe(): string;
  stop(): Promise<void>;
}

export const keyOfObject = (kind: string, name: string): string => `${kind}/${name}`;

function isReady(obj: ManagedObject): boolean {
  return obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export async function watchObjects(kubeconfigPath: string, kinds: readonly WatchedKind[], scope: WatchScope = {}): Promise<WatchedObjects> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const current = new Map<string, ManagedObject>();
  const seenAt = new Map<string, number>();
  const readyAt = new Map<string, number>();
  const goneAt = new Map<string, number>();
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const check of [...waiters]) check();
  };
  const { namespace, labelSelector } = scope;
  let stopped = false;
  const informers = kinds.map(({ group, version, kind, plural }) => {
    const list = () =>
      (namespace
        ? custom.listNamespacedCustomObject({ group, version, namespace, plural, labelSelector })
        : custom.listClusterCustomObject({ group, version, plural, labelSelector })) as Promise<KubernetesListObject<ManagedObject>>;
    const path = `/apis/${group}/${version}${namespace ? `/namespaces/${namespace}` : ''}/${plural}`;
    const informer = makeInformer<ManagedObject>(kubeConfig, path, list, labelSelector);
    const seen = (obj: ManagedObject) => {
      const key = keyOfObject(kind, obj.metadata?.name ?? '');
      const now = Date.now();
      current.set(key, obj);
      if (!seenAt.has(key)) seenAt.set(key, now);
      if (isReady(obj) && !readyAt.has(key)) readyAt.set(key, now);
      changed();
    };
    informer.on('add', seen);
    informer.on('update', seen);
    informer.on('delete', (obj) => {
      const key = keyOfObject(kind, obj.metadata?.name ?? '');
      current.delete(key);
      goneAt.set(key, Date.now());
      changed();
    });
    // On an error the informer stops; started again, it relists and reports what vanished meanwhile.
    informer.on('error', () => {
      if (!stopped) setTimeout(() => void (stopped || informer.start()), 1_000);
    });
    return informer;
  });
  await Promise.all(informers.map((informer) => informer.start()));
  return {
    current,
    seenAt,
    readyAt,
    goneAt,
    waitFor(done, timeoutMs) {
      return new Promise((resolveWait, reject) => {
        // Unref'd: a wait abandoned after a failed kubectl must not keep the process alive.
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs / 1000}s`));
        }, timeoutMs).unref();
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolveWait();
        };
        waiters.add(check);
        check();
      });
    },
    describe: () => describeObjects(current),
    async stop() {
      stopped = true;
      await Promise.all(informers.map((informer) => informer.stop()));
    },
  };
}

function describeObjects(objects: Map<string, ManagedObject>): string {
  if (objects.size === 0) return 'None are left.';
  return [...objects]
    .map(([key, obj]) => {
      const conditions = (obj.status?.conditions ?? []).map(
        (c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})` : ''}`,
      );
      const deleting = obj.metadata?.deletionTimestamp ? ' deleting' : '';
      return `${key}${deleting}: ${conditions.join(', ') || 'no conditions'}`;
    })
    .join('; ');
}
