// The calls that change the external resource: create, update, delete. Each reads the object
// fresh (ctx.current), or, for a delete that may release it, at the version the workflow decided
// on (ctx.decidedOn), acts on exactly the spec the pass decided on, and is safe to retry.
// Create and delete also answer the observation of the pass that confirms them, when their own
// answer says it all: that pass then needs neither a read nor a provider call.
import { activityInfo, log } from '@temporalio/activity';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import type { ExternalCreated, ExternalDeletion } from '#contract/observation';
import type { ReleaseWhenGone } from '#contract/reconcile-activities';
import { DELETED_EXTERNAL_RESOURCE } from '#contract/write-back';
import { asActivity } from './failures';
import type { PassContext } from './pass-context';
import { ensureFinalizer, releaseObject } from './object-writes';
import { observeObject } from './read-and-observe';

export function externalCallActivities(ctx: PassContext) {
  const { kube, connectionSecrets } = ctx;
  return {
    /**
     * Creates the external resource (or finds the one an interrupted attempt made) and records
     * its name. Answers the versions it wrote, which the next pass must read or ignore as echoes.
     * `firstForObject` is the workflow's word that it never asked for a create of this object
     * before: only then may the provider skip its search for an earlier attempt's resource.
     * `addFinalizer`: the pass adds the finalizer right before the create, here, in one activity;
     * a failure after it carries the version it wrote (asActivity), which the workflow records
     * as its own so that write's watch event is not taken for an edit.
     */
    async createExternal(ref: ResourceRef, uid: string, firstForObject: boolean, addFinalizer = false): Promise<ExternalCreated> {
      const resourceVersions: string[] = [];
      return asActivity(async () => {
        const finalized = addFinalizer ? await ensureFinalizer(ctx, ref, uid, (mr) => nameBeforeCreate(ctx, ref, mr)) : undefined;
        if (finalized?.resourceVersion) resourceVersions.push(finalized.resourceVersion);
        // A retry finds the finalizer an earlier attempt added: the version it acts on is that
        // write's, unless someone changed the object since, and then this attempt acts on theirs.
        else if (finalized && activityInfo().attempt > 1) resourceVersions.push(finalized.object.metadata.resourceVersion);
        // The finalizer write's answer is the object as a GET would give it now.
        const mr = finalized?.object ?? (await ctx.current(ref, uid));
        // Refused before anything is created: details only create returns must have a home.
        await connectionSecrets.ensureWritable(mr);
        const mayExist = !firstForObject || activityInfo().attempt > 1;
        const created = await (await ctx.connect(ref, mr)).create(mr, { mayExist });
        if (ctx.options.exitAfterExternalCreate && activityInfo().attempt === 1) {
          log.error('failpoint exit-after-external-create: exiting before the create is recorded');
          process.exit(137);
        }
        // Before the name is recorded: a worker lost in between leaves the name unrecorded, so
        // the retry's create runs again, and the kind deals with details it can no longer read.
        const published = await connectionSecrets.publish(mr, ctx.kindOf(ref).api, created.connectionDetails);
        // Recorded already when the finalizer's write took the name the create gave.
        const recorded =
          mr.metadata.annotations?.[EXTERNAL_NAME] === created.externalName
            ? mr
            : await ctx.writeToSameObject(ref, uid, () =>
                ctx.ownWrite(uid, () => kube.patch(ref, uid, { metadata: { annotations: { [EXTERNAL_NAME]: created.externalName } } })),
              );
        if (recorded !== mr) resourceVersions.push(recorded.metadata.resourceVersion);
        // The create's own answer describes the resource as observe would now: the confirming
        // pass takes it, on whichever worker it runs. Its details were published just above.
        const told = created.observation && { ...created.observation, connectionDetails: undefined };
        const next = told ? await observeObject(ctx, ref, recorded, { told }) : undefined;
        // Named fields only: the connection details stay here.
        const summary = [finalized?.resourceVersion ? finalized.summary : undefined, created.summary, published].filter(Boolean).join('; ');
        return { externalName: created.externalName, summary, resourceVersions, ...(next ? { next } : {}) };
      }, resourceVersions);
    },

    async updateExternal(ref: ResourceRef, uid: string): Promise<string> {
      return asActivity(async () => {
        const mr = await ctx.current(ref, uid);
        return (await ctx.connect(ref, mr)).update(mr);
      });
    },

    /**
     * Deletes the external resource. When the provider answers that it is gone, so does this
     * (`gone`), and then either releases the object as the workflow decided (`releaseWhenGone`,
     * while the object is still the version it decided on), or answers the observation of the
     * pass that confirms the delete: that pass releases the object without asking the provider
     * again, on whichever worker it runs.
     */
    async deleteExternal(ref: ResourceRef, uid: string, releaseWhenGone?: ReleaseWhenGone): Promise<ExternalDeletion> {
      return asActivity(async () => {
        // The version the workflow decided on, from the cache: no GET per delete. A retry reads
        // fresh, as it always did: an attempt whose answer was lost may have released the
        // object, which the cache may not know yet.
        const mr =
          releaseWhenGone && activityInfo().attempt === 1
            ? await ctx.decidedOn(ref, uid, releaseWhenGone.decidedOn)
            : await ctx.current(ref, uid);
        const deleted = await (await ctx.connect(ref, mr)).delete(mr);
        if (typeof deleted === 'string') return { summary: deleted };
        if (!deleted.gone) return { summary: deleted.summary };
        const externalName = mr.metadata.annotations?.[EXTERNAL_NAME];
        const gone = { uid, ...(externalName !== undefined ? { externalName } : {}) };
        if (releaseWhenGone && mr.metadata.resourceVersion === releaseWhenGone.decidedOn) {
          const ownEvent = { type: 'Normal' as const, reason: DELETED_EXTERNAL_RESOURCE, message: deleted.summary };
          const released = await releaseObject(ctx, ref, uid, [...releaseWhenGone.events, ownEvent]);
          return { summary: deleted.summary, gone, released };
        }
        const next = await observeObject(ctx, ref, mr, { noExternal: gone });
        return { summary: deleted.summary, gone, next };
      });
    },
  };
}

/** The external name to record with the finalizer: the kind's word for it, if the object has none yet. */
function nameBeforeCreate(ctx: PassContext, ref: ResourceRef, mr: ManagedResource): Record<string, string> {
  if (mr.metadata.annotations?.[EXTERNAL_NAME] !== undefined) return {};
  const name = ctx.kindOf(ref).externalNameBeforeCreate?.(mr);
  return name ? { [EXTERNAL_NAME]: name } : {};
}
