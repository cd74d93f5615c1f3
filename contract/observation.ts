// What the activities hand the workflow each pass: the decision's inputs. Plain data only: it is
// recorded in workflow history, so it never carries secrets, nor the objects' bodies (observed
// states travel as digests, see activities/held-values.ts).
import type { Condition } from '#core/conditions';
import type { DeletionPolicy, ManagementAction } from '#core/managed';
import { deletesExternal } from '#core/management-policies';
import type { Readiness } from '#core/external-client';
import type { FailureClass } from '#core/errors';
import type { PollIntervals } from '#core/managed-kind';

export interface ObjectSnapshot {
  uid: string;
  generation: number;
  resourceVersion: string;
  deleting: boolean;
  paused: boolean;
  hasFinalizer: boolean;
  externalName?: string;
  deletionPolicy: DeletionPolicy;
  managementPolicies: ManagementAction[];
  conditions: Condition[];
  statusObservedGeneration?: number;
  /** The stand-in (digest) of what status mirrors of the external resource. */
  atProvider?: unknown;
  /** The crossplane.io/reconcile-requested-at token, when the object carries one. */
  reconcileRequestedAt?: string;
  /** status.lastHandledReconcileAt: the last token a pass recorded. */
  lastHandledReconcileAt?: string;
}

export interface ExternalSnapshot {
  resourceExists: boolean;
  resourceUpToDate: boolean;
  readiness?: Readiness;
  /** Why it is Unavailable, when the provider can say: the Ready condition's message. */
  readinessMessage?: string;
  /** The stand-in (digest) of the observed state, which writeBack swaps back in. */
  atProvider?: unknown;
  lateInitialized?: Record<string, unknown>;
  diff?: string;
  /**
   * Set when the external resource belongs to another object that exists: the refusal,
   * naming that owner, for the Synced and Ready conditions. Nothing else of it is observed.
   */
  ownedByAnother?: string;
  /**
   * Set when the provider was not asked at all, because deleting the object needs nothing of it
   * (see releasableWithoutProvider): why, for the pass summary. Such a snapshot says only that
   * there is nothing to delete; it tells nothing about what exists.
   */
  notObserved?: string;
}

/**
 * What the workflow remembers of its last look at the external resource: the external name a
 * pass found existing and owned by no other object, for the object with this uid. Only that
 * name may be deleted without observing it first (ManagedKind.deletesSynchronously): a name set
 * since then (another team's VPC id) is looked at before anything is deleted.
 */
export interface OwnedExternal {
  uid: string;
  externalName: string;
}

/**
 * What the workflow knows for certain: the object with this uid has no external resource, as
 * long as its external name stays this one (none at all for an object that was never created).
 * Its deletion then needs no provider. See noExternalAfter for how the workflow learns it.
 */
export interface NoExternal {
  uid: string;
  externalName?: string;
}

/**
 * What a delete call answered. `gone` when the provider deleted synchronously (a VPC): the
 * object then has no external resource, and `next` is the observation of the pass that confirms
 * it, which releases the object without asking again. Carried in the workflow, not in one
 * worker's memory, so that pass may run on any worker.
 */
export interface ExternalDeletion {
  summary: string;
  gone?: NoExternal;
  next?: PassObservation;
  /**
   * The object was released in the same call (ReleaseWhenGone): its finalizer removed, and the
   * events recorded. The workflow ends; no pass confirms the delete.
   */
  released?: string;
}

/** What a create call answered. */
export interface ExternalCreated {
  externalName: string;
  summary: string;
  /** The versions of the object the call wrote (the finalizer, the external name): the workflow's own echoes. */
  resourceVersions: string[];
  /**
   * The observation of the pass that confirms the create, when the provider's answer to it
   * said everything observe would (ExternalCreation.observation): that pass then asks nothing.
   */
  next?: PassObservation;
}

/** What the resolver found, as descriptions only: resolved values never enter history. */
export interface ReferenceObservation {
  /** Blocking references that are missing or not Ready yet. */
  waiting: string[];
  /** References that cannot resolve as written: a selector matching several objects, a cycle … */
  errors: string[];
  /** Fields the resolveReferences step would write, such as "vpcId from VPC team-a/main". */
  writes: string[];
  /** Managed objects this one depends on that do not carry its in-use mark yet. */
  unmarked: string[];
  /**
   * Whether it has marks to release when it goes: an in-use mark on a managed object, or an
   * Object's referred-by finalizer on another kind (the name is kept for recorded histories).
   */
  dependsOnManaged: boolean;
  /** Objects whose referred-by finalizer the resolveReferences step takes off: no longer referred to. */
  released?: string[];
}

export interface ProviderError {
  failureClass: FailureClass;
  message: string;
}

export type PassObservation =
  | { found: false }
  | {
      found: true;
      object: ObjectSnapshot;
      /** Absent when the resource is paused (nothing external is touched). */
      external?: ExternalSnapshot;
      externalError?: ProviderError;
      /** The kind's intervals, or the object's own (crossplane.io/poll-interval). */
      poll: PollIntervals;
      /** Why the object's crossplane.io/poll-interval cannot be honoured as written. */
      pollIntervalProblem?: string;
      /** The kind's provider calls are quick enough to run as local activities (ManagedKind.quickProviderCalls). */
      quickProviderCalls?: boolean;
      /** Absent when the object refers to nothing. */
      references?: ReferenceObservation;
      /** While deleting: dependents that must be gone before the external resource is deleted. */
      blockers?: string[];
    };

/**
 * Why deleting the object needs nothing of the provider, or undefined when it does: it orphans
 * its external resource, or the workflow knows it has none (`noExternal`). The observe activity
 * then releases it without connecting, so a broken ProviderConfig or kubeconfig cannot hold it.
 * An object that names an external resource it did not create (adoption by external name) is
 * not known to have none: its deletion needs the provider.
 */
export function releasableWithoutProvider(
  object: Pick<ObjectSnapshot, 'uid' | 'deleting' | 'externalName' | 'deletionPolicy' | 'managementPolicies'>,
  noExternal: NoExternal | undefined,
): string | undefined {
  if (!object.deleting) return undefined;
  if (!deletesExternal(object)) return 'it orphans its external resource';
  if (noExternal?.uid !== object.uid || noExternal.externalName !== object.externalName) return undefined;
  return object.externalName === undefined
    ? 'no external resource was ever created for it'
    : `its external resource ${object.externalName} is gone`;
}
