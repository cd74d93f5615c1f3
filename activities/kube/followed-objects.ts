// The control cluster's objects that a managed resource reads but does not own (the ConfigMap a
// reference names, a KubernetesApplicationResource's source Secrets, the clusters a scheduler
// picks from), followed for it: one shared watch per kind answers the reads, and a change wakes
// the dependents that read the object until they forget it. Where nothing can wake, a plain read.
import type { KubeConfig } from '@kubernetes/client-node';
import type { ConnectContext, ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import type { TargetKey, TargetScope, TargetWatches } from '#providers/kubernetes/target-watches';
import { groupOf, type ObjectKey } from '#runtime/references/dependencies';
import type { AnyObjects } from './any-objects';

/** How a followed list is recorded among a dependent's followed objects: a name no object can have. */
const WHOLE_SCOPE = '*';

/** The wake to follow with, read at each call: a worker sets it once it can signal workflows. */
type WakeSource = () => ConnectContext['wake'];

export class FollowedObjects {
  /** Dependent uid → what it follows through readControlObject / listControlObjects (JSON TargetKeys, name '*' for a scope). */
  private readonly followed = new Map<string, Set<string>>();

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly watches: TargetWatches,
    private readonly anyObjects: AnyObjects,
    private readonly wakeSource: WakeSource,
  ) {}

  /**
   * Like AnyObjects.get, for an object that `dependent` refers to: the kind is watched (one watch
   * per kind), the answer comes from the watch when it can, and a change to the object wakes the
   * dependent, which may be waiting for a field of it. Without wakes it is a plain read, and a
   * waiting dependent looks again at its next poll.
   */
  async getReferenced(key: ObjectKey, apiVersion: string, dependent: ManagedResource): Promise<Record<string, unknown> | undefined> {
    const wake = this.wakeSource();
    if (wake) {
      const target = referencedTarget(key, apiVersion);
      this.watches.follow(target, this.kubeConfig, dependent.metadata.uid, () => wake(dependent));
      const cached = await this.watches.cached(target, this.kubeConfig);
      if (cached !== undefined) return (cached ?? undefined) as Record<string, unknown> | undefined;
    }
    return this.anyObjects.get(apiVersion, key.kind, key.namespace, key.name);
  }

  /** The dependent no longer waits for changes to `key`. */
  forgetReferenced(key: ObjectKey, apiVersion: string, dependentUid: string): void {
    this.watches.unfollow(referencedTarget(key, apiVersion), dependentUid);
  }

  /** ConnectContext.readControlObject. */
  async readControlObject(key: ControlObjectKey, dependent: ManagedResource): Promise<Record<string, unknown> | undefined> {
    if (this.wakeSource())
      this.followedBy(dependent.metadata.uid).add(
        JSON.stringify(referencedTarget({ group: groupOf(key.apiVersion), ...key }, key.apiVersion)),
      );
    return this.getReferenced({ group: groupOf(key.apiVersion), ...key }, key.apiVersion, dependent);
  }

  /** ConnectContext.listControlObjects. */
  async listControlObjects(
    scope: Omit<ControlObjectKey, 'name'>,
    dependent: ManagedResource,
    wakesFor?: (obj: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>[]> {
    const target: TargetScope = { cluster: 'control', ...scope };
    const wake = this.wakeSource();
    if (wake) {
      this.followedBy(dependent.metadata.uid).add(JSON.stringify({ ...target, name: WHOLE_SCOPE }));
      this.watches.followScope(target, this.kubeConfig, dependent.metadata.uid, () => wake(dependent), wakesFor as never);
      const cached = await this.watches.cachedList(target, this.kubeConfig);
      if (cached) return cached as unknown as Record<string, unknown>[];
    }
    return this.anyObjects.list(scope);
  }

  /** ConnectContext.forgetControlObjects. */
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
      if (name === WHOLE_SCOPE) this.watches.unfollowScope(scope, dependentUid);
      else this.watches.unfollow({ ...scope, name }, dependentUid);
      followed!.delete(entry);
    }
    if (followed?.size === 0) this.followed.delete(dependentUid);
  }

  private followedBy(dependentUid: string): Set<string> {
    let followed = this.followed.get(dependentUid);
    if (!followed) this.followed.set(dependentUid, (followed = new Set()));
    return followed;
  }
}

/** The control cluster's own objects, in TargetWatches' terms. */
function referencedTarget(key: ObjectKey, apiVersion: string): TargetKey {
  return { cluster: 'control', apiVersion, kind: key.kind, namespace: key.namespace, name: key.name };
}
