// One watch per target cluster and kind, shared by every Object whose manifest is of that kind
// there: observe reads the target from its cache instead of asking the target's API server, and
// a change there (a hand edit, a status update, a deletion) wakes the Objects that manage the
// changed object within a moment instead of at their next poll. Thousands of Objects wrapping
// ConfigMaps in one cluster cost one watch, not thousands of GETs per poll interval.
import { KubeConfig, Watch, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { watchKind, type KindWatch } from '#runtime/informers';
import type { KindApi } from '#core/managed-kind';
import { hasSeen } from '#runtime/resource-version';
import { PlainObjectApi } from '#runtime/plain-object-api';

/** Identifies one object in one target cluster. */
export interface TargetKey {
  /** ClusterConnection.key: the cluster and credentials. */
  cluster: string;
  apiVersion: string;
  kind: string;
  /** '' for a cluster-scoped kind. */
  namespace: string;
  name: string;
}

/** Called when the watched object changes; the Object's workflow should run a pass. */
type Wake = () => void;

/** Every object of one kind in one namespace ('' for all namespaces, or a cluster-scoped kind). */
export type TargetScope = Omit<TargetKey, 'name'>;

/** Which changed objects of a followed scope wake the follower; all of them when absent. */
type WakesFor = (obj: KubernetesObject) => boolean;

const LIST_PAGE = 500;
/** How long a target cluster that is down may be back before its watches notice. */
const TARGET_WATCH_MAX_RETRY_SECONDS = 5;

/**
 * KubernetesObjectApi knows how to find any kind's resource through discovery (and caches it);
 * a watch needs that resource's collection path, and a client whether the kind is namespaced,
 * which it keeps to itself. Plain, so that the list's items and the watch's events are alike.
 */
export class DiscoveringObjectApi extends PlainObjectApi {
  /** `/api/v1/configmaps`, `/apis/apps/v1/deployments`: every object of the kind, all namespaces. */
  async collectionPath(apiVersion: string, kind: string): Promise<{ path: string; plural: string; namespaced: boolean }> {
    const resource = await this.resource(apiVersion, kind);
    if (!resource) throw new Error(`the target cluster does not serve ${kind} in ${apiVersion}`);
    const prefix = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    return { path: `${prefix}/${resource.name}`, plural: resource.name, namespaced: resource.namespaced };
  }
}

interface SharedWatch {
  watch: KindWatch;
  started: Promise<void>;
}

export class TargetWatches {
  private readonly watches = new Map<string, Promise<SharedWatch>>();
  /** Target → who to wake when it changes (by Object uid: one target may have several Objects). */
  private readonly followers = new Map<string, Map<string, Wake>>();
  /** Target → the resourceVersion our own last write produced, whose echo wakes nobody. */
  private readonly ownWrites = new Map<string, string>();
  /** Targets we asked to delete that the watch may still show: the server answers for them. */
  private readonly ownDeletes = new Set<string>();
  /** Targets with a write or delete of ours on its way → the resourceVersions of the events held meanwhile. */
  private readonly writesInFlight = new Map<string, (string | undefined)[]>();
  /** Scope → who to wake when any object in it changes (a scheduler waiting for a cluster to appear). */
  private readonly scopeFollowers = new Map<string, Map<string, { wake: Wake; wakesFor?: WakesFor }>>();
  /** Kinds (by cluster) whose watch failed and has not been answered since. */
  private readonly failing = new Set<string>();

  /** Cluster key → the one namespace its credentials may read (see confine). */
  private readonly confinedTo = new Map<string, string>();

  constructor(private readonly onError: (what: string, error: unknown, retryInSeconds: number) => void = () => {}) {}

  /**
   * The credentials behind `cluster` may read only `namespace` (a tenant's impersonated
   * identity): that cluster's watches then list and watch that namespace alone, since an
   * all-namespaces watch would be refused and retried forever.
   */
  confine(cluster: string, namespace: string): void {
    this.confinedTo.set(cluster, namespace);
  }

  /**
   * The target as the shared watch holds it: the object, `null` when the synced cache does not
   * have it, or undefined when the cache cannot answer (not synced yet, or it has not seen our
   * own last write), and the caller must ask the API server.
   */
  async cached(key: TargetKey, kubeConfig: KubeConfig): Promise<KubernetesObject | null | undefined> {
    const shared = await this.shared(key, kubeConfig).catch(() => undefined);
    if (!shared) return undefined;
    const applied = shared.watch.appliedResourceVersion();
    if (applied === undefined) return undefined;
    const id = targetId(key);
    const written = this.ownWrites.get(id);
    if (written !== undefined && hasSeen(applied, written) !== true) return undefined;
    const found = shared.watch.get(key.namespace, key.name);
    if (this.ownDeletes.has(id)) {
      if (found) return undefined;
      this.ownDeletes.delete(id);
    }
    // Items of a list carry no apiVersion or kind (watch events do): status shows whole objects.
    return found ? { ...found, apiVersion: key.apiVersion, kind: key.kind } : null;
  }

  /**
   * Every object of the scope as the shared watch holds it, or undefined when the cache cannot
   * answer yet (not synced), and the caller must list from the API server.
   */
  async cachedList(scope: TargetScope, kubeConfig: KubeConfig): Promise<KubernetesObject[] | undefined> {
    const shared = await this.shared(scope, kubeConfig).catch(() => undefined);
    if (!shared || shared.watch.appliedResourceVersion() === undefined) return undefined;
    return shared.watch
      .list()
      .filter((o) => !scope.namespace || o.metadata?.namespace === scope.namespace)
      .map((o) => ({ ...o, apiVersion: scope.apiVersion, kind: scope.kind }));
  }

  /**
   * Wakes `wake` whenever an object of the scope for which `wakesFor` holds changes, appears or
   * goes, until `unfollowScope`: what a list-based decision (which clusters match a selector,
   * which children an owner has) needs to be taken again. Starts the kind's watch.
   */
  followScope(scope: TargetScope, kubeConfig: KubeConfig, followerUid: string, wake: Wake, wakesFor?: WakesFor): void {
    const id = scopeId(scope);
    let followers = this.scopeFollowers.get(id);
    if (!followers) this.scopeFollowers.set(id, (followers = new Map()));
    followers.set(followerUid, { wake, wakesFor });
    void this.shared(scope, kubeConfig).catch(() => undefined);
  }

  unfollowScope(scope: TargetScope, followerUid: string): void {
    const id = scopeId(scope);
    const followers = this.scopeFollowers.get(id);
    followers?.delete(followerUid);
    if (followers?.size === 0) this.scopeFollowers.delete(id);
  }

  /** Wakes `wake` whenever the target changes, from now on, until `unfollow`. Starts the kind's watch. */
  follow(key: TargetKey, kubeConfig: KubeConfig, objectUid: string, wake: Wake): void {
    const id = targetId(key);
    let followers = this.followers.get(id);
    if (!followers) this.followers.set(id, (followers = new Map()));
    followers.set(objectUid, wake);
    void this.shared(key, kubeConfig).catch(() => undefined);
  }

  unfollow(key: TargetKey, objectUid: string): void {
    const id = targetId(key);
    const followers = this.followers.get(id);
    followers?.delete(objectUid);
    if (followers?.size === 0) {
      this.followers.delete(id);
      this.ownWrites.delete(id);
      this.ownDeletes.delete(id);
    }
  }

  /**
   * Says a write of ours to the target is on its way. Its echo may come back on the watch
   * before the write's answer does; until `wrote`, the target's events are held instead of
   * waking anyone, and `wrote` then wakes for those that were not our write.
   */
  writing(key: TargetKey): void {
    this.writesInFlight.set(targetId(key), []);
  }

  /**
   * Records the resourceVersion of our own write to the target (undefined when it failed), so
   * its watch echo wakes nobody.
   */
  wrote(key: TargetKey, resourceVersion: string | undefined): void {
    const id = targetId(key);
    if (resourceVersion) this.ownWrites.set(id, resourceVersion);
    const held = this.writesInFlight.get(id);
    this.writesInFlight.delete(id);
    if (held?.some((version) => version !== resourceVersion)) this.wakeFollowers(id);
  }

  /**
   * Records that we asked to delete the target: until the watch no longer holds it, `cached`
   * sends the caller to the server, so the pass right after a delete sees it gone (a ConfigMap
   * goes at once) instead of waiting a poll interval on the watch's older copy. Its watch
   * events (DELETED, or the deletionTimestamp) may come before the answer: held until `deleted`.
   */
  deleting(key: TargetKey): void {
    const id = targetId(key);
    this.ownDeletes.add(id);
    this.writesInFlight.set(id, []);
  }

  /**
   * The delete `deleterUid` asked for answered. When it said the target is gone, the events held
   * meanwhile were its echo, and the deleter learns as much from the answer: it is not woken (a
   * wake-up would only start one more pass, or a new workflow, to find its object gone). Other
   * followers are. Still deleting, or failed: every follower wakes, as for any change.
   */
  deleted(key: TargetKey, deleterUid: string, gone: boolean): void {
    const id = targetId(key);
    const held = this.writesInFlight.get(id);
    this.writesInFlight.delete(id);
    if (!held?.length) return;
    for (const [uid, wake] of this.followers.get(id) ?? []) if (!gone || uid !== deleterUid) wake();
  }

  async stop(): Promise<void> {
    const watches = await Promise.allSettled(this.watches.values());
    await Promise.all(watches.map((w) => (w.status === 'fulfilled' ? w.value.watch.stop() : undefined)));
    this.watches.clear();
  }

  private shared(key: Pick<TargetKey, 'cluster' | 'apiVersion' | 'kind'>, kubeConfig: KubeConfig): Promise<SharedWatch> {
    const id = kindId(key);
    let shared = this.watches.get(id);
    if (!shared) {
      shared = this.start(key, kubeConfig);
      this.watches.set(id, shared);
      // A kind the cluster does not serve yet (its CRD may come later) is looked up again next time.
      shared.catch(() => this.watches.delete(id));
    }
    return shared;
  }

  private async start(key: Pick<TargetKey, 'cluster' | 'apiVersion' | 'kind'>, kubeConfig: KubeConfig): Promise<SharedWatch> {
    const objects = DiscoveringObjectApi.forConfig(kubeConfig);
    const collection = await objects.collectionPath(key.apiVersion, key.kind);
    const { plural } = collection;
    const confined = collection.namespaced ? this.confinedTo.get(key.cluster) : undefined;
    const path = confined === undefined ? collection.path : collection.path.replace(/\/([^/]+)$/, `/namespaces/${confined}/$1`);
    const [group, version] = key.apiVersion.includes('/') ? key.apiVersion.split('/') : ['', key.apiVersion];
    const api: KindApi = {
      group: group!,
      version: version!,
      kind: key.kind,
      plural,
      singular: '',
      shortNames: [],
      categories: [],
      description: '',
    };
    const watch = watchKind(kubeConfig, api, {
      path,
      source: {
        list: (continueToken?: string) =>
          objects.list(
            key.apiVersion,
            key.kind,
            confined,
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            LIST_PAGE,
            continueToken,
          ) as Promise<KubernetesListObject<KubernetesObject>>,
        watch: new Watch(kubeConfig),
      },
      onEvent: (_api, obj) => this.changed(key, obj),
      onError: (_api, error, retryIn) => {
        this.onError(`${key.kind} (${key.apiVersion})`, error, retryIn);
        this.reachable(key, false);
      },
      onEstablished: () => this.reachable(key, true),
      // One connection attempt per kind and cluster: cheap, and a cluster that is back is
      // noticed (and its Objects recover) within seconds.
      maxRetrySeconds: TARGET_WATCH_MAX_RETRY_SECONDS,
    });
    const started = watch.start();
    return { watch, started };
  }

  private changed(kindOf: Pick<TargetKey, 'cluster' | 'apiVersion' | 'kind'>, obj: KubernetesObject): void {
    const key: TargetKey = { ...kindOf, namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
    for (const scope of [
      { ...kindOf, namespace: key.namespace },
      { ...kindOf, namespace: '' },
    ]) {
      for (const { wake, wakesFor } of this.scopeFollowers.get(scopeId(scope))?.values() ?? []) if (!wakesFor || wakesFor(obj)) wake();
      if (!key.namespace) break;
    }
    const id = targetId(key);
    if (!this.followers.has(id)) return;
    const held = this.writesInFlight.get(id);
    if (held) return void held.push(obj.metadata?.resourceVersion);
    // The echo of our own apply: the pass that wrote it already knows what it wrote.
    if (obj.metadata?.resourceVersion !== undefined && obj.metadata.resourceVersion === this.ownWrites.get(id)) return;
    this.wakeFollowers(id);
  }

  private wakeFollowers(id: string): void {
    for (const wake of this.followers.get(id)?.values() ?? []) wake();
  }

  /**
   * A kind's watch failed, or is answered again after failing. Either way every Object and
   * owner following that kind there is woken once: when the cluster goes down, so their passes
   * find out (Ready=False with the connection error) now rather than at their next poll; when
   * it is back, so they recover now rather than at the end of their backoff. Only changes
   * wake: the watch's retries while the cluster stays down wake nobody.
   */
  private reachable(kindOf: Pick<TargetKey, 'cluster' | 'apiVersion' | 'kind'>, answered: boolean): void {
    const id = kindId(kindOf);
    if (answered !== this.failing.has(id)) return;
    if (answered) this.failing.delete(id);
    else this.failing.add(id);
    const prefix = `${id}|`;
    for (const [target, followers] of this.followers) if (target.startsWith(prefix)) for (const wake of followers.values()) wake();
    for (const [scope, followers] of this.scopeFollowers) if (scope.startsWith(prefix)) for (const { wake } of followers.values()) wake();
  }
}

const scopeId = (scope: TargetScope) => `${kindId(scope)}|${scope.namespace}|*`;

const kindId = (key: Pick<TargetKey, 'cluster' | 'apiVersion' | 'kind'>) => `${key.cluster}|${key.apiVersion}|${key.kind}`;
const targetId = (key: TargetKey) => `${kindId(key)}|${key.namespace}|${key.name}`;
