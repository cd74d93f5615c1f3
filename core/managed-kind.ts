// A managed kind: its API identity and schema, how to reach its provider, and how often to poll.
// One value of this type per kind is registered in providers/registry.ts; the CRD generator,
// the watcher and the worker's activities all read from that registry.
import type { TObject, TProperties, TSchema } from '@sinclair/typebox';
import type { Condition } from './conditions';
import type { Connector } from './external-client';
import type { ManagedResource } from './managed-resource';
import type { KindApi } from './kind-api';
import type { ReferenceDeclaration } from './references/declaration';

export type { KindApi };

export const isClusterScoped = (api: Pick<KindApi, 'scope'>): boolean => api.scope === 'Cluster';

/**
 * An optional capability: a kind that reproduces an existing API exactly (provider-kubernetes'
 * Object), so that its manifests apply unchanged. Its CRD takes this whole spec instead of the
 * standard managed spec around forProvider, serves `olderVersions` with the same schema, and
 * shows these printer columns instead of the standard ones.
 */
export interface CompatibleApi {
  spec: TObject;
  /** Versions served besides `api.version`, deprecated and not stored, with the same schema. */
  olderVersions?: readonly string[];
  printerColumns: readonly PrinterColumn[];
  /** Where patchesFrom's toFieldPath counts from; spec.forProvider unless said otherwise. */
  patchRoot?: string;
  /** The kind's own status fields in place of status.atProvider; see CompatibleStatus. */
  status?: CompatibleStatus;
}

/**
 * Status fields of an API reproduced exactly (a KubernetesApplicationResource's `state`,
 * `clusterRef` and `remote`) in place of status.atProvider. The engine keeps working with
 * atProvider and the conditions; the activities map them to and from these fields, so the
 * workflow never learns a kind's status shape. Both functions are pure.
 */
export interface CompatibleStatus<A = any> {
  /** The fields as they appear under status, besides conditions and observedGeneration. */
  fields: TProperties;
  /**
   * The status fields to write for a pass: its atProvider (the last known one when the pass
   * learned none) and its conditions. The whole status is replaced: a field left out is removed.
   */
  write(atProvider: A | undefined, conditions: readonly Condition[]): Record<string, unknown>;
  /** What the engine takes as atProvider from the stored status. */
  read(status: Record<string, unknown>): A | undefined;
}

export interface PollIntervals {
  /** How often a settled resource is re-observed to detect drift. */
  steadySeconds: number;
  /** How often a resource that is still being created or deleted is re-observed. */
  pendingSeconds: number;
  /**
   * For kinds with bulk observation: how long a settled resource waits for a wake-up before it
   * looks for itself. The kind's sweep looks for drift every `steadySeconds` and wakes only
   * the resources that drifted; this slow pass is the safety net, and the one place that reads
   * the fields a sweep cannot (see the kind's `bulkObservation`).
   */
  safetyNetSeconds?: number;
}

/**
 * An optional capability: the kind's clients implement `observeMany`, so a sweep workflow
 * (workflows/sweep.ts) can look at all its settled resources in a few calls per poll interval
 * and wake only those that drifted. Their own workflows then poll only at `safetyNetSeconds`.
 */
export interface BulkObservation<F = any, A = any> {
  /**
   * Which resources one connected client can observe together, such as one ProviderConfig and
   * region: equal keys share a client and an observeMany call. Pure and cheap: no SDK loads.
   */
  scopeOf(mr: ManagedResource<F, A>): string;
  /** forProvider fields observeMany cannot read; only the safety-net pass checks them. */
  unsweptFields: readonly string[];
}

/** A column of `kubectl get`, as a CRD's additionalPrinterColumns takes it. */
export type PrinterColumn = {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  /** 0 shows in `kubectl get`; higher only with `-o wide`. */
  priority?: number;
};

export interface ManagedKind<F = any, A = any> {
  api: KindApi;
  forProvider: TObject;
  atProvider: TSchema;
  connector: Connector<F, A>;
  poll: PollIntervals;
  /**
   * Fields of forProvider whose value can come from another managed resource. Declared once:
   * the CRD gains `<field>Ref` / `<field>Selector`, and the resolver, the watcher's wake-ups
   * and the deletion guard all read this list.
   */
  references?: readonly ReferenceDeclaration[];
  /**
   * The provider deletes this kind synchronously (its delete answers `gone: true`, see
   * ExternalDeletion), and deleting what is already gone succeeds, as the contract requires. A
   * resource being deleted is then not observed first: its delete is called at once, and
   * reports whether anything was there. One provider call per delete instead of two.
   */
  deletesSynchronously?: boolean;
  /**
   * The provider answers create, update and delete within a second or two (a Kubernetes API
   * server, not a cloud API), so the workflow runs them as local activities: one marker event
   * each in history instead of three activity events and a workflow task to hear the result,
   * and no trip through the task queue. A worker that dies mid-call has the call retried when
   * its workflow task times out, as for observe; every call is idempotent by contract.
   */
  quickProviderCalls?: boolean;
  /**
   * The external name a create will give, when the spec alone says it (an Object's is its
   * manifest's name): undefined when only the create can tell. A pass that adds the finalizer
   * right before a create then records this name in the same write, where it would otherwise
   * make a write of its own after the create: one API-server write less per create. Only an
   * object with no external name yet gets it; a name someone set (to adopt) is never changed.
   * Not for a kind whose connection details only its create returns (a KeyPair's private key):
   * there the name must stay unrecorded until they are published (activities/external-calls.ts).
   * Pure and cheap: no SDK loads.
   */
  externalNameBeforeCreate?(mr: ManagedResource<F, A>): string | undefined;
  /** Bulk observation for drift detection by a sweep; absent, every resource polls itself. */
  bulkObservation?: BulkObservation<F, A>;
  /**
   * Columns of the kind's own in `kubectl get` (an instance's STATE and PRIVATE-IP), shown after
   * Crossplane's READY, SYNCED and EXTERNAL-NAME and before AGE.
   */
  printerColumns?: readonly PrinterColumn[];
  /** An API reproduced exactly rather than the standard managed one; see CompatibleApi. */
  compatibleApi?: CompatibleApi;
}

/**
 * Identifies one managed resource; it is all a workflow or a signal carries about the object.
 * No served version or plural: durable workflow state must outlive a CRD version change, so
 * the activities look the served version up in the registry.
 */
export interface ResourceRef {
  group: string;
  kind: string;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
}

export const apiVersionOf = (api: Pick<KindApi, 'group' | 'version'>): string => `${api.group}/${api.version}`;

/**
 * `VPC.ec2.aws.chronoplane.io/default/my-vpc`: readable in the Temporal UI and unique per object.
 * A cluster-scoped object's is `Object.kubernetes.crossplane.io//name`: no namespace can be empty.
 */
export function workflowIdFor(ref: ResourceRef): string {
  return `${ref.kind}.${ref.group}/${ref.namespace}/${ref.name}`;
}

export function refFor(api: KindApi, namespace: string, name: string): ResourceRef {
  return { group: api.group, kind: api.kind, namespace, name };
}

/**
 * Defers loading a provider's SDK until the first connect. Processes that only need a kind's
 * API identity (the watcher, the CRD generator) then never load it: the EC2 SDK alone costs
 * about 100 MiB of memory.
 */
export function lazyConnector<F, A>(load: () => Promise<Connector<F, A>>): Connector<F, A> {
  let loaded: Promise<Connector<F, A>> | undefined;
  return {
    async connect(mr, context) {
      loaded ??= load();
      return (await loaded).connect(mr, context);
    },
  };
}
