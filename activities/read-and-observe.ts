// The first half of every pass: read the object, resolve what it refers to, and observe its
// external resource, answering the workflow with the decision's inputs only. Observed states
// travel as stand-ins (HeldValues), and connection details go straight to their Secret, so
// history holds neither.
import { log } from '@temporalio/activity';
import { EXTERNAL_NAME, FINALIZER, PAUSED } from '#core/annotations';
import type { ManagementAction } from '#core/managed';
import type { ExternalObservation } from '#core/external-client';
import { workflowIdFor, type ManagedKind, type PollIntervals, type ResourceRef } from '#core/managed-kind';
import { managementPoliciesOf, type ManagedResource } from '#core/managed-resource';
import { pollIntervalOf, RECONCILE_REQUESTED_AT } from '#runtime/reconcile-annotations';
import { usedByMarks } from '#runtime/references/used-by';
import { managedKinds } from '#providers/registry';
import { releasableWithoutProvider, type ObjectSnapshot, type OwnedExternal, type PassObservation } from '#contract/observation';
import type { PassKnowledge } from '#contract/reconcile-activities';
import { allows } from '#core/management-policies';
import { asActivity, classify } from './failures';
import { mirrorOf } from './object-writes';
import { ownershipRefusal } from './ownership';
import type { PassContext } from './pass-context';

/**
 * What the workflow knows, and what the provider answered a moment ago for this very state of
 * the object (a create's own answer), taken as the observation instead of asking again.
 */
interface ObserveGiven extends PassKnowledge {
  told?: ExternalObservation<unknown, unknown>;
}

export function readAndObserveActivities(ctx: PassContext) {
  return {
    /**
     * Reads the object and observes the external resource; runs as a local activity. The object
     * comes from the cache, no older than `atLeast`: the resourceVersion of the newest watch
     * event or own write the workflow knows of.
     */
    async observe(ref: ResourceRef, atLeast: string | undefined, known: PassKnowledge): Promise<PassObservation> {
      return asActivity(async () => {
        const mr = await ctx.objects.read(ref, atLeast);
        return mr ? observeObject(ctx, ref, mr, known) : { found: false };
      });
    },
  };
}

/** A pass's observation of an object already read: by observe, or by the activity that just wrote it. */
export async function observeObject(
  ctx: PassContext,
  ref: ResourceRef,
  mr: ManagedResource,
  known: ObserveGiven,
): Promise<PassObservation> {
  const kind = ctx.kindOf(ref);
  const object = snapshotOf(ctx, kind, mr);
  const { poll, pollIntervalProblem } = pollIntervalsFor(kind, mr, ctx.options.pollOverride);
  if (object.paused) return { found: true, object, poll, ...(pollIntervalProblem ? { pollIntervalProblem } : {}) };
  const { references, blockers, resolved } = await referencesOf(ctx, kind, mr, object.deleting);
  /** What the pass observed whatever the provider answers. */
  const passBasis = {
    found: true as const,
    object,
    poll,
    ...(pollIntervalProblem ? { pollIntervalProblem } : {}),
    ...(kind.quickProviderCalls ? { quickProviderCalls: true } : {}),
    references,
    blockers,
  };
  const resource = `${ref.namespace}/${ref.name}`;
  // Deleting an object that orphans its external resource, or has none, needs nothing of the
  // provider: it is released without connecting, so a broken ProviderConfig, Secret or
  // kubeconfig cannot hold it (and no call reaches a provider it no longer concerns).
  const notObserved = releasableWithoutProvider(object, known.noExternal);
  if (notObserved) {
    log.info('released without reaching the provider', { resource, why: notObserved });
    return { ...passBasis, external: { ...NOTHING_TO_DELETE, notObserved } };
  }
  try {
    // Observed against the resolved spec: what would be sent to the provider.
    const told = known.told ?? (deletesAtOnce(kind, object) && ownsAlready(known.owned, object) ? TO_BE_DELETED : undefined);
    const observed = told ? { observation: told } : await observeAndProtect(ctx, kind, ref, mr, resolved, object);
    if (observed.refusal) {
      log.warn('external resource belongs to another object', { resource, refusal: observed.refusal });
      return { ...passBasis, external: { ...observed.observation, ownedByAnother: observed.refusal } };
    }
    const { connectionDetails, claimedBy: _ownerGone, ...observation } = observed.observation;
    // Published here and left out of the result: history never holds the values. A resource
    // being deleted publishes nothing; its Secret goes with it.
    const published = object.deleting ? undefined : await ctx.connectionSecrets.publish(mr, kind.api, connectionDetails);
    if (published) log.info('published connection details', { resource, published });
    // Kept for writeBack only when status does not hold it already.
    const atProvider = ctx.held.standsFor(object.atProvider, observation.atProvider)
      ? object.atProvider
      : ctx.held.hold(observation.atProvider);
    return {
      ...passBasis,
      external: { ...observation, atProvider, lateInitialized: observation.lateInitialized as Record<string, unknown> | undefined },
    };
  } catch (error) {
    // A provider error is an outcome to report in Synced, not a reason to fail the pass.
    const { failureClass, message } = classify(error);
    log.warn('cannot observe external resource', { resource, failureClass, message });
    return { ...passBasis, externalError: { failureClass, message } };
  }
}

function snapshotOf(ctx: PassContext, kind: ManagedKind, mr: ManagedResource): ObjectSnapshot {
  const m = mr.metadata;
  return {
    uid: m.uid,
    generation: m.generation,
    resourceVersion: m.resourceVersion,
    deleting: m.deletionTimestamp !== undefined,
    paused: m.annotations?.[PAUSED] === 'true',
    hasFinalizer: m.finalizers?.includes(FINALIZER) ?? false,
    externalName: m.annotations?.[EXTERNAL_NAME],
    deletionPolicy: mr.spec.deletionPolicy ?? 'Delete',
    managementPolicies: managementPoliciesOf(mr.spec),
    conditions: mr.status?.conditions ?? [],
    statusObservedGeneration: mr.status?.observedGeneration,
    // Named, not carried: writeBack reads it again from status when it needs it.
    atProvider: ctx.held.standIn(mirrorOf(kind, mr)),
    ...reconcileRequestOf(mr),
  };
}

/**
 * Observes, then lets a kind that can protect its external resource (ExternalClient.protect)
 * hold it while dependents exist, or let go once they are gone or the object is deleting. An
 * external resource another existing object owns is refused instead (activities/ownership.ts):
 * nothing more is asked of it, and nothing of it is kept but the refusal.
 */
async function observeAndProtect(
  ctx: PassContext,
  kind: ManagedKind,
  ref: ResourceRef,
  mr: ManagedResource,
  resolved: ManagedResource,
  object: ObjectSnapshot,
): Promise<{ observation: ExternalObservation<unknown, unknown>; refusal?: string }> {
  const client = await ctx.connect(ref, mr);
  const observation = await client.observe(resolved);
  if (observation.claimedBy) {
    const kinds = managedKinds.map((k) => k.api);
    const refusal = await ownershipRefusal(ref, object.externalName, observation.claimedBy, kinds, (owner, uid) =>
      ownerExists(ctx, owner, uid),
    );
    if (refusal) return { observation: NOT_OURS, refusal };
  }
  const deletesItself = object.deletionPolicy === 'Delete' && allows(object.managementPolicies, 'Delete');
  if (client.protect && observation.resourceExists && deletesItself) {
    // Marks stay until each dependent is gone, deleting or not: that is the order to keep.
    const inUse = usedByMarks(mr.metadata.annotations).length > 0;
    const changed = await client.protect(resolved, observation, inUse);
    if (changed) log.info('protected external resource', { resource: workflowIdFor(ref), changed, kind: kind.api.kind });
  }
  return { observation };
}

/**
 * Whether the owner an external resource names exists: from the cache when it holds that very
 * object, else from the API server, so an owner the cache has not seen yet still counts.
 */
async function ownerExists(ctx: PassContext, owner: ResourceRef, uid: string): Promise<boolean> {
  if (ctx.objects.peek?.(owner)?.metadata.uid === uid) return true;
  return (await ctx.kube.get(owner))?.metadata.uid === uid;
}

/**
 * What the object depends on. While it lives: resolved, with the spec it resolves to. While it
 * is being deleted: only whether it holds marks to release, and which dependents hold it.
 */
async function referencesOf(ctx: PassContext, kind: ManagedKind, mr: ManagedResource, deleting: boolean) {
  if (deleting) {
    const dependsOnManaged = ctx.references.holdsMarks(kind, mr);
    const blockers = usedByMarks(mr.metadata.annotations).length > 0 ? await ctx.references.blockers(kind, mr) : undefined;
    const summary = dependsOnManaged ? { waiting: [], errors: [], writes: [], unmarked: [], dependsOnManaged } : undefined;
    return { references: summary, blockers, resolved: mr };
  }
  const found = await ctx.references.resolve(kind, mr, { verifyWrites: true });
  return {
    references: found?.observation,
    blockers: undefined,
    resolved: (found?.resolution.resolved ?? mr) as unknown as ManagedResource,
  };
}

/**
 * An external resource another object owns, as the pass sees it: there, and nothing else. Its
 * state, late-initialized fields and connection details are that owner's, not this object's.
 */
const NOT_OURS: ExternalObservation<unknown, unknown> = { resourceExists: true, resourceUpToDate: true };

/** What a deletion that needs no provider counts as (see releasableWithoutProvider): nothing to delete. */
const NOTHING_TO_DELETE = { resourceExists: false, resourceUpToDate: false } as const;

const ownsAlready = (owned: OwnedExternal | undefined, object: { uid: string; externalName?: string }): boolean =>
  owned !== undefined && owned.uid === object.uid && owned.externalName === object.externalName;

/**
 * What a resource being deleted counts as when its kind deletes synchronously: there, as far
 * as the pass knows. Its delete is idempotent and answers whether it is gone, so asking first
 * would only add a call (see ManagedKind.deletesSynchronously).
 */
const TO_BE_DELETED: ExternalObservation<unknown, unknown> = { resourceExists: true, resourceUpToDate: true };

function deletesAtOnce(
  kind: ManagedKind,
  object: { deleting: boolean; externalName?: string; deletionPolicy: string; managementPolicies: readonly ManagementAction[] },
): boolean {
  return (
    kind.deletesSynchronously === true &&
    object.deleting &&
    object.externalName !== undefined &&
    object.deletionPolicy === 'Delete' &&
    allows(object.managementPolicies, 'Delete')
  );
}

/**
 * The kind's poll intervals, with the object's own steady interval when it asks for one
 * (crossplane.io/poll-interval). An object with its own interval polls itself at it even when a
 * sweep watches its kind: the sweep keeps the kind's interval.
 */
function pollIntervalsFor(
  kind: ManagedKind,
  mr: ManagedResource,
  override: Partial<PollIntervals> | undefined,
): { poll: PollIntervals; pollIntervalProblem?: string } {
  const poll: PollIntervals = {
    steadySeconds: override?.steadySeconds ?? kind.poll.steadySeconds,
    pendingSeconds: override?.pendingSeconds ?? kind.poll.pendingSeconds,
    // Only a kind a sweep watches may let its settled resources wait on the safety net.
    safetyNetSeconds: kind.bulkObservation
      ? (override?.safetyNetSeconds ?? kind.poll.safetyNetSeconds ?? kind.poll.steadySeconds)
      : undefined,
  };
  const own = pollIntervalOf(mr.metadata.annotations);
  if (own === undefined) return { poll };
  const withOwn = own.seconds === undefined ? poll : { ...poll, steadySeconds: own.seconds, safetyNetSeconds: undefined };
  return 'problem' in own ? { poll: withOwn, pollIntervalProblem: own.problem } : { poll: withOwn };
}

/** The reconcile request the object carries and the last one a pass recorded, where present. */
function reconcileRequestOf(mr: ManagedResource): { reconcileRequestedAt?: string; lastHandledReconcileAt?: string } {
  const requested = mr.metadata.annotations?.[RECONCILE_REQUESTED_AT];
  const handled = (mr.status as { lastHandledReconcileAt?: unknown } | undefined)?.lastHandledReconcileAt;
  return {
    ...(requested !== undefined ? { reconcileRequestedAt: requested } : {}),
    ...(typeof handled === 'string' ? { lastHandledReconcileAt: handled } : {}),
  };
}
