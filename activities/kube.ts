// The activities' window onto the control plane's API server: typed, small, and the only place
// that knows @kubernetes/client-node's calling conventions.
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Event,
  type V1Secret,
} from '@kubernetes/client-node';
import type { ClusterKind, ConnectContext, ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import type { ResourceRef } from '#core/managed-kind';
import { loadKubeConfig } from '#runtime/kube-config';
import { PlainObjectApi } from '#runtime/plain-object-api';
import { TargetWatches, type TargetKey, type TargetScope } from '#providers/kubernetes/target-watches';
import { groupOf, type ObjectKey } from '#runtime/references/dependencies';
import { kindFor } from '#providers/registry';

export const FIELD_MANAGER = 'chronoplane';

/** How long a Namespace's labels read from the API server (not from the watch) are reused. */
const NAMESPACE_LABELS_TTL_MS = 10_000;

/** Reads and conflicting writes setFinalizer tries before it gives up (the activity's retry takes over). */
const SET_FINALIZER_ATTEMPTS = 5;

/** How a followed list is recorded among a dependent's followed objects: a name no object can have. */
const WHOLE_SCOPE = '*';

export class KubeAccess implements ConnectContext {
  private readonly custom: ScopedCustomObjects;
  private readonly customObjects: CustomObjectsApi;
  private readonly core: CoreV1Api;
  /** Set by a worker that can signal workflows; see ConnectContext.wake. */
  wake?: (mr: ManagedResource) => void;
  /** Any kind at all, through discovery: for generic references to objects we do not manage. */
  private readonly objects: PlainObjectApi;
  /** Shared watches of the kinds we do not manage that references name (a ConfigMap), once wakes can be sent. */
  private readonly referencedKinds = new TargetWatches();
  /** Dependent uid → what it follows through readControlObject / listControlObjects (JSON TargetKeys, name '*' for a scope). */
  private readonly followed = new Map<string, Set<string>>();
  /** Namespace labels read while the Namespace watch is not synced; see getNamespaceLabels. */
  private readonly namespaceLabels = new Map<string, { labels: Record<string, string> | undefined; expires: number }>();

  constructor(private readonly kubeConfig: KubeConfig) {
    this.customObjects = kubeConfig.makeApiClient(CustomObjectsApi);
    this.custom = new ScopedCustomObjects(this.customObjects);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.objects = PlainObjectApi.forConfig(kubeConfig);
  }

  static fromDefault(): KubeAccess {
    return new KubeAccess(loadKubeConfig());
  }

  async get(ref: ResourceRef): Promise<ManagedResource | undefined> {
    return orUndefinedOn404(() => this.custom.get(target(ref)));
  }

  /** A JSON merge patch of the object (metadata or spec), guarded by its uid. */
  async patch(ref: ResourceRef, uid: string, body: Record<string, unknown>): Promise<ManagedResource> {
    return this.custom.patch(
      { ...target(ref), body: withUidPrecondition(body, uid), fieldManager: FIELD_MANAGER },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /**
   * Replaces the status, guarded by the uid. The status subresource ignores metadata in a merge
   * patch (the API server keeps the stored metadata), so a uid there would guard nothing; a JSON
   * patch's `test` operation runs against the stored object and fails on a successor.
   */
  async patchStatus(ref: ResourceRef, uid: string, status: Record<string, unknown>): Promise<ManagedResource> {
    return this.custom.patchStatus(
      {
        ...target(ref),
        body: [
          { op: 'test', path: '/metadata/uid', value: uid },
          { op: 'add', path: '/status', value: status },
        ],
        fieldManager: FIELD_MANAGER,
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
  }

  /**
   * Sets the object's finalizers, provided it is still exactly the version the caller read:
   * a JSON patch whose `test`s of uid and resourceVersion run against the stored object, so a
   * stale read fails (422) instead of dropping someone else's finalizer. One request, where a
   * GET and a replace would be two.
   */
  async setFinalizersIfUnchanged(ref: ResourceRef, read: ManagedResource, finalizers: string[]): Promise<ManagedResource> {
    return this.custom.patch(
      {
        ...target(ref),
        body: [
          { op: 'test', path: '/metadata/uid', value: read.metadata.uid },
          { op: 'test', path: '/metadata/resourceVersion', value: read.metadata.resourceVersion },
          { op: 'add', path: '/metadata/finalizers', value: finalizers },
        ],
        fieldManager: FIELD_MANAGER,
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
  }

  /**
   * Replaces the object; fails with 409 if it changed since it was read (optimistic locking).
   * Strict field validation: a field the kind does not have fails the write (400) instead of
   * being pruned quietly. `dryRun` asks the API server whether it would take the write.
   */
  async replace(ref: ResourceRef, object: ManagedResource, options: { dryRun?: boolean } = {}): Promise<ManagedResource> {
    return this.custom.replace({
      ...target(ref),
      body: object,
      fieldManager: FIELD_MANAGER,
      fieldValidation: 'Strict',
      ...(options.dryRun ? { dryRun: 'All' } : {}),
    });
  }

  /**
   * Adds (present) or removes one finalizer of any object, by apiVersion and kind. A merge patch
   * carrying the resourceVersion it read, so a concurrent change is never lost (409: read again).
   * False when the object is gone, or is being deleted and would need the finalizer added (the
   * API server takes no new finalizer then).
   */
  async setFinalizer(apiVersion: string, key: ObjectKey, finalizer: string, present: boolean): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const found = await this.getAny(apiVersion, key.kind, key.namespace, key.name);
      if (!found) return false;
      const metadata = found.metadata as { resourceVersion: string; finalizers?: string[]; deletionTimestamp?: string };
      const finalizers = metadata.finalizers ?? [];
      if (finalizers.includes(finalizer) === present) return true;
      if (present && metadata.deletionTimestamp) return false;
      const wanted = present ? [...finalizers, finalizer] : finalizers.filter((f) => f !== finalizer);
      const patch = {
        apiVersion,
        kind: key.kind,
        metadata: { name: key.name, namespace: key.namespace || undefined, resourceVersion: metadata.resourceVersion, finalizers: wanted },
      };
      try {
        await this.objects.patch(patch, undefined, undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch);
        return true;
      } catch (error) {
        if (isStatus(error, 404)) return false;
        if (!isStatus(error, 409) || attempt >= SET_FINALIZER_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * A merge patch of a managed object's annotations (null removes one), with no uid guard: in-use
   * marks belong to the dependent, not to the object's own workflow. With `ifExists`, a missing
   * object is not an error; the result says whether it was there.
   */
  async patchAnnotations(
    ref: ResourceRef,
    annotations: Record<string, string | null>,
    options: { ifExists?: boolean } = {},
  ): Promise<boolean> {
    try {
      await this.custom.patch(
        { ...target(ref), body: { metadata: { annotations } }, fieldManager: FIELD_MANAGER },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      return true;
    } catch (error) {
      if (options.ifExists && isStatus(error, 404)) return false;
      throw error;
    }
  }

  /** Managed objects of one kind in one namespace ('' for a cluster-scoped kind) that carry all of `labels`. */
  async list(group: string, kind: string, namespace: string, labels: Record<string, string>): Promise<ManagedResource[]> {
    const { api } = kindFor(group, kind);
    const labelSelector = Object.entries(labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const request = { group, version: api.version, plural: api.plural, labelSelector: labelSelector || undefined };
    const list = (await (namespace
      ? this.customObjects.listNamespacedCustomObject({ ...request, namespace })
      : this.customObjects.listClusterCustomObject(request))) as { items: ManagedResource[] };
    return list.items;
  }

  /** Any object by apiVersion and kind, or undefined when it (or its kind) does not exist. */
  async getAny(apiVersion: string, kind: string, namespace: string, name: string): Promise<Record<string, unknown> | undefined> {
    try {
      return (await this.objects.read({ apiVersion, kind, metadata: { name, namespace: namespace || undefined } })) as Record<
        string,
        unknown
      >;
    } catch (error) {
      // An unknown kind fails discovery with a plain Error; it will not exist until its CRD does.
      if (isStatus(error, 404) || /Unrecognized API version and kind/.test(String(error))) return undefined;
      throw error;
    }
  }

  /**
   * Like getAny, for an object that `dependent` refers to: the kind is watched (one watch per
   * kind), the answer comes from the watch when it can, and a change to the object wakes the
   * dependent, which may be waiting for a field of it. Without wakes it is a plain read, and a
   * waiting dependent looks again at its next poll.
   */
  async getReferenced(key: ObjectKey, apiVersion: string, dependent: ManagedResource): Promise<Record<string, unknown> | undefined> {
    const wake = this.wake;
    if (wake) {
      const target = referencedTarget(key, apiVersion);
      this.referencedKinds.follow(target, this.kubeConfig, dependent.metadata.uid, () => wake(dependent));
      const cached = await this.referencedKinds.cached(target, this.kubeConfig);
      if (cached !== undefined) return (cached ?? undefined) as Record<string, unknown> | undefined;
    }
    return this.getAny(apiVersion, key.kind, key.namespace, key.name);
  }

  /** The dependent no longer waits for changes to `key`. */
  forgetReferenced(key: ObjectKey, apiVersion: string, dependentUid: string): void {
    this.referencedKinds.unfollow(referencedTarget(key, apiVersion), dependentUid);
  }

  async readControlObject(key: ControlObjectKey, dependent: ManagedResource): Promise<Record<string, unknown> | undefined> {
    if (this.wake)
      this.followedBy(dependent.metadata.uid).add(
        JSON.stringify(referencedTarget({ group: groupOf(key.apiVersion), ...key }, key.apiVersion)),
      );
    return this.getReferenced({ group: groupOf(key.apiVersion), ...key }, key.apiVersion, dependent);
  }

  async listControlObjects(
    scope: Omit<ControlObjectKey, 'name'>,
    dependent: ManagedResource,
    wakesFor?: (obj: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>[]> {
    const target: TargetScope = { cluster: 'control', ...scope };
    const wake = this.wake;
    if (wake) {
      this.followedBy(dependent.metadata.uid).add(JSON.stringify({ ...target, name: WHOLE_SCOPE }));
      this.referencedKinds.followScope(target, this.kubeConfig, dependent.metadata.uid, () => wake(dependent), wakesFor as never);
      const cached = await this.referencedKinds.cachedList(target, this.kubeConfig);
      if (cached) return cached as unknown as Record<string, unknown>[];
    }
    const listed = await this.objects.list(scope.apiVersion, scope.kind, scope.namespace || undefined);
    return listed.items.map((o) => ({ ...o, apiVersion: scope.apiVersion, kind: scope.kind })) as unknown as Record<string, unknown>[];
  }

  forgetControlObjects(dependentUid: string, only?: Omit<ControlObjectKey, 'name'> & { name?: string }): void {
    const followed = this.followed.get(dependentUid);
    for (const entry of followed ?? []) {
      const { name, ...scope } = JSON.parse(entry) as TargetKey;
      const onlyName = only?.name ?? WHOLE_SCOPE;
      if (
        only &&
        (only.apiVersion !== scope.apiVersion || only.kind !== scope.kind || only.namespace !== scope.namespace || onlyName !== name)
      ) {
        continue;
      }
      if (name === WHOLE_SCOPE) this.referencedKinds.unfollowScope(scope, dependentUid);
      else this.referencedKinds.unfollow({ ...scope, name }, dependentUid);
      followed!.delete(entry);
    }
    if (followed?.size === 0) this.followed.delete(dependentUid);
  }

  private followedBy(dependentUid: string): Set<string> {
    let followed = this.followed.get(dependentUid);
    if (!followed) this.followed.set(dependentUid, (followed = new Set()));
    return followed;
  }

  async stopWatches(): Promise<void> {
    await this.referencedKinds.stop();
  }

  async createEvent(event: CoreV1Event): Promise<void> {
    await this.core.createNamespacedEvent({ namespace: event.metadata.namespace!, body: event });
  }

  async getClusterObject(api: ClusterKind, name: string): Promise<Record<string, unknown> | undefined> {
    return orUndefinedOn404(() =>
      this.customObjects.getClusterCustomObject({ group: api.group, version: api.version, plural: api.plural, name }),
    );
  }

  async getNamespacedObject(api: ClusterKind, namespace: string, name: string): Promise<Record<string, unknown> | undefined> {
    return orUndefinedOn404(() =>
      this.customObjects.getNamespacedCustomObject({ group: api.group, version: api.version, plural: api.plural, namespace, name }),
    );
  }

  /**
   * From the shared watch of Namespaces once it has synced (no API read per pass); until then,
   * or where it cannot run, a read kept for NAMESPACE_LABELS_TTL_MS. A relabelled namespace
   * takes effect at the next pass after the watch sees it.
   */
  async getNamespaceLabels(namespace: string): Promise<Record<string, string> | undefined> {
    const watched = await this.referencedKinds.cached(namespaceTarget(namespace), this.kubeConfig);
    if (watched !== undefined) return watched === null ? undefined : (watched.metadata?.labels ?? {});
    const now = Date.now();
    const hit = this.namespaceLabels.get(namespace);
    if (hit && hit.expires > now) return hit.labels;
    const found = await orUndefinedOn404(() => this.core.readNamespace({ name: namespace }));
    const labels = found ? (found.metadata?.labels ?? {}) : undefined;
    this.namespaceLabels.set(namespace, { labels, expires: now + NAMESPACE_LABELS_TTL_MS });
    return labels;
  }

  async getSecretValue(namespace: string, name: string, key: string): Promise<string | undefined> {
    const secret = await orUndefinedOn404(() => this.core.readNamespacedSecret({ namespace, name }));
    const encoded = secret?.data?.[key];
    return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
  }

  /** Connection Secrets (activities/connection-secret.ts); a missing one is undefined. */
  async readSecret(namespace: string, name: string): Promise<V1Secret | undefined> {
    return orUndefinedOn404(() => this.core.readNamespacedSecret({ namespace, name }));
  }

  /** Fails with 409 when one of that name appeared since it was found missing. */
  async createSecret(namespace: string, secret: V1Secret): Promise<V1Secret> {
    return this.core.createNamespacedSecret({ namespace, body: secret, fieldManager: FIELD_MANAGER });
  }

  /** Fails with 409 when it changed since it was read (its metadata carries the resourceVersion). */
  async replaceSecret(namespace: string, name: string, secret: V1Secret): Promise<V1Secret> {
    return this.core.replaceNamespacedSecret({ namespace, name, body: secret, fieldManager: FIELD_MANAGER });
  }
}

type Target = ReturnType<typeof target>;
type Options = Parameters<CustomObjectsApi['patchNamespacedCustomObject']>[1];
type Write = { body: object; fieldManager: string; fieldValidation?: string; dryRun?: string };

/**
 * CustomObjectsApi's namespaced and cluster-scoped calls behind one face, so every caller works
 * for both: a ref whose namespace is '' names a cluster-scoped object (provider-kubernetes' Object).
 */
class ScopedCustomObjects {
  constructor(private readonly api: CustomObjectsApi) {}

  get(t: Target): Promise<ManagedResource> {
    return t.namespace ? this.api.getNamespacedCustomObject(t) : this.api.getClusterCustomObject(t);
  }

  patch(t: Target & Write, options?: Options): Promise<ManagedResource> {
    return t.namespace ? this.api.patchNamespacedCustomObject(t, options) : this.api.patchClusterCustomObject(t, options);
  }

  patchStatus(t: Target & Write, options?: Options): Promise<ManagedResource> {
    return t.namespace ? this.api.patchNamespacedCustomObjectStatus(t, options) : this.api.patchClusterCustomObjectStatus(t, options);
  }

  replace(t: Target & Write): Promise<ManagedResource> {
    return t.namespace ? this.api.replaceNamespacedCustomObject(t) : this.api.replaceClusterCustomObject(t);
  }
}

/** The served version and plural come from the registry, never from durable workflow state. */
function target(ref: ResourceRef) {
  const { api } = kindFor(ref.group, ref.kind);
  return { group: api.group, version: api.version, namespace: ref.namespace, plural: api.plural, name: ref.name };
}

/**
 * A merge patch that carries metadata.uid makes the API server reject it (422: metadata.uid is
 * immutable) when the object was deleted and recreated under the same name, so a stale workflow
 * never writes to its successor.
 */
function withUidPrecondition(body: Record<string, unknown>, uid: string): Record<string, unknown> {
  const metadata = (body.metadata as Record<string, unknown> | undefined) ?? {};
  return { ...body, metadata: { ...metadata, uid } };
}

export function isStatus(error: unknown, code: number): boolean {
  return error instanceof ApiException && error.code === code;
}

/**
 * Whether the API server refused a write for its size: its own request limit (413, 3 MiB) or
 * etcd's (1.5 MiB by default), which it passes on as "etcdserver: request is too large".
 */
export function isTooLarge(error: unknown): boolean {
  if (!(error instanceof ApiException)) return false;
  return (
    error.code === 413 ||
    /request is too large|entity too large/i.test(typeof error.body === 'string' ? error.body : JSON.stringify(error.body ?? ''))
  );
}

async function orUndefinedOn404<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isStatus(error, 404)) return undefined;
    throw error;
  }
}

/** The control cluster's own objects, in TargetWatches' terms. */
function referencedTarget(key: ObjectKey, apiVersion: string): TargetKey {
  return { cluster: 'control', apiVersion, kind: key.kind, namespace: key.namespace, name: key.name };
}

/** A Namespace of the control cluster, in TargetWatches' terms (cluster-scoped: namespace ''). */
function namespaceTarget(name: string): TargetKey {
  return { cluster: 'control', apiVersion: 'v1', kind: 'Namespace', namespace: '', name };
}
