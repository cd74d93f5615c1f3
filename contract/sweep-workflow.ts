// The sweep workflow's contract: its input, what one sweep found, and the query that shows it.
// Import-safe in workflow code; the worker uses it to start one sweep per kind.
import { defineQuery } from '@temporalio/workflow';
import type { ResourceRef } from '#core/managed-kind';

export const SWEEP_WORKFLOW = 'sweepManagedKind';

/** Which objects one sweep looks at: one kind, in every namespace or in one. */
export interface SweepScope {
  group: string;
  kind: string;
  /** The one namespace the worker serves (CHRONOPLANE_WATCH_NAMESPACE); all when absent. */
  namespace?: string;
}

export interface SweepInput {
  scope: SweepScope;
  /** The interval the last sweep reported, carried across continue-as-new for when a sweep fails. */
  intervalSeconds?: number;
  /** Scopes the last sweep could not read, carried across continue-as-new. */
  recovering?: string[];
  /** History events after which a run continues as new; defaults to 1,000. */
  historyBudget?: number;
}

/** A resource whose own workflow should look now: a settled one, or one of a scope that answers again. */
export interface WakeTarget {
  ref: ResourceRef;
  uid: string;
  resourceVersion: string;
  generation: number;
  /** Why, for the sweep's history in the UI: "drifted: tag team: want \"net\"". */
  reason: string;
}

/** What one sweep found: small, because it is recorded in the sweep's history. */
export interface SweepOutcome {
  /** Seconds until the next sweep: the kind's poll interval (or the test override). */
  intervalSeconds: number;
  /** Objects of the kind in scope. */
  listed: number;
  /** Of those, the settled ones the sweep observed. */
  swept: number;
  /** ProviderConfig and region pairs (for AWS) they fell into: one client and a few calls each. */
  scopes: number;
  wake: WakeTarget[];
  /** Scopes whose bulk read failed, with the error; their resources are woken to report it. */
  failures: string[];
  /** The names of those scopes, for the next sweep to watch for their recovery (absent in older histories). */
  failedScopes?: string[];
}

export interface SweepState {
  scope: SweepScope;
  sweeps: number;
  /** Wake-up signals sent, over this run. */
  woken: number;
  last?: SweepOutcome & { at: string };
  lastError?: string;
}

export const sweepStateQuery = defineQuery<SweepState>('sweepState');

/** `sweep/VPC.ec2.aws.chronoplane.io`, with `/<namespace>` for a worker that serves one namespace. */
export function sweepWorkflowIdFor(scope: SweepScope): string {
  return `sweep/${scope.kind}.${scope.group}${scope.namespace ? `/${scope.namespace}` : ''}`;
}

/** The sweep workflow's one activity, as it calls it (activities/sweep.ts implements it). */
export interface SweepActivities {
  /**
   * Lists the scope's managed objects, observes the settled ones in bulk, and says whom to wake.
   * `recovering`: the scopes whose bulk read failed last time.
   */
  sweepKind(scope: SweepScope, recovering?: readonly string[]): Promise<SweepOutcome>;
}
