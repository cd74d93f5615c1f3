// The reconcile workflow's public contract: its input, and the signal, update and query that the
// watcher and other services use through the Temporal client. Import-safe in workflow code.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ResourceRef } from '#core/managed-kind';
import type { NoExternal, OwnedExternal, PassObservation } from './observation';
import type { EventNote, MirrorLeftOut } from './write-back';

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

/**
 * What the `state` query answers, for services that query workflows through the Temporal client.
 * @public
 */
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

/** The workflow's memory between passes, carried across continue-as-new so a fresh run resumes. */
export interface CarriedState {
  passes: number;
  consecutiveFailures: number;
  /** A watch event or wake-up arrived that no pass has covered yet. */
  dirty: boolean;
  object: ObjectKnowledge;
  external: ExternalKnowledge;
  status: StatusKnowledge;
}

/** What the workflow knows of its object in the API server. */
export interface ObjectKnowledge {
  uid?: string;
  /** resourceVersions the last pass wrote: their watch events are our own echo. */
  ownResourceVersions: string[];
  /** The newest resourceVersion a signal brought or a pass wrote: no pass reads an older one. */
  knownResourceVersion?: string;
  /** The resourceVersion of the object the last pass read: watch events up to it are nothing new. */
  observedResourceVersion?: string;
  /**
   * While a create that adds the finalizer runs: the versions its object's watch events brought,
   * judged once the create answers with the versions it wrote (workflows/echoes.ts).
   */
  heldEvents?: string[];
}

/** What the workflow knows of the external resource. */
export interface ExternalKnowledge {
  /** The uid of the object this workflow last asked to create, or null when it never asked. */
  createRequestedFor: string | null;
  /** The external name a pass found this object owns: a delete of it may skip looking again. */
  owned?: OwnedExternal;
  /** The object known to have no external resource, whose deletion needs no provider. */
  none?: NoExternal;
  /** Whether the last pass created, updated or deleted it: the next pass then runs at once. */
  changedInLastPass: boolean;
  /** The observation of the pass that confirms that change, when the call's own answer said it all. */
  confirmation?: PassObservation;
}

/** What the workflow last wrote to status, and what the next write owes. */
export interface StatusKnowledge {
  /** Ready and Synced as last written, also kept in search attributes. */
  ready: string;
  synced: string;
  /** Events of a pass that left its status to the pass right after it, which records them. */
  deferredEvents?: EventNote[];
  /** The observed state status could not hold as well, left out until it changes (see MirrorLeftOut). */
  mirrorLeftOut?: MirrorLeftOut;
  /** The last failure an event reported: the same failure again records no new event. */
  lastEventMessage?: string;
}

export interface ReconcileInput {
  ref: ResourceRef;
  /**
   * The watch event the workflow was started for, when the watcher started it rather than
   * signalled it (eager start, watcher/signaler.ts): heard as the signal would have been.
   */
  event?: ResourceEvent;
  carried?: CarriedState;
  /** History events after which a run continues as new; defaults to 2,000. */
  historyBudget?: number;
}

export const resourceEventSignal = defineSignal<[ResourceEvent]>('resourceEvent');
/** Runs a pass now and resolves with its summary: a synchronous "reconcile" for other services. */
export const reconcileNowUpdate = defineUpdate<PassSummary, []>('reconcileNow');
export const stateQuery = defineQuery<ReconcileState>('state');
