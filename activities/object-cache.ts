// The worker's view of the managed objects, kept by one informer per kind, so that a reconcile
// pass reads its object from memory instead of the API server. With thousands of resources a
// GET per pass is most of what the API server does for us.
//
// The rule that keeps it safe: a read names the oldest resourceVersion it may act on (that of
// the watch event that woke the workflow, or of its own last write), and the cache answers only
// once it has applied every change up to that revision; a missing object then really is gone.
// Otherwise it waits briefly for its informer, and then reads from the API server, which is
// also what happens whenever it cannot tell: not synced yet, a resourceVersion that is not a
// number, a kind or namespace it does not watch.
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { once } from 'node:events';
import { watchKind, withoutManagedFields, type KindWatch, type WatchKindOptions } from '#runtime/informers';
import type { KindApi, ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { hasSeen } from '#runtime/resource-version';
import type { KubeAccess } from './kube';

/** Where a pass gets its object; `atLeast` is the oldest resourceVersion it may act on. */
export interface ObjectSource {
  read(ref: ResourceRef, atLeast?: string): Promise<ManagedResource | undefined>;
  /** What the cache holds, if there is one, with no promise of freshness (see ObjectCache.peek). */
  peek?(ref: ResourceRef): ManagedResource | undefined;
}

/** Every read straight from the API server: what a worker without a cache does. */
export const apiServerReads = (kube: Pick<KubeAccess, 'get'>): ObjectSource => ({ read: (ref) => kube.get(ref) });

/** How a read was answered, counted for the logs and tests. */
type ReadOutcome = 'cached' | 'cached-after-wait' | 'get:not-watched' | 'get:not-synced' | 'get:unknown-version' | 'get:behind';

interface ObjectCacheOptions {
  /** How long a read waits for its informer to catch up before it asks the API server. */
  waitMs?: number;
}

/** kubectl apply's copy of the whole manifest, as large as the spec; nothing in the worker reads it. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The worker keeps less than the watcher: writes that replace the whole object read it fresh
 * from the API server, so the cached copy only has to serve the pass's decisions.
 */
export function withoutUnusedFields(obj: KubernetesObject): KubernetesObject {
  const trimmed = withoutManagedFields(obj);
  const annotations = trimmed.metadata?.annotations;
  if (!annotations || !(LAST_APPLIED in annotations)) return trimmed;
  const { [LAST_APPLIED]: _dropped, ...kept } = annotations;
  return { ...trimmed, metadata: { ...trimmed.metadata, annotations: kept } };
}

export class ObjectCache implements ObjectSource {
  readonly outcomes = new Map<ReadOutcome, number>();
  private readonly waitMs: number;

  constructor(
    private readonly kube: Pick<KubeAccess, 'get'>,
    /** By `group/kind`. */
    private readonly kinds: ReadonlyMap<string, KindWatch>,
    /** The one namespace the informers watch, or undefined for all. */
    private readonly namespace: string | undefined,
    options: ObjectCacheOptions = {},
  ) {
    this.waitMs = options.waitMs ?? 2_000;
  }

  /** Starts one informer per kind. Reads fall back to the API server until each has listed. */
  static watch(
    kube: Pick<KubeAccess, 'get'>,
    kubeConfig: KubeConfig,
    apis: readonly KindApi[],
    options: ObjectCacheOptions & Pick<WatchKindOptions, 'namespace' | 'onError' | 'onEvent'>,
  ): ObjectCache {
    const kinds = new Map(
      apis.map((api) => [
        kindKey(api),
        watchKind(kubeConfig, api, {
          namespace: options.namespace,
          onError: options.onError,
          // An embedded watcher hears each event once the cache holds it, so the pass it wakes
          // reads that object from memory without waiting.
          onEvent: options.onEvent,
          trim: withoutUnusedFields,
        }),
      ]),
    );
    for (const informer of kinds.values()) void informer.start();
    return new ObjectCache(kube, kinds, options.namespace, options);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.kinds.values()].map((k) => k.stop()));
  }

  async read(ref: ResourceRef, atLeast?: string): Promise<ManagedResource | undefined> {
    const informer = this.covers(ref.namespace) ? this.kinds.get(kindKey(ref)) : undefined;
    const outcome = informer ? await this.freshness(informer, atLeast) : 'get:not-watched';
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
    if (outcome !== 'cached' && outcome !== 'cached-after-wait') return this.kube.get(ref);
    const cached = informer!.get(ref.namespace, ref.name);
    // A copy: callers may change what they read, and the cache must stay what the server sent.
    return cached && (structuredClone(cached) as unknown as ManagedResource);
  }

  /**
   * The object as the cache holds it now, with no promise of freshness; undefined when the
   * cache cannot say (not watching that kind or namespace, not synced) or does not hold it.
   * For reads whose answer the caller can check, such as a dependency that is already usable.
   */
  peek(ref: ResourceRef): ManagedResource | undefined {
    const informer = this.covers(ref.namespace) ? this.kinds.get(kindKey(ref)) : undefined;
    if (!informer || informer.appliedResourceVersion() === undefined) return undefined;
    const cached = informer.get(ref.namespace, ref.name);
    return cached && (structuredClone(cached) as unknown as ManagedResource);
  }

  /**
   * Every object of a kind (in `namespace`, or all that are watched), from memory: what a
   * sweep needs once a minute, which would otherwise be a paged list of 10,000 objects.
   * Undefined when the cache cannot answer for all of them (not watching that kind or that
   * namespace, or not synced); the caller then lists from the API server.
   */
  list(api: Pick<KindApi, 'group' | 'kind'>, namespace: string | undefined): ManagedResource[] | undefined {
    const informer = this.kinds.get(kindKey(api));
    if (!informer || !this.covers(namespace) || informer.appliedResourceVersion() === undefined) return undefined;
    const objects = informer.list().filter((o) => namespace === undefined || (o.metadata?.namespace ?? '') === namespace);
    return structuredClone(objects) as unknown as ManagedResource[];
  }

  /** Whether the informers hold objects of `namespace`: all of them, or '' (cluster-scoped kinds). */
  private covers(namespace: string | undefined): boolean {
    return this.namespace === undefined || this.namespace === namespace || namespace === '';
  }

  private async freshness(informer: KindWatch, atLeast: string | undefined): Promise<ReadOutcome> {
    if (informer.appliedResourceVersion() === undefined) return 'get:not-synced';
    if (atLeast === undefined) return 'cached';
    const signal = AbortSignal.timeout(this.waitMs);
    for (let waited = false; ; waited = true) {
      const seen = hasSeen(informer.appliedResourceVersion(), atLeast);
      if (seen) return waited ? 'cached-after-wait' : 'cached';
      if (seen === undefined) return informer.appliedResourceVersion() === undefined ? 'get:not-synced' : 'get:unknown-version';
      try {
        await once(informer.progress, 'progress', { signal });
      } catch {
        return 'get:behind'; // the informer did not catch up in time
      }
    }
  }
}

const kindKey = (k: { group: string; kind: string }) => `${k.group}/${k.kind}`;
