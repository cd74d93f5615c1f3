// A managed kind: its API identity and schema, how to reach its provider, and how often to poll.
// One value of this type per kind is registered in providers/registry.ts; the CRD generator,
// the watcher and the worker's activities all read from that registry.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Connector } from './external-client';
import type { ReferenceDeclaration } from './references/declaration';

export interface KindApi {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  /** One line for `kubectl explain <kind>`. */
  description: string;
}

export interface PollIntervals {
  /** How often a settled resource is re-observed to detect drift. */
  steadySeconds: number;
  /** How often a resource that is still being created or deleted is re-observed. */
  pendingSeconds: number;
}

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
}

/**
 * Identifies one managed resource; it is all a workflow or a signal carries about the object.
 * No served version or plural: durable workflow state must outlive a CRD version change, so
 * the activities look the served version up in the registry.
 */
export interface ResourceRef {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

export const apiVersionOf = (api: Pick<KindApi, 'group' | 'version'>): string => `${api.group}/${api.version}`;

/** `VPC.ec2.aws.chronoplane.io/default/my-vpc`: readable in the Temporal UI and unique per object. */
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
