// A managed resource's hands in a target cluster, for every kind that manages objects there
// (provider-kubernetes' Object, a KubernetesApplicationResource and the Secrets it propagates).
// Reads come from one shared watch per cluster and kind (target-watches.ts), which also wakes
// the resource when what it read changes; writes are server-side applies with the resource's
// own field manager, forced for the fields it names, so it never fights other controllers over
// fields it does not name, and strict, so a field the target does not know fails the apply
// (strict-apply.ts) instead of vanishing; drift is decided without writing (up-to-date.ts); every call is
// bounded and classified (calls.ts). Clients, watches and drift verdicts are per worker, so
// all kinds on one cluster share them.
import { type KubeConfig, type KubernetesObject, type KubernetesObjectApi } from '@kubernetes/client-node';
import { createLogger } from '#runtime/logger';
import type { ManagedResource } from '#core/managed-resource';
import type { ClusterConnection } from '../cluster-connection';
import { TargetWatches, type TargetKey } from '../target-watches';
import { TargetCalls } from './calls';
import { StrictApplyObjectApi } from './strict-apply';
import { describeTarget, fieldManagerOf, targetKeyOf, type DesiredObject } from './target';
import { UpToDateCheck } from './up-to-date';

/** The managed resource on whose behalf the calls are made. */
type Owner = ManagedResource<unknown, unknown>;
/** Asks for a pass of the owner's workflow (ConnectContext.wake). */
type WakeOwner = (owner: ManagedResource) => void;

const log = createLogger('remote-cluster');
const watches = new TargetWatches((what, error, retryIn) =>
  log.warn({ what, err: String(error), retryInSeconds: retryIn }, 'watch of target objects failed; retrying'),
);
const upToDateCheck = new UpToDateCheck();
// One client per cluster: it caches discovery (which resource serves a kind), which a client
// per pass would ask the target again for every call.
const clients = new Map<string, StrictApplyObjectApi>();

function clientFor(connection: ClusterConnection): StrictApplyObjectApi {
  let client = clients.get(connection.key);
  if (!client) clients.set(connection.key, (client = StrictApplyObjectApi.forConfig(connection.kubeConfig)));
  return client;
}

export class RemoteCluster {
  private readonly kubeConfig: KubeConfig;
  private readonly api: StrictApplyObjectApi;
  private readonly calls: TargetCalls;

  /** `where` names the cluster in error messages: `target cluster (ProviderConfig "remote-1")`. */
  constructor(
    private readonly connection: ClusterConnection,
    where: string,
    private readonly wake: WakeOwner | undefined,
  ) {
    this.kubeConfig = connection.kubeConfig;
    if (connection.restrictToNamespace !== undefined) watches.confine(connection.key, connection.restrictToNamespace);
    this.api = clientFor(connection);
    this.calls = new TargetCalls(where);
  }

  keyOf(target: DesiredObject | Omit<TargetKey, 'cluster'>): TargetKey {
    return 'metadata' in target ? targetKeyOf(this.connection.key, target) : { cluster: this.connection.key, ...target };
  }

  /**
   * The target from the shared watch, or from the server when the watch cannot answer yet, or
   * when `fresh` asks for the server's answer; its changes wake `owner`.
   *
   * An owner being deleted is released when it finds its target absent, so for such an owner an
   * absent answer is always the server's: the watch of this worker may not yet hold what a pass
   * just before made (on another worker, or before the watch caught up), and a target taken for
   * absent would be left behind for ever. A present answer needs no such check: the delete that
   * follows asks the server anyway, so the common delete costs no read of its own.
   */
  async read(owner: Owner, key: TargetKey, options: { fresh?: boolean } = {}): Promise<KubernetesObject | undefined> {
    const wake = this.wake;
    if (wake) watches.follow(key, this.kubeConfig, owner.metadata.uid, () => wake(owner as ManagedResource));
    if (!options.fresh) {
      const cached = await this.calls.run(`watch ${key.kind} (${key.apiVersion})`, () => watches.cached(key, this.kubeConfig));
      if (cached || (cached === null && !owner.metadata.deletionTimestamp)) return cached ?? undefined;
    }
    return this.calls.run(
      `get ${describeTarget(key)}`,
      () =>
        this.api.read({ apiVersion: key.apiVersion, kind: key.kind, metadata: { name: key.name, namespace: key.namespace || undefined } }),
      () => undefined,
    );
  }

  /**
   * `desired` where the API server will put it: a namespaced kind without a namespace goes to
   * `defaultNamespace` (default, as kubectl does), so that reads look where the object is.
   * Discovery is cached.
   */
  async placed<T extends DesiredObject>(desired: T, defaultNamespace = 'default'): Promise<T> {
    if (desired.metadata.namespace) return desired;
    const namespaced = await this.isNamespaced(desired.apiVersion, desired.kind);
    return namespaced ? { ...desired, metadata: { ...desired.metadata, namespace: defaultNamespace } } : desired;
  }

  /** Whether the cluster serves `kind` per namespace (a ConfigMap) or cluster-wide (a Namespace). Discovery is cached. */
  async isNamespaced(apiVersion: string, kind: string): Promise<boolean> {
    const { namespaced } = await this.calls.run(`find ${kind} (${apiVersion})`, () => this.api.collectionPath(apiVersion, kind));
    return namespaced;
  }

  /**
   * Every object of `scope` from the shared watch of its kind (or, until that has synced, from
   * the server) for which `selects` holds; a change to any object for which `wakesFor` holds
   * wakes `owner`, until `forgetList`. What a collection of targets is observed from.
   */
  async list(
    owner: Owner,
    scope: Omit<TargetKey, 'cluster' | 'name'>,
    selects: (obj: KubernetesObject) => boolean,
    wakesFor: (obj: KubernetesObject) => boolean,
  ): Promise<KubernetesObject[]> {
    const key = { cluster: this.connection.key, ...scope };
    const wake = this.wake;
    if (wake) watches.followScope(key, this.kubeConfig, owner.metadata.uid, () => wake(owner as ManagedResource), wakesFor);
    const cached = await this.calls.run(`watch ${scope.kind} (${scope.apiVersion})`, () => watches.cachedList(key, this.kubeConfig));
    const all =
      cached ??
      (await this.calls.run(
        `list ${scope.kind} (${scope.apiVersion})${scope.namespace ? ` in namespace ${scope.namespace}` : ''}`,
        async () =>
          (await this.api.list(scope.apiVersion, scope.kind, scope.namespace || undefined)).items.map((o) => ({
            ...o,
            apiVersion: scope.apiVersion,
            kind: scope.kind,
          })),
      ));
    return all.filter(selects);
  }

  /** The owner no longer follows the list of `scope` (see list). */
  forgetList(owner: Owner, scope: Omit<TargetKey, 'cluster' | 'name'>): void {
    watches.unfollowScope({ cluster: this.connection.key, ...scope }, owner.metadata.uid);
  }

  /** Whether applying `desired` would change nothing in `live`; asks a dry run only when it must. */
  isUpToDate(owner: Owner, desired: DesiredObject, live: KubernetesObject): Promise<boolean> {
    return upToDateCheck.isUpToDate(verdictId(owner, this.keyOf(desired)), desired, live, () =>
      this.serverSideApply(owner, desired, 'All'),
    );
  }

  /**
   * Applies `desired` with the owner's field manager, and remembers it for the drift check and
   * the watch. Forced unless `claim`: a first apply that must not take fields another manager
   * holds (two owners racing for one new object: the later one gets a conflict, not the object).
   */
  async apply(owner: Owner, desired: DesiredObject, options: { claim?: boolean } = {}): Promise<KubernetesObject> {
    const key = this.keyOf(desired);
    watches.writing(key);
    let applied: KubernetesObject | undefined;
    try {
      applied = await this.serverSideApply(owner, desired, undefined, !options.claim);
    } finally {
      watches.wrote(key, applied?.metadata?.resourceVersion);
    }
    upToDateCheck.recordApply(verdictId(owner, key), desired);
    return applied;
  }

  /**
   * Deletes the target (its dependents as `propagationPolicy` says, Background unless said), and
   * says whether it is gone now: it was already ('already gone'), or the API server removed it at
   * once ('gone': no finalizer or grace period held it), or it is on its way out ('deleting').
   */
  async delete(owner: Owner, target: DesiredObject, propagationPolicy?: 'Orphan' | 'Background' | 'Foreground'): Promise<TargetDeletion> {
    const key = this.keyOf(target);
    watches.deleting(key);
    let outcome: TargetDeletion | undefined;
    try {
      outcome = await this.calls.run(
        `delete ${describeTarget(key)}`,
        async () => deletionOutcome(await this.api.delete(target, undefined, undefined, undefined, undefined, propagationPolicy)),
        () => 'already gone' as const,
      );
      return outcome;
    } finally {
      watches.deleted(key, owner.metadata.uid, outcome === 'gone' || outcome === 'already gone');
    }
  }

  /** Any other bounded, classified call with this cluster's client. */
  run<T>(what: string, call: (api: KubernetesObjectApi) => Promise<T>): Promise<T> {
    return this.calls.run(what, () => call(this.api));
  }

  /** The owner and these targets have parted: stop following them and forget what we knew. */
  release(owner: Owner, keys: readonly TargetKey[]): void {
    for (const key of keys) {
      watches.unfollow(key, owner.metadata.uid);
      upToDateCheck.forget(verdictId(owner, key));
    }
  }

  private serverSideApply(owner: Owner, desired: DesiredObject, dryRun?: 'All', force = true): Promise<KubernetesObject> {
    const what = `${dryRun ? 'dry-run ' : ''}apply ${describeTarget(this.keyOf(desired))} of ${desired.apiVersion}`;
    return this.calls.run(what, () => this.api.serverSideApply(desired, { fieldManager: fieldManagerOf(owner.metadata), force, dryRun }));
  }
}

type TargetDeletion = 'already gone' | 'gone' | 'deleting';

/**
 * What a DELETE answered: a Status of success when the API server removed the object at once.
 * Anything else (the object itself, with a deletionTimestamp while finalizers or a grace period
 * hold it) counts as still deleting: client-node reads every answer as a V1Status, which drops
 * the object's deletionTimestamp, so an object answered cannot be told gone; the next pass looks.
 */
export function deletionOutcome(answer: unknown): 'gone' | 'deleting' {
  const body = answer as { kind?: string; status?: unknown } | undefined;
  return body?.kind === 'Status' && body.status === 'Success' ? 'gone' : 'deleting';
}

/** One drift verdict per owner and target: a resource may apply several objects (a template and its Secrets). */
const verdictId = (owner: Owner, key: TargetKey) => `${owner.metadata.uid}|${key.apiVersion}|${key.kind}|${key.namespace}|${key.name}`;
