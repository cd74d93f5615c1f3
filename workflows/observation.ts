// The one value the observe activity hands to the workflow each pass. Plain data only: it is
// recorded in workflow history, so it never carries secrets.
import type { Condition } from '../apis/conditions';
import type { DeletionPolicy, ManagementAction } from '../apis/managed';
import type { Readiness } from '../runtime/external-client';
import type { FailureClass } from '../runtime/errors';
import type { PollIntervals } from '../runtime/managed-kind';

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
  atProvider?: unknown;
}

export interface ExternalSnapshot {
  resourceExists: boolean;
  resourceUpToDate: boolean;
  readiness?: Readiness;
  atProvider?: unknown;
  lateInitialized?: Record<string, unknown>;
  diff?: string;
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
      poll: PollIntervals;
    };
