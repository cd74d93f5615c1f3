// The provider contract, in the spirit of crossplane-runtime's managed.ExternalClient.
//
// Contract for every implementation:
// - No call blocks waiting for the external resource to settle; the reconcile workflow polls.
// - Every call is idempotent. Create called twice for the same managed resource must not make a
//   second external resource (find the first by its tags, or use a client token; the search may
//   be skipped only when CreateAttempt.mayExist is false), and Delete of a resource that is
//   already gone is a success.
// - Observe never changes the external resource.
// - Errors are thrown as the provider's own errors; `classifyProviderError` (per provider)
//   decides whether a retry can help. Never put secrets in an error message.
import type { ManagedResource } from './managed-resource';

export type Readiness = 'Available' | 'Creating' | 'Deleting' | 'Unavailable';

/** Everything the reconciler decides flows from this one small value. */
export interface ExternalObservation<F, A> {
  resourceExists: boolean;
  /** False when forProvider and the external resource disagree (a spec edit or drift). */
  resourceUpToDate: boolean;
  /** Whether the provider considers the resource ready for use. */
  readiness?: Readiness;
  /** Why an Unavailable resource is unusable, for the Ready condition's message (a blackhole route's gone target). */
  readinessMessage?: string;
  /** The external resource's state, for status.atProvider. */
  atProvider?: A;
  /** forProvider fields the spec left empty and the provider filled in (late initialization). */
  lateInitialized?: Partial<F>;
  /** A short human-readable description of what is out of date, for events and conditions. */
  diff?: string;
  /** What to publish to the resource's connection Secret (see ConnectionDetails). */
  connectionDetails?: ConnectionDetails;
  /**
   * The managed resource that the external resource says owns it, when that is another object
   * than the one observed (another uid). Absent when it names this object or nobody. The engine
   * then touches nothing (no update, tag or delete) while that owner exists, and adopts the
   * resource once it is gone (see activities/ownership.ts).
   */
  claimedBy?: ExternalClaim;
}

/**
 * An owner as an external resource records it: Crossplane's crossplane-kind (`<singular>.<group>`),
 * crossplane-namespace and crossplane-name, and Chronoplane's uid. The names are absent when
 * the resource does not carry them.
 */
export interface ExternalClaim {
  uid: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

/**
 * Connection details: what a user of the external resource needs to reach it (an address, a
 * private key). The engine writes them to the Secret named by `spec.writeConnectionSecretToRef`
 * inside the activity that obtained them, and strips them from what the activity returns, so
 * they never reach the workflow, its history, status, events or logs. A kind only returns them.
 */
export type ConnectionDetails = Record<string, string>;

export interface ExternalCreation<F = unknown, A = unknown> {
  /** The provider's identifier, recorded in the crossplane.io/external-name annotation. */
  externalName: string;
  /** A one-line account of what was done, shown in the Temporal UI. */
  summary: string;
  /** Details only the create call can return (a key pair's private key); see ConnectionDetails. */
  connectionDetails?: ConnectionDetails;
  /**
   * What the create call's own answer already says about the new resource, exactly as observe
   * would report it now. The pass right after the create then needs no provider call to
   * confirm it (it travels with the create's answer, activities/external-calls.ts). Leave it out when unsure.
   */
  observation?: ExternalObservation<F, A>;
}

/** What the engine knows about a create before it calls the kind. */
export interface CreateAttempt {
  /**
   * Absent CreateAttempt counts as mayExist: true.
   *
   * False only when no earlier attempt for this object can have made anything: the workflow
   * never asked for a create before, and this is the activity's first try. Only then may a
   * kind skip its search for an earlier attempt's resource (by uid tag or client token).
   */
  mayExist: boolean;
}

export interface ExternalDeletion {
  summary: string;
  /**
   * The provider deleted the resource synchronously, so it is gone now: the next pass takes
   * that as its observation instead of asking. False or absent when deletion only started.
   */
  gone?: boolean;
}

export interface ExternalClient<F, A> {
  observe(mr: ManagedResource<F, A>): Promise<ExternalObservation<F, A>>;
  create(mr: ManagedResource<F, A>, attempt?: CreateAttempt): Promise<ExternalCreation<F, A>>;
  /** Brings the external resource in line with forProvider; returns a one-line summary. */
  update(mr: ManagedResource<F, A>): Promise<string>;
  /**
   * Starts deletion; returns once the provider accepted it (or the resource is already gone),
   * with a one-line summary or, when it knows the resource is gone, an ExternalDeletion.
   */
  delete(mr: ManagedResource<F, A>): Promise<string | ExternalDeletion>;
  /**
   * Optional, and present exactly when the kind declares `bulkObservation`: observes many
   * resources at once for a sweep, in as few calls as the provider allows. Every resource given
   * shares one scope (`BulkObservation.scopeOf`), the one this client was connected for. Same
   * contract as observe: read-only, never blocking. Answers by uid, leaving out resources with
   * no external name. Each answer comes from the same conversion code as observe's; a field
   * the provider can only read one resource at a time is taken as the spec has it (so it is
   * never reported as drift here), and the kind documents which fields those are.
   */
  observeMany?(mrs: readonly ManagedResource<F, A>[]): Promise<Map<string, SweptObservation<A>>>;
  /**
   * Optional: keeps others from deleting the external resource while managed resources that
   * depend on it exist, so that uninstall order holds even when someone deletes it directly at
   * the provider (seed 002, "Uninstall Order": provider-kubernetes puts a finalizer on the
   * target object). `inUse` says whether dependents hold it now; with false, let go. Called
   * after an observe that found the resource, and only when the engine would delete it itself
   * (deletionPolicy Delete and a Delete policy). Idempotent; answers a one-line summary when it
   * changed something, else undefined, and makes no call when the observed state already fits.
   */
  protect?(mr: ManagedResource<F, A>, observation: ExternalObservation<F, A>, inUse: boolean): Promise<string | undefined>;
}

/**
 * What a sweep learns about one resource: observe's answer without late initialization, which
 * only the resource's own pass acts on.
 */
export type SweptObservation<A = unknown> = Omit<ExternalObservation<unknown, A>, 'lateInitialized' | 'connectionDetails'>;

export interface ClusterKind {
  group: string;
  version: string;
  plural: string;
}

/** What a connector may read to authenticate: the Kubernetes API of the control plane. */
export interface ConnectContext {
  getClusterObject(api: ClusterKind, name: string): Promise<Record<string, unknown> | undefined>;
  getSecretValue(namespace: string, name: string, key: string): Promise<string | undefined>;
  /** A namespaced object of a custom kind (a namespaced ProviderConfig); undefined when missing. */
  getNamespacedObject?(api: ClusterKind, namespace: string, name: string): Promise<Record<string, unknown> | undefined>;
  /**
   * A namespace's labels, undefined when it does not exist: what a ClusterProviderConfig's
   * namespaceSelector is checked against. Served from a watch or a short cache, so a settled
   * resource's pass costs no API read for it. Absent where it cannot be read; a selector then
   * refuses (runtime/provider-config.ts).
   */
  getNamespaceLabels?(namespace: string): Promise<Record<string, string> | undefined>;
  /**
   * Asks for a pass of this resource's workflow now. For kinds that watch their external system
   * (provider-kubernetes' Object watches its target objects): a change there is acted on at
   * once instead of at the next poll. Absent where nothing can signal; such kinds then poll.
   */
  wake?(mr: ManagedResource): void;
  /**
   * Reads an object of the control cluster, of any kind, and wakes `dependent` whenever it
   * changes until `forgetControlObjects`: a KubernetesApplicationResource's source Secrets and
   * its application. Served from one shared watch per kind; a plain read where nothing can wake.
   */
  readControlObject?(key: ControlObjectKey, dependent: ManagedResource): Promise<Record<string, unknown> | undefined>;
  /**
   * Lists the objects of a kind in one namespace of the control cluster, and wakes `dependent`
   * whenever one of them for which `wakesFor` holds changes, appears or goes, until
   * `forgetControlObjects`: a scheduler waiting for a matching cluster, an owner for its children.
   */
  listControlObjects?(
    scope: Omit<ControlObjectKey, 'name'>,
    dependent: ManagedResource,
    wakesFor?: (obj: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>[]>;
  /**
   * `dependent` no longer waits on what it read through the two methods above: all of it, or
   * `only` that object, or with no name that list.
   */
  forgetControlObjects?(dependentUid: string, only?: Omit<ControlObjectKey, 'name'> & { name?: string }): void;
}

/** An object of the control cluster by apiVersion; `namespace` is '' for a cluster-scoped kind. */
export interface ControlObjectKey {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Turns a managed resource plus its ProviderConfig into an authenticated external client. */
export interface Connector<F, A> {
  connect(mr: ManagedResource<F, A>, context: ConnectContext): Promise<ExternalClient<F, A>>;
}
