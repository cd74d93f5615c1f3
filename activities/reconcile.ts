// The reconcile workflow's activities: every read and write of the managed resource and of the
// external resource happens here. observe reads the object from the worker's cache (as new as
// the pass needs, see object-cache.ts); every other activity re-reads it from the API server,
// checks it is still the same object (uid) and is safe to retry.
import { activityInfo, log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { EXTERNAL_NAME, FINALIZER, PAUSED } from '../apis/annotations';
import { mergeConditions, reconcileError, type Condition } from '../apis/conditions';
import type { ExternalClient, ExternalObservation } from '../runtime/external-client';
import { ClassifiedError, OBJECT_GONE } from '../runtime/errors';
import { workflowIdFor, type ManagedKind, type PollIntervals, type ResourceRef } from '../runtime/managed-kind';
import { managementPoliciesOf, type ManagedResource } from '../runtime/managed-resource';
import type { ExternalDeletion, NoExternal, OwnedExternal, PassObservation } from '../workflows/observation';
import { allows, releasableWithoutProvider } from '../workflows/decide';
import type { ManagementAction } from '../apis/managed';
import { kindFor, managedKinds } from '../providers/registry';
import { usedByMarks } from '../runtime/references/used-by';
import { ReferenceAccess } from './references';
import { asActivity, classify } from './failures';
import { toKubeEvent, type EventNote } from './events';
import { isStatus, isTooLarge, type KubeAccess } from './kube';
import { HeldValues } from './held-values';
import { withMirrorNote, type MirrorLeftOut } from '../workflows/status';
import { pollIntervalOf, RECONCILE_REQUESTED_AT } from '../runtime/reconcile-annotations';
import { apiServerReads, type ObjectSource } from './object-cache';
import { ConnectionPublisher } from './connection-secret';
import { RecentObservations } from './recent-observations';
import { ownershipRefusal } from './ownership';
import type { OwnWrites } from './own-writes';

export interface WriteBack {
  lateInitialized?: Record<string, unknown>;
  status?: { conditions: Condition[]; atProvider?: unknown; observedGeneration: number; lastHandledReconcileAt?: string };
  events: EventNote[];
}

export interface ReconcileActivityOptions {
  /** Overrides every kind's poll intervals (seconds); tests use short ones. */
  pollOverride?: Partial<PollIntervals>;
  /**
   * Fault injection for crash tests: exit the process right after a create attempt's external
   * create call. Only first attempts exit: the retry is the recovery under test, and must finish.
   */
  exitAfterExternalCreate?: boolean;
  /** Where observe reads the object; a GET each time when absent. */
  objects?: ObjectSource;
  /** What create calls answered, for the pass right after them; a fresh store when absent. */
  recent?: RecentObservations;
  /** Where to note the resourceVersions of our writes, for a watcher in this process to leave out. */
  ownWrites?: OwnWrites;
  /** Where observe keeps values too large for history until writeBack needs them; a fresh store when absent. */
  held?: HeldValues;
}

export function createReconcileActivities(kube: KubeAccess, options: ReconcileActivityOptions = {}) {
  const kindOf = (ref: ResourceRef): ManagedKind => kindFor(ref.group, ref.kind);
  const objects = options.objects ?? apiServerReads(kube);
  const references = new ReferenceAccess(kube, objects.peek?.bind(objects));
  const connectionSecrets = new ConnectionPublisher(kube);
  const recent = options.recent ?? new RecentObservations();
  const held = options.held ?? new HeldValues();
  /** Only the version a write call itself returned: a later read could be someone else's change. */
  const wrote = (uid: string, written: ManagedResource): ManagedResource => {
    options.ownWrites?.record(uid, written.metadata.resourceVersion);
    return written;
  };

  async function connect(ref: ResourceRef, mr: ManagedResource): Promise<ExternalClient<unknown, unknown>> {
    return kindOf(ref).connector.connect(mr, kube) as Promise<ExternalClient<unknown, unknown>>;
  }

  /**
   * Whether the owner an external resource names exists: from the cache when it holds that very
   * object, else from the API server, so an owner the cache has not seen yet still counts.
   */
  async function ownerExists(owner: ResourceRef, uid: string): Promise<boolean> {
    if (objects.peek?.(owner)?.metadata.uid === uid) return true;
    return (await kube.get(owner))?.metadata.uid === uid;
  }

  /**
   * Observes, then lets a kind that can protect its external resource (ExternalClient.protect)
   * hold it while dependents exist, or let go once they are gone or the object is deleting. An
   * external resource another existing object owns is refused instead (activities/ownership.ts):
   * nothing more is asked of it, and nothing of it is kept but the refusal.
   */
  async function observeAndProtect(
    kind: ManagedKind,
    ref: ResourceRef,
    mr: ManagedResource,
    resolved: ManagedResource,
    object: { deletionPolicy: string; managementPolicies: readonly ManagementAction[]; externalName?: string },
  ): Promise<{ observation: ExternalObservation<unknown, unknown>; refusal?: string }> {
    const client = await connect(ref, mr);
    const observation = await client.observe(resolved);
    if (observation.claimedBy) {
      const kinds = managedKinds.map((k) => k.api);
      const refusal = await ownershipRefusal(ref, object.externalName, observation.claimedBy, kinds, ownerExists);
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
   * What the object depends on. While it lives: resolved, with the spec it resolves to. While it
   * is being deleted: only whether it holds marks to release, and which dependents hold it.
   */
  async function referencesOf(kind: ManagedKind, mr: ManagedResource, deleting: boolean) {
    if (deleting) {
      const dependsOnManaged = references.holdsMarks(kind, mr);
      const blockers = usedByMarks(mr.metadata.annotations).length > 0 ? await references.blockers(kind, mr) : undefined;
      const summary = dependsOnManaged ? { waiting: [], errors: [], writes: [], unmarked: [], dependsOnManaged } : undefined;
      return { references: summary, blockers, resolved: mr };
    }
    const found = await references.resolve(kind, mr, { verifyWrites: true });
    return {
      references: found?.observation,
      blockers: undefined,
      resolved: (found?.resolution.resolved ?? mr) as unknown as ManagedResource,
    };
  }

  const objectGone = (ref: ResourceRef, uid: string) =>
    ApplicationFailure.nonRetryable(`${ref.kind} ${ref.namespace}/${ref.name} (uid ${uid}) no longer exists`, OBJECT_GONE);

  /**
   * The object as it is now, provided it is still the one this workflow reconciles. Always a
   * GET, never the cache: these reads feed writes. addFinalizer and removeFinalizer replace the
   * whole object, so it must carry everything (the cache drops kubectl's last-applied copy); and
   * create or update must act on the spec the pass decided on, including references
   * resolveReferences wrote moments ago, which this worker's informer (or another worker's, for
   * a provider activity) may not have seen yet. They run only when a pass changes something.
   */
  async function current(ref: ResourceRef, uid: string): Promise<ManagedResource> {
    const mr = await kube.get(ref);
    if (!mr || mr.metadata.uid !== uid) throw objectGone(ref, uid);
    return mr;
  }

  /**
   * Changes the finalizers in one write, from the object as the worker's cache holds it, and
   * only if the object is still exactly that version. Undefined when the cache has nothing to
   * change or the object changed since (the caller then reads it fresh): never a lost edit.
   */
  async function setFinalizersFromCache(
    ref: ResourceRef,
    uid: string,
    change: (finalizers: string[]) => string[] | undefined,
  ): Promise<ManagedResource | undefined> {
    const cached = await objects.read(ref);
    const wanted = cached?.metadata.uid === uid ? change(cached.metadata.finalizers ?? []) : undefined;
    if (!cached || !wanted) return undefined;
    return kube.setFinalizersIfUnchanged(ref, cached, wanted).catch((error: unknown) => {
      if ([404, 409, 422].some((code) => isStatus(error, code))) return undefined;
      throw error;
    });
  }

  /**
   * Sets the finalizers of a freshly read object, provided it is still the version read: a merge
   * patch carrying the read's resourceVersion, which the API server checks (409 on a concurrent
   * edit, and the step retries). A patch, not a replace, so the controller's role needs no
   * `update` on kinds that never otherwise replace their objects.
   */
  function patchFinalizersOf(ref: ResourceRef, uid: string, read: ManagedResource, finalizers: string[]): Promise<ManagedResource> {
    return kube.patch(ref, uid, { metadata: { resourceVersion: read.metadata.resourceVersion, finalizers } });
  }

  /**
   * Runs a uid-guarded write. When the API server refuses it, one read tells a successor under
   * the same name (or no object at all) from a real error: the workflow must learn that its
   * object is gone, not retry a write that can never apply. A local activity re-run after a
   * failed workflow task carries its old input, so this is not a rare path.
   */
  async function writeToSameObject<T>(ref: ResourceRef, uid: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if ([404, 409, 422].some((code) => isStatus(error, code))) {
        const now = await kube.get(ref);
        if (!now || now.metadata.uid !== uid) throw objectGone(ref, uid);
      }
      throw error;
    }
  }

  return {
    /**
     * Reads the object and observes the external resource; runs as a local activity. The object
     * comes from the cache, no older than `atLeast`: the resourceVersion of the newest watch
     * event or own write the workflow knows of (absent in histories from before it was passed).
     * `owned` is the external name an earlier pass found this object owns (see OwnedExternal);
     * `noExternal` the object the workflow knows has no external resource (see NoExternal).
     */
    async observe(ref: ResourceRef, atLeast?: string, owned?: OwnedExternal, noExternal?: NoExternal): Promise<PassObservation> {
      return asActivity(async () => {
        const mr = await objects.read(ref, atLeast);
        if (!mr) return { found: false };
        const kind = kindOf(ref);
        const m = mr.metadata;
        const object = {
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
          // A large one (an Object's mirror of a big target) goes to history as a stand-in.
          atProvider: held.hold(kind.compatibleApi?.status ? kind.compatibleApi.status.read(mr.status ?? {}) : mr.status?.atProvider),
          ...reconcileRequestOf(mr),
        } as const;
        const { poll, pollIntervalProblem } = pollIntervalsFor(kind, mr, options.pollOverride);
        if (object.paused) return { found: true, object, poll, ...(pollIntervalProblem ? { pollIntervalProblem } : {}) };
        const { references, blockers, resolved } = await referencesOf(kind, mr, object.deleting);
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
        // Deleting an object that orphans its external resource, or has none, needs nothing of
        // the provider: it is released without connecting, so a broken ProviderConfig, Secret
        // or kubeconfig cannot hold it (and no call reaches a provider it no longer concerns).
        const notObserved = releasableWithoutProvider(object, noExternal);
        if (notObserved) {
          log.info('released without reaching the provider', { resource: `${ref.namespace}/${ref.name}`, why: notObserved });
          return { ...passBasis, external: { ...NOTHING_TO_DELETE, notObserved } };
        }
        try {
          // Observed against the resolved spec: what would be sent to the provider. A create or
          // delete that just answered for this very state of the object has said it already.
          const told =
            recent.take({ uid: m.uid, generation: m.generation, externalName: object.externalName, deleting: object.deleting }) ??
            (deletesAtOnce(kind, object) && ownsAlready(owned, object) ? TO_BE_DELETED : undefined);
          const observed = told ? { observation: told } : await observeAndProtect(kind, ref, mr, resolved, object);
          if (observed.refusal) {
            const resource = `${ref.namespace}/${ref.name}`;
            log.warn('external resource belongs to another object', { resource, refusal: observed.refusal });
            return { ...passBasis, external: { ...observed.observation, ownedByAnother: observed.refusal } };
          }
          const { connectionDetails, claimedBy: _ownerGone, ...observation } = observed.observation;
          // Published here and left out of the result: history never holds the values. A
          // resource being deleted publishes nothing; its Secret goes with it.
          const published = object.deleting ? undefined : await connectionSecrets.publish(mr, kind.api, connectionDetails);
          if (published) log.info('published connection details', { resource: `${ref.namespace}/${ref.name}`, published });
          return {
            ...passBasis,
            external: {
              ...observation,
              atProvider: held.hold(observation.atProvider),
              lateInitialized: observation.lateInitialized as Record<string, unknown> | undefined,
            },
          };
        } catch (error) {
          // A provider error is an outcome to report in Synced, not a reason to fail the pass.
          const { failureClass, message } = classify(error);
          log.warn('cannot observe external resource', { resource: `${ref.namespace}/${ref.name}`, failureClass, message });
          return { ...passBasis, externalError: { failureClass, message } };
        }
      });
    },

    /** Returns the resourceVersion it wrote, so the workflow can ignore that watch event. */
    async addFinalizer(ref: ResourceRef, uid: string): Promise<{ summary: string; resourceVersion?: string }> {
      return asActivity(async () => {
        // First from the cache, in one write; from a fresh read when that write does not hold.
        const added = await setFinalizersFromCache(ref, uid, (finalizers) =>
          finalizers.includes(FINALIZER) ? undefined : [...finalizers, FINALIZER],
        );
        if (added) return { summary: `added finalizer ${FINALIZER}`, resourceVersion: wrote(uid, added).metadata.resourceVersion };
        const mr = await current(ref, uid);
        if (mr.metadata.finalizers?.includes(FINALIZER)) return { summary: 'finalizer already present' };
        const finalizers = [...(mr.metadata.finalizers ?? []), FINALIZER];
        const written = wrote(uid, await patchFinalizersOf(ref, uid, mr, finalizers));
        return { summary: `added finalizer ${FINALIZER}`, resourceVersion: written.metadata.resourceVersion };
      });
    },

    async removeFinalizer(ref: ResourceRef, uid: string): Promise<string> {
      return asActivity(async () => {
        const removed = await setFinalizersFromCache(ref, uid, (finalizers) =>
          finalizers.includes(FINALIZER) ? finalizers.filter((f) => f !== FINALIZER) : undefined,
        );
        if (removed) return `removed finalizer ${FINALIZER}`;
        const mr = await kube.get(ref);
        if (!mr || mr.metadata.uid !== uid || !mr.metadata.finalizers?.includes(FINALIZER)) return 'finalizer already removed';
        await patchFinalizersOf(
          ref,
          uid,
          mr,
          mr.metadata.finalizers.filter((f) => f !== FINALIZER),
        );
        return `removed finalizer ${FINALIZER}`;
      });
    },

    /** Writes resolved references into the object and marks what it depends on as in use. */
    async resolveReferences(ref: ResourceRef, uid: string): Promise<{ summary: string; resourceVersion?: string }> {
      return asActivity(async () => {
        const mr = await current(ref, uid);
        const { done, written } = await references.apply(kindOf(ref), ref, mr);
        return {
          summary: done.join('; ') || 'references already in place',
          resourceVersion: written && wrote(uid, written).metadata.resourceVersion,
        };
      });
    },

    /** Takes this object's in-use marks off what it depends on, once it no longer needs them. */
    async releaseDependencies(ref: ResourceRef, uid: string): Promise<string> {
      return asActivity(async () => {
        const mr = await kube.get(ref);
        if (!mr || mr.metadata.uid !== uid) return 'the object is gone; nothing to release';
        return (await references.release(kindOf(ref), mr)).join('; ') || 'nothing to release';
      });
    },

    /**
     * Creates the external resource (or finds the one an interrupted attempt made) and records
     * its name. Returns the resourceVersion of that record, which the next pass must read.
     * `firstForObject` is the workflow's word that it never asked for a create of this object
     * before (absent in histories from before it was passed: then an earlier one may exist).
     */
    async createExternal(
      ref: ResourceRef,
      uid: string,
      firstForObject?: boolean,
    ): Promise<{ externalName: string; summary: string; resourceVersion?: string }> {
      return asActivity(async () => {
        const mr = await current(ref, uid);
        // Refused before anything is created: details only create returns must have a home.
        await connectionSecrets.ensureWritable(mr);
        const mayExist = firstForObject !== true || activityInfo().attempt > 1;
        const created = await (await connect(ref, mr)).create(mr, { mayExist });
        if (options.exitAfterExternalCreate && activityInfo().attempt === 1) {
          log.error('failpoint exit-after-external-create: exiting before the create is recorded');
          process.exit(137);
        }
        // Before the name is recorded: a worker lost in between leaves the name unrecorded, so
        // the retry's create runs again, and the kind deals with details it can no longer read.
        const published = await connectionSecrets.publish(mr, kindOf(ref).api, created.connectionDetails);
        const recorded = await writeToSameObject(ref, uid, async () =>
          wrote(uid, await kube.patch(ref, uid, { metadata: { annotations: { [EXTERNAL_NAME]: created.externalName } } })),
        );
        if (created.observation) {
          const at = { uid, generation: recorded.metadata.generation, externalName: created.externalName, deleting: false };
          recent.remember(at, created.observation);
        }
        // Named fields only: the connection details stay here.
        const summary = published ? `${created.summary}; ${published}` : created.summary;
        return { externalName: created.externalName, summary, resourceVersion: recorded.metadata.resourceVersion };
      });
    },

    async updateExternal(ref: ResourceRef, uid: string): Promise<string> {
      return asActivity(async () => {
        const mr = await current(ref, uid);
        return (await connect(ref, mr)).update(mr);
      });
    },

    async deleteExternal(ref: ResourceRef, uid: string): Promise<ExternalDeletion> {
      return asActivity(async () => {
        const mr = await current(ref, uid);
        const deleted = await (await connect(ref, mr)).delete(mr);
        if (typeof deleted === 'string') return { summary: deleted };
        if (!deleted.gone) return { summary: deleted.summary };
        const externalName = mr.metadata.annotations?.[EXTERNAL_NAME];
        return { summary: deleted.summary, gone: { uid, ...(externalName !== undefined ? { externalName } : {}) } };
      });
    },

    /**
     * Writes a pass's outcome back: late-initialized spec fields, status, and events. Returns
     * the resourceVersions it produced, so the workflow can ignore their watch events.
     */
    async writeBack(ref: ResourceRef, uid: string, outcome: WriteBack): Promise<{ resourceVersions: string[]; leftOut?: MirrorLeftOut }> {
      return asActivity(async () => {
        const resourceVersions: string[] = [];
        let status = outcome.status;
        let leftOut: MirrorLeftOut | undefined;
        const events = [...outcome.events];
        if (outcome.lateInitialized) {
          const fields = outcome.lateInitialized;
          const patched = await writeToSameObject(ref, uid, async () =>
            wrote(uid, await kube.patch(ref, uid, { spec: { forProvider: fields } })),
          ).catch(async (error: unknown) => {
            if (!isStatus(error, 422)) throw error;
            // Admission refuses what the provider reports (a default EC2 would refuse too, say):
            // the user must set the field. Synced says so, and the pass fails, backing off.
            const message = `cannot record ${Object.keys(fields)
              .map((f) => `spec.forProvider.${f}`)
              .join(', ')} as the provider reports it: ${classify(error).message}`;
            if (status) {
              const conditions = mergeConditions(status.conditions, [reconcileError(message)], new Date().toISOString());
              await writeToSameObject(ref, uid, async () =>
                kube.patchStatus(ref, uid, inKindStatusShape(kindOf(ref), { ...status!, conditions })),
              );
            }
            throw new ClassifiedError('InvalidInput', message);
          });
          resourceVersions.push(patched.metadata.resourceVersion);
          // The late-initialized spec is the one this status describes.
          if (status) status = restampGeneration(status, patched.metadata.generation);
        }
        if (status) {
          const writeStatus = async (s: NonNullable<WriteBack['status']>) => {
            const body = inKindStatusShape(kindOf(ref), s);
            return writeToSameObject(ref, uid, async () => wrote(uid, await kube.patchStatus(ref, uid, body)));
          };
          const atProvider = held.resolve(status.atProvider);
          let written: ManagedResource;
          try {
            written = await writeStatus({ ...status, atProvider });
          } catch (error) {
            if (!isTooLarge(error) || atProvider === undefined) throw error;
            // The object cannot hold its observed state as well (a spec near etcd's limit and a
            // mirror of the same size): the conditions still go in, saying why, and the workflow
            // leaves that state out until it changes (MirrorLeftOut), instead of failing here
            // every pass with READY and SYNCED blank.
            const note = `status.atProvider is left out: with it the object would pass the API server's size limit (${classify(error).message})`;
            leftOut = { atProvider: status.atProvider, note };
            written = await writeStatus({ ...status, atProvider: undefined, conditions: withMirrorNote(status.conditions, note) });
            events.push({ type: 'Warning', reason: 'StatusTooLarge', message: note });
            log.warn('status written without its observed state', { resource: `${ref.namespace}/${ref.name}`, note });
          }
          resourceVersions.push(written.metadata.resourceVersion);
        }
        const now = new Date();
        // Events are best-effort: losing one must not fail the pass or repeat the status write.
        await Promise.all(
          events.map((note) =>
            kube.createEvent(toKubeEvent(ref, uid, note, now)).catch((error: unknown) => {
              log.warn('cannot record event', { reason: note.reason, error: classify(error).message });
            }),
          ),
        );
        return leftOut ? { resourceVersions, leftOut } : { resourceVersions };
      });
    },
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

/** A kind with status fields of its own (CompatibleStatus) gets them in place of atProvider. */
function inKindStatusShape(kind: ManagedKind, status: NonNullable<WriteBack['status']>): Record<string, unknown> {
  const own = kind.compatibleApi?.status;
  if (!own) return status;
  const { atProvider, ...common } = status;
  const fields = Object.entries(own.write(atProvider, status.conditions)).filter(([, value]) => value !== undefined && value !== null);
  return { ...common, ...Object.fromEntries(fields) };
}

function restampGeneration(status: NonNullable<WriteBack['status']>, generation: number): NonNullable<WriteBack['status']> {
  return {
    ...status,
    observedGeneration: generation,
    conditions: status.conditions.map((c) =>
      c.observedGeneration === status.observedGeneration ? { ...c, observedGeneration: generation } : c,
    ),
  };
}

export type ReconcileActivities = ReturnType<typeof createReconcileActivities>;
