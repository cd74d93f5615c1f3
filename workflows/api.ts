// The reconcile workflow's public contract: its input, and the signal, update and query that the
// watcher and other services use through the Temporal client. Import-safe in workflow code.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ResourceRef } from '../runtime/managed-kind';
import type { EventNote } from '../activities/events';
import type { NoExternal, OwnedExternal } from './observation';
import type { MirrorLeftOut } from './status';

export const RECONCILE_WORKFLOW = 'reconcileManagedResource';

/** A watch event, reduced to identity: the workflow reads the object itself. */
export interface ResourceEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  uid: string;
  generation?: number;
  resourceVersion: string;
  /**
   * Set when the signal is a wake-up rather than the object's own change: something it depends
   * on (or that depends on it) changed. It always causes a pass.
   */
  wake?: boolean;
}

/** What one reconcile pass did, for queries, updates and the UI. */
export interface PassSummary {
  pass: number;
  at: string;
  generation?: number;
  actions: string[];
  error?: string;
}

export interface ReconcileState {
  ref: ResourceRef;
  uid?: string;
  passes: number;
  lastPass?: PassSummary;
  /** Ready and Synced as last written to the object. */
  ready: string;
  synced: string;
  consecutiveFailures: number;
}

/** Carried across continue-as-new so a fresh run resumes where the last one stopped. */
export interface CarriedState {
  uid?: string;
  passes: number;
  consecutiveFailures: number;
  /** resourceVersions the last pass wrote: their watch events are our own echo. */
  ownResourceVersions: string[];
  /** The newest resourceVersion of the object a signal brought or a pass wrote: no pass reads an older one. */
  knownResourceVersion?: string;
  /** The resourceVersion of the object the last pass read: watch events up to it are nothing new. */
  observedResourceVersion?: string;
  /** Whether the last pass created, updated or deleted the external resource (the next one then runs at once). */
  changedExternalInLastPass?: boolean;
  /**
   * The uid of the object this workflow last asked to create, or null when it never asked.
   * Absent in state carried from before it was tracked: then any create may have had a
   * predecessor, and the provider looks for one.
   */
  createRequestedFor?: string | null;
  /**
   * The external name the last pass that looked found this object owns: a delete of it may
   * skip looking again. Absent in state carried from before: then the delete looks first.
   */
  ownedExternal?: OwnedExternal;
  /** The object known to have no external resource, whose deletion needs no provider (see NoExternal). */
  noExternal?: NoExternal;
  /** Events of a pass that left its status to the pass right after it, which records them. */
  deferredEvents?: EventNote[];
  /** The observed state status could not hold as well, left out until it changes (see MirrorLeftOut). */
  mirrorLeftOut?: MirrorLeftOut;
  lastEventMessage?: string;
  ready: string;
  synced: string;
  dirty: boolean;
}

export interface ReconcileInput {
  ref: ResourceRef;
  carried?: CarriedState;
  /** History events after which a run continues as new; defaults to 2,000. */
  historyBudget?: number;
}

export const resourceEventSignal = defineSignal<[ResourceEvent]>('resourceEvent');
/** Runs a pass now and resolves with its summary: a synchronous "reconcile" for other services. */
export const reconcileNowUpdate = defineUpdate<PassSummary, []>('reconcileNow');
export const stateQuery = defineQuery<ReconcileState>('state');
