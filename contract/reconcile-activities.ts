// The reconcile workflow's activities as the workflow calls them: what each is given and what it
// answers. The workflow proxies this interface (workflows/steps.ts, pass.ts); the activities
// implement it (activities/reconcile.ts). Every answer is recorded in history: plain data, no
// secrets, no object bodies.
import type { ResourceRef } from '#core/managed-kind';
import type { ExternalCreated, ExternalDeletion, NoExternal, OwnedExternal, PassObservation } from './observation';
import type { EventNote, WriteBack, WriteBackResult } from './write-back';

/** What the workflow knows that lets a pass skip the provider (see OwnedExternal and NoExternal). */
export interface PassKnowledge {
  owned?: OwnedExternal;
  noExternal?: NoExternal;
}

/** A write's summary for the UI, and the version it wrote, if it wrote one: the workflow's own echo. */
export interface ObjectWritten {
  summary: string;
  resourceVersion?: string;
}

/**
 * The release the workflow decided on for when a delete answers gone: the pass after the
 * delete would do nothing but remove the finalizer and record these events, so the delete call
 * does it at once, sparing that pass its own call. Only while the object is still the version
 * the workflow decided on: a change since may change the decision, and then a pass decides.
 */
export interface ReleaseWhenGone {
  decidedOn: string;
  /** Events to record with the release, before the deletion's own (DELETED_EXTERNAL_RESOURCE). */
  events: EventNote[];
}

/**
 * What a failed activity's failure carries as its first detail when it wrote its own object
 * before failing (a create that added the finalizer, then failed): the versions it wrote.
 */
export interface OwnWritesBeforeFailure {
  resourceVersions: string[];
}

export interface ReconcileActivities {
  /**
   * Reads the object (from the worker's cache, no older than `atLeast`: the newest version the
   * workflow heard of or wrote) and observes its external resource.
   */
  observe(ref: ResourceRef, atLeast: string | undefined, known: PassKnowledge): Promise<PassObservation>;
  addFinalizer(ref: ResourceRef, uid: string): Promise<ObjectWritten>;
  /** Removes the finalizer, then records `events`: what the pass that releases the object did. */
  removeFinalizer(ref: ResourceRef, uid: string, events?: EventNote[]): Promise<string>;
  /** Writes resolved references into the object and marks what it depends on as in use. */
  resolveReferences(ref: ResourceRef, uid: string): Promise<ObjectWritten>;
  /** Takes this object's in-use marks off what it depends on. */
  releaseDependencies(ref: ResourceRef, uid: string): Promise<string>;
  /**
   * Creates the external resource and records its name. `firstForObject`: the workflow never
   * asked for a create of this object before, so the provider may skip its search for an
   * earlier attempt's resource. `addFinalizer`: add the finalizer first, in the same call.
   */
  createExternal(ref: ResourceRef, uid: string, firstForObject: boolean, addFinalizer?: boolean): Promise<ExternalCreated>;
  /** Brings the external resource in line with the spec; a one-line summary. */
  updateExternal(ref: ResourceRef, uid: string): Promise<string>;
  /** Deletes the external resource; `releaseWhenGone`: release the object too, if it answers gone. */
  deleteExternal(ref: ResourceRef, uid: string, releaseWhenGone?: ReleaseWhenGone): Promise<ExternalDeletion>;
  /** Writes a pass's outcome back: late-initialized spec fields, status, and events. */
  writeBack(ref: ResourceRef, uid: string, outcome: WriteBack): Promise<WriteBackResult>;
}
