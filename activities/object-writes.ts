// The writes a pass makes to its own object and to what it refers to: the finalizer, resolved
// references and in-use marks, late-initialized spec fields, status and events. Each is guarded
// by the object's uid and safe to retry.
import { log } from '@temporalio/activity';
import { FINALIZER } from '#core/annotations';
import { mergeConditions, reconcileError } from '#core/conditions';
import { ClassifiedError } from '#core/errors';
import type { ManagedKind, ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { withSyncedNote } from '#core/conditions';
import type { EventNote, MirrorLeftOut, WriteBack, WriteBackResult } from '#contract/write-back';
import { toKubeEvent } from './events';
import { asActivity, classify } from './failures';
import { isStatus, isTooLarge } from './kube/api-errors';
import type { PassContext } from './pass-context';

/** A change to an object's metadata, in one write: its whole finalizer list, and annotations to add. */
interface MetadataChange {
  finalizers: string[];
  annotations?: Record<string, string>;
}

/**
 * Adds the finalizer: the version it wrote, when it wrote one, so the workflow can ignore that
 * echo, and the object as the API server answered (the whole object, as a GET would give it).
 * `annotate` names annotations to add in the same write, from the object it is added to (the
 * external name a create will give, see ManagedKind.externalNameBeforeCreate).
 */
export async function ensureFinalizer(
  ctx: PassContext,
  ref: ResourceRef,
  uid: string,
  annotate: (mr: ManagedResource) => Record<string, string> = () => ({}),
): Promise<{ summary: string; resourceVersion?: string; object: ManagedResource }> {
  const adding = (mr: ManagedResource): MetadataChange | undefined => {
    const finalizers = mr.metadata.finalizers ?? [];
    return finalizers.includes(FINALIZER) ? undefined : { finalizers: [...finalizers, FINALIZER], annotations: annotate(mr) };
  };
  const added = (object: ManagedResource, { annotations = {} }: MetadataChange) => ({
    summary: [`added finalizer ${FINALIZER}`, ...Object.entries(annotations).map(([key, value]) => `${key}=${value}`)].join(' and '),
    resourceVersion: object.metadata.resourceVersion,
    object,
  });
  // First from the cache, in one write; from a fresh read when that write does not hold.
  const fromCache = await ctx.ownWrite(
    uid,
    () => changeMetadataFromCache(ctx, ref, uid, adding),
    (answer) => answer?.written,
  );
  if (fromCache) return added(fromCache.written, fromCache.change);
  const mr = await ctx.current(ref, uid);
  const change = adding(mr);
  if (!change) return { summary: 'finalizer already present', object: mr };
  return added(await ctx.ownWrite(uid, () => patchMetadataOf(ctx, ref, uid, mr, change)), change);
}

export function objectWriteActivities(ctx: PassContext) {
  const { kube, references } = ctx;
  return {
    /** Returns the resourceVersion it wrote, so the workflow can ignore that watch event. */
    async addFinalizer(ref: ResourceRef, uid: string): Promise<{ summary: string; resourceVersion?: string }> {
      return asActivity(async () => {
        const { summary, resourceVersion } = await ensureFinalizer(ctx, ref, uid);
        return { summary, ...(resourceVersion ? { resourceVersion } : {}) };
      });
    },

    /** Removes the finalizer, then records `events` (what the pass that released it did). */
    async removeFinalizer(ref: ResourceRef, uid: string, events: EventNote[] = []): Promise<string> {
      return asActivity(() => releaseObject(ctx, ref, uid, events));
    },

    /** Writes resolved references into the object and marks what it depends on as in use. */
    async resolveReferences(ref: ResourceRef, uid: string): Promise<{ summary: string; resourceVersion?: string }> {
      return asActivity(async () => {
        const mr = await ctx.current(ref, uid);
        const { done, written } = await ctx.ownWrite(
          uid,
          () => references.apply(ctx.kindOf(ref), ref, mr),
          (applied) => applied.written,
        );
        return { summary: done.join('; ') || 'references already in place', resourceVersion: written?.metadata.resourceVersion };
      });
    },

    /** Takes this object's in-use marks off what it depends on, once it no longer needs them. */
    async releaseDependencies(ref: ResourceRef, uid: string): Promise<string> {
      return asActivity(async () => {
        const mr = await kube.get(ref);
        if (!mr || mr.metadata.uid !== uid) return 'the object is gone; nothing to release';
        return (await references.release(ctx.kindOf(ref), mr)).join('; ') || 'nothing to release';
      });
    },

    /**
     * Writes a pass's outcome back: late-initialized spec fields, status, and events. Returns
     * the resourceVersions it produced, so the workflow can ignore their watch events.
     */
    async writeBack(ref: ResourceRef, uid: string, outcome: WriteBack): Promise<WriteBackResult> {
      return asActivity(async () => {
        const resourceVersions: string[] = [];
        let status = outcome.status;
        let leftOut: MirrorLeftOut | undefined;
        let mirrorMissed = false;
        const events = [...outcome.events];
        const kind = ctx.kindOf(ref);
        if (outcome.lateInitialized) {
          const fields = outcome.lateInitialized;
          const patched = await ctx
            .writeToSameObject(ref, uid, () => ctx.ownWrite(uid, () => kube.patch(ref, uid, { spec: { forProvider: fields } })))
            .catch(async (error: unknown) => {
              if (!isStatus(error, 422)) throw error;
              // Admission refuses what the provider reports (a default EC2 would refuse too, say):
              // the user must set the field. Synced says so, and the pass fails, backing off.
              const message = `cannot record ${Object.keys(fields)
                .map((f) => `spec.forProvider.${f}`)
                .join(', ')} as the provider reports it: ${classify(error).message}`;
              if (status) {
                const conditions = mergeConditions(status.conditions, [reconcileError(message)], new Date().toISOString());
                const withError = { ...status, atProvider: await mirrorToWrite(ctx, ref, kind, status.atProvider), conditions };
                await ctx.writeToSameObject(ref, uid, async () => kube.patchStatus(ref, uid, inKindStatusShape(kind, withError)));
              }
              throw new ClassifiedError('InvalidInput', message);
            });
          resourceVersions.push(patched.metadata.resourceVersion);
          // The late-initialized spec is the one this status describes.
          if (status) status = restampGeneration(status, patched.metadata.generation);
        }
        if (status) {
          const writeStatus = async (s: NonNullable<WriteBack['status']>) => {
            const body = inKindStatusShape(kind, s);
            return ctx.writeToSameObject(ref, uid, () => ctx.ownWrite(uid, () => kube.patchStatus(ref, uid, body)));
          };
          const mirror = await mirrorToWrite(ctx, ref, kind, status.atProvider);
          mirrorMissed = mirror.missed;
          let written: ManagedResource;
          try {
            written = await writeStatus({ ...status, atProvider: mirror.value });
          } catch (error) {
            if (!isTooLarge(error) || mirror.value === undefined) throw error;
            // The object cannot hold its observed state as well (a spec near etcd's limit and a
            // mirror of the same size): the conditions still go in, saying why, and the workflow
            // leaves that state out until it changes (MirrorLeftOut), instead of failing here
            // every pass with READY and SYNCED blank.
            const note = `status.atProvider is left out: with it the object would pass the API server's size limit (${classify(error).message})`;
            leftOut = { atProvider: status.atProvider, note };
            written = await writeStatus({ ...status, atProvider: undefined, conditions: withSyncedNote(status.conditions, note) });
            events.push({ type: 'Warning', reason: 'StatusTooLarge', message: note });
            log.warn('status written without its observed state', { resource: `${ref.namespace}/${ref.name}`, note });
          }
          resourceVersions.push(written.metadata.resourceVersion);
        }
        await recordEvents(ctx, ref, uid, events);
        return { resourceVersions, ...(leftOut ? { leftOut } : {}), ...(mirrorMissed ? { mirrorMissed } : {}) };
      });
    },
  };
}

/** Lets go of the object: removes our finalizer, then records `events` (what the release did). */
export async function releaseObject(ctx: PassContext, ref: ResourceRef, uid: string, events: EventNote[]): Promise<string> {
  const removed = await removeOurFinalizer(ctx, ref, uid);
  await recordEvents(ctx, ref, uid, events);
  return removed;
}

async function removeOurFinalizer(ctx: PassContext, ref: ResourceRef, uid: string): Promise<string> {
  const removed = await changeMetadataFromCache(ctx, ref, uid, (cached) => {
    const finalizers = cached.metadata.finalizers ?? [];
    return finalizers.includes(FINALIZER) ? { finalizers: finalizers.filter((f) => f !== FINALIZER) } : undefined;
  });
  if (removed) return `removed finalizer ${FINALIZER}`;
  const mr = await ctx.kube.get(ref);
  if (!mr || mr.metadata.uid !== uid || !mr.metadata.finalizers?.includes(FINALIZER)) return 'finalizer already removed';
  const kept = mr.metadata.finalizers.filter((f) => f !== FINALIZER);
  await patchMetadataOf(ctx, ref, uid, mr, { finalizers: kept });
  return `removed finalizer ${FINALIZER}`;
}

/** Events are best-effort: losing one must not fail the pass or repeat the write before it. */
async function recordEvents(ctx: PassContext, ref: ResourceRef, uid: string, events: EventNote[]): Promise<void> {
  const now = new Date();
  await Promise.all(
    events.map((note) =>
      ctx.kube.createEvent(toKubeEvent(ref, uid, note, now)).catch((error: unknown) => {
        log.warn('cannot record event', { reason: note.reason, error: classify(error).message });
      }),
    ),
  );
}

/**
 * The observed state to write, from the digest history carried (see HeldValues): the value this
 * worker held since observe, else what status holds when that is the very value (a pass that
 * only rewrites conditions). When neither (the workflow moved to another worker between its
 * observe and this write), status keeps what it has and `missed` asks the workflow for a pass
 * that observes again.
 */
async function mirrorToWrite(
  ctx: PassContext,
  ref: ResourceRef,
  kind: ManagedKind,
  standIn: unknown,
): Promise<{ value: unknown; missed: boolean }> {
  const held = ctx.held.resolve(standIn);
  if (held.found) return { value: held.value, missed: false };
  const current = await ctx.objects.read(ref);
  const mirrored = current ? mirrorOf(kind, current) : undefined;
  return { value: mirrored, missed: !ctx.held.standsFor(standIn, mirrored) };
}

/** The object's mirror of its external resource: status.atProvider, or the kind's own status fields. */
export function mirrorOf(kind: ManagedKind, mr: ManagedResource): unknown {
  return kind.compatibleApi?.status ? kind.compatibleApi.status.read(mr.status ?? {}) : mr.status?.atProvider;
}

/**
 * Changes the metadata in one write, from the object as the worker's cache holds it, and only
 * if the object is still exactly that version: the written object and the change it made.
 * Undefined when the cache has nothing to change or the object changed since (the caller then
 * reads it fresh): never a lost edit.
 */
async function changeMetadataFromCache(
  ctx: PassContext,
  ref: ResourceRef,
  uid: string,
  changeOf: (cached: ManagedResource) => MetadataChange | undefined,
): Promise<{ written: ManagedResource; change: MetadataChange } | undefined> {
  const cached = await ctx.objects.read(ref);
  const change = cached?.metadata.uid === uid ? changeOf(cached) : undefined;
  if (!cached || !change) return undefined;
  return ctx.kube.changeMetadataIfUnchanged(ref, cached, change.finalizers, change.annotations).then(
    (written) => ({ written, change }),
    (error: unknown) => {
      if ([404, 409, 422].some((code) => isStatus(error, code))) return undefined;
      throw error;
    },
  );
}

/**
 * Changes the metadata of a freshly read object, provided it is still the version read: a
 * merge patch carrying the read's resourceVersion, which the API server checks (409 on a
 * concurrent edit, and the step retries). A patch, not a replace, so the controller's role
 * needs no `update` on kinds that never otherwise replace their objects.
 */
function patchMetadataOf(
  ctx: PassContext,
  ref: ResourceRef,
  uid: string,
  read: ManagedResource,
  { finalizers, annotations = {} }: MetadataChange,
): Promise<ManagedResource> {
  const metadata = { resourceVersion: read.metadata.resourceVersion, finalizers };
  return ctx.kube.patch(ref, uid, { metadata: Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata });
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
