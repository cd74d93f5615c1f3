// The ObservedObjectCollection's client. Why a managed kind on the engine: the collection's
// "external resource" is its set of member Objects in the control cluster, and the engine's
// loop is exactly what keeping that set fits: observe compares the targets the selector matches
// (from the target cluster's shared watch of that kind) with the members (from the control
// cluster's shared watch of Objects), update applies the difference, delete removes the
// members, and the conditions, backoff, finalizer and wake-ups come with it. A change to a
// matching target, to a member, or a label that stops matching wakes the collection at once;
// its poll is only a safety net. Upstream also writes members by server-side apply, and also
// leaves the targets alone: members are observe-only, so deleting one never deletes its target.
//
// Writes, and the reads they are planned from, go to the API server: a write acts on what is
// there, never on a watch that may lag behind the collection's own last writes.
import type { KubernetesObject } from '@kubernetes/client-node';
import { PatchStrategy } from '@kubernetes/client-node';
import { EXTERNAL_NAME } from '#core/annotations';
import { ClassifiedError } from '#core/errors';
import type {
  ConnectContext,
  Connector,
  ExternalClient,
  ExternalCreation,
  ExternalDeletion,
  ExternalObservation,
} from '#core/external-client';
import { loadKubeConfig } from '#runtime/kube-config';
import { labelSelectorMatches } from '#runtime/label-selector';
import type { ManagedResource } from '#core/managed-resource';
import { PlainObjectApi } from '#runtime/plain-object-api';
import { connectToTarget, type TargetReach } from '../object/client';
import type { RemoteCluster } from '../remote/cluster';
import { TargetCalls } from '../remote/calls';
import {
  describeMember,
  describePlan,
  hasWork,
  isOwnedBy,
  membershipLabelOf,
  memberName,
  planMembers,
  type Collection,
  type Member,
  type MemberKind,
  type MembersPlan,
  type Target,
} from './members';
import { MEMBERSHIP_LABEL, type CollectionObservation, type CollectionSpec } from './schema';

type CollectionResource = ManagedResource<unknown, CollectionObservation>;
type Observation = ExternalObservation<unknown, CollectionObservation>;

/** The collection's own fields of its member Objects (upstream's field owner, for a collection moved between the two). */
const FIELD_MANAGER = 'kubernetes.crossplane.io/observed-object-collection-controller';
/** A label value's limit: the membership label's value is the collection's name. */
const MAX_NAME = 63;

/** Objects of the control cluster, straight from its API server: what writes are planned from, and the writes. */
interface MemberStore {
  list(kind: MemberKind, namespace: string, collectionName: string): Promise<Member[]>;
  /** Creates or updates the member (server-side apply of the fields the collection sets). */
  apply(member: Member): Promise<void>;
  /** Deletes this very member (its uid is the precondition); false when it was gone already. */
  delete(member: Member): Promise<boolean>;
}

let controlCluster: MemberStore | undefined;

/** A connector for the collections whose members are Objects of `memberKind`. */
export function collectionConnector(memberKind: MemberKind): Connector<unknown, CollectionObservation> {
  return {
    async connect(mr, context) {
      controlCluster ??= apiServer(PlainObjectApi.forConfig(loadKubeConfig()));
      return new CollectionClient(context, controlCluster, memberKind, () => connectToTarget(mr as ManagedResource, context));
    },
  };
}

class CollectionClient implements ExternalClient<unknown, CollectionObservation> {
  constructor(
    private readonly context: ConnectContext,
    private readonly store: MemberStore,
    private readonly memberKind: MemberKind,
    /** The target cluster, connected only when needed: a collection being deleted needs none. */
    private readonly target: () => Promise<{ remote: RemoteCluster; reach: TargetReach }>,
  ) {}

  async observe(mr: CollectionResource): Promise<Observation> {
    const collection = collectionOf(mr);
    if (mr.metadata.deletionTimestamp) return this.observeDeletion(mr, collection);
    const members = await this.watchedMembers(mr, collection);
    const targets = await this.targets(mr, collection, members);
    let plan = planMembers(collection, this.memberKind, targets, members);
    // The watch may not show this collection's own last writes yet: before it reports work to
    // do (and an update runs for nothing), the API server has the last word.
    if (hasWork(plan)) plan = planMembers(collection, this.memberKind, targets, await this.freshMembers(collection));
    const exists = mr.metadata.annotations?.[EXTERNAL_NAME] !== undefined;
    return {
      resourceExists: exists,
      resourceUpToDate: !hasWork(plan) && plan.conflicts.length === 0,
      ...readinessOf(plan),
      diff: hasWork(plan) ? describePlan(plan) : plan.conflicts.join('; ') || undefined,
      atProvider: { membershipLabel: membershipLabelOf(collection) },
    };
  }

  /** The first sync; the engine records the collection's name (its members' label value) as the external name. */
  async create(mr: CollectionResource): Promise<ExternalCreation<unknown, CollectionObservation>> {
    const summary = await this.update(mr);
    return { externalName: mr.metadata.name, summary };
  }

  async update(mr: CollectionResource): Promise<string> {
    const collection = collectionOf(mr);
    const targets = await this.targets(mr, collection, []);
    const plan = planMembers(collection, this.memberKind, targets, await this.freshMembers(collection));
    await settleAll([...plan.apply.map((m) => this.store.apply(m)), ...plan.remove.map((m) => this.store.delete(m))]);
    // Refused names fail the pass (Synced=False names them) after the others are in place.
    if (plan.conflicts.length > 0) throw new ClassifiedError('InvalidInput', plan.conflicts.join('; '));
    return `${this.memberKind.kind}s: ${describePlan(plan) || 'nothing to change'}`;
  }

  /**
   * Deletes its members (the garbage collector would too, through their owner reference, but
   * only once the collection is gone: this way the collection goes last, and a tool waiting for
   * it finds its members gone). Targets stay: members are observe-only.
   */
  async delete(mr: CollectionResource): Promise<ExternalDeletion> {
    const collection = collectionOf(mr);
    const members = (await this.freshMembers(collection)).filter((m) => isOwnedBy(m, collection));
    if (members.length === 0) return this.released(mr, { summary: `no ${this.memberKind.kind}s left`, gone: true });
    await settleAll(members.filter((m) => !m.metadata.deletionTimestamp).map((m) => this.store.delete(m)));
    return { summary: `deleting ${members.map((m) => m.metadata.name).join(', ')}` };
  }

  /** While being deleted it exists as long as any of its members does. */
  private async observeDeletion(mr: CollectionResource, collection: Collection): Promise<Observation> {
    let remaining = (await this.watchedMembers(mr, collection)).filter((m) => isOwnedBy(m, collection));
    // Never let the collection go on a watch that lags behind.
    if (remaining.length === 0) remaining = (await this.freshMembers(collection)).filter((m) => isOwnedBy(m, collection));
    if (remaining.length === 0) return this.released(mr, { resourceExists: false, resourceUpToDate: true });
    return {
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Deleting',
      readinessMessage: `waiting for ${remaining.map(describeMember).join(', ')}`,
    };
  }

  /** Stops following the members and the targets: the collection is gone. */
  private async released<T>(mr: CollectionResource, answer: T): Promise<T> {
    this.context.forgetControlObjects?.(mr.metadata.uid);
    const spec = specOf(mr).observeObjects;
    const { remote } = await this.target().catch(() => ({ remote: undefined }));
    remote?.forgetList(mr, { apiVersion: spec.apiVersion, kind: spec.kind, namespace: spec.namespace ?? '' });
    return answer;
  }

  /**
   * The target objects the selector matches now. A change wakes the collection when it concerns
   * a match or one of its members' targets (a label removed: that member must go).
   */
  private async targets(mr: CollectionResource, collection: Collection, members: readonly Member[]): Promise<Target[]> {
    const { remote, reach } = await this.target();
    const { apiVersion, kind, namespace = '', selector } = collection.spec.observeObjects;
    await checkReach(remote, reach, collection.spec.observeObjects);
    const labelsOf = (obj: KubernetesObject) => obj.metadata?.labels ?? {};
    const selects = (obj: KubernetesObject) => labelSelectorMatches(selector, labelsOf(obj));
    const memberNames = new Set(members.filter((m) => isOwnedBy(m, collection)).map((m) => m.metadata.name));
    const wakesFor = (obj: KubernetesObject) => selects(obj) || memberNames.has(memberName(collection, targetOf(obj, apiVersion, kind)));
    const found = await remote.list(mr, { apiVersion, kind, namespace }, selects, wakesFor);
    return found.map((obj) => targetOf(obj, apiVersion, kind));
  }

  /** The Objects in the collection's scope that carry its label or name it as owner, followed: a change to one wakes it. */
  private async watchedMembers(mr: CollectionResource, collection: Collection): Promise<Member[]> {
    const concerns = (obj: Record<string, unknown>) => {
      const member = obj as unknown as Member;
      return member.metadata?.labels?.[MEMBERSHIP_LABEL] === collection.name || isOwnedBy(member, collection);
    };
    if (!this.context.listControlObjects) return this.freshMembers(collection);
    const scope = { ...this.memberKind, namespace: collection.namespace };
    return (await this.context.listControlObjects(scope, mr as ManagedResource, concerns)).filter(concerns) as unknown as Member[];
  }

  private freshMembers(collection: Collection): Promise<Member[]> {
    return this.store.list(this.memberKind, collection.namespace, collection.name);
  }
}

/**
 * What the provider config may reach (see TargetReach): with `restrictToNamespace` only the
 * namespaced objects of that one namespace, so the collection must name it and a namespaced kind.
 */
async function checkReach(remote: RemoteCluster, reach: TargetReach, spec: CollectionSpec['observeObjects']): Promise<void> {
  const only = reach.restrictToNamespace;
  if (only === undefined) return;
  const where = `${reach.description} reaches only namespace ${only} of its cluster`;
  if (!(await remote.isNamespaced(spec.apiVersion, spec.kind))) {
    throw new ClassifiedError('NotAuthorized', `${where}: ${spec.kind} (${spec.apiVersion}) is cluster-scoped; nothing was read`);
  }
  if (spec.namespace !== only) {
    const asked = spec.namespace ? `namespace ${spec.namespace}` : 'every namespace';
    throw new ClassifiedError(
      'NotAuthorized',
      `${where}, and spec.observeObjects asks for ${asked}: set spec.observeObjects.namespace to ${only}; nothing was read`,
    );
  }
}

/** Ready once every target has its member; members' own readiness is theirs to report. */
function readinessOf(plan: MembersPlan): Pick<Observation, 'readiness' | 'readinessMessage'> {
  if (plan.present === plan.desired && !hasWork(plan)) return { readiness: 'Available' };
  return { readiness: 'Creating', readinessMessage: `${plan.present} of ${plan.desired} members in place` };
}

const specOf = (mr: CollectionResource): CollectionSpec => mr.spec as unknown as CollectionSpec;

function collectionOf(mr: CollectionResource): Collection {
  if (mr.metadata.name.length > MAX_NAME) {
    // Upstream's CRD says so at admission; its members' label value is this name.
    throw new ClassifiedError('InvalidInput', `metadata.name max length is ${MAX_NAME}`);
  }
  return {
    apiVersion: mr.apiVersion,
    kind: mr.kind,
    namespace: mr.metadata.namespace ?? '',
    name: mr.metadata.name,
    uid: mr.metadata.uid,
    spec: specOf(mr),
  };
}

const targetOf = (obj: KubernetesObject, apiVersion: string, kind: string): Target => ({
  apiVersion,
  kind,
  namespace: obj.metadata?.namespace ?? '',
  name: obj.metadata?.name ?? '',
});

/** Runs every write to its end, then fails with the first failure: one refused write does not stop the others. */
async function settleAll(writes: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(writes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

function apiServer(objects: PlainObjectApi): MemberStore {
  const calls = new TargetCalls('control cluster');
  return {
    list: (kind, namespace, collectionName) =>
      calls.run(`list ${kind.kind}s of collection ${collectionName}`, async () =>
        // Items of a list carry no apiVersion or kind. Owned members always carry the label
        // (they are applied with it); one stripped of it by hand is left to the garbage collector.
        (
          await objects.list(
            kind.apiVersion,
            kind.kind,
            namespace || undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            `${MEMBERSHIP_LABEL}=${collectionName}`,
          )
        ).items.map((o) => ({ ...o, apiVersion: kind.apiVersion, kind: kind.kind }) as unknown as Member),
      ),
    apply: (member) =>
      calls.run(`apply ${describeMember(member)}`, async () => {
        await objects.patch(
          member as unknown as KubernetesObject,
          undefined,
          undefined,
          FIELD_MANAGER,
          true,
          PatchStrategy.ServerSideApply,
        );
      }),
    delete: (member) =>
      calls.run(
        `delete ${describeMember(member)}`,
        async () => {
          const preconditions = { uid: member.metadata.uid };
          await objects.delete(member as unknown as KubernetesObject, undefined, undefined, undefined, undefined, undefined, {
            preconditions,
          });
          return true;
        },
        () => false,
      ),
  };
}
