// How the workflow reads what a failed activity reported.
import * as wf from '@temporalio/workflow';
import { ApplicationFailure } from '@temporalio/common';
import { OBJECT_GONE } from '#core/errors';
import type { OwnWritesBeforeFailure } from '#contract/reconcile-activities';

/**
 * The failure an activity reported, or undefined for anything else (a bug, a cancellation),
 * which must propagate. A regular activity's failure arrives wrapped in ActivityFailure; a
 * local activity's arrives as the ApplicationFailure itself.
 */
export function activityFailure(error: unknown): ApplicationFailure | undefined {
  if (error instanceof wf.ActivityFailure)
    return error.cause instanceof ApplicationFailure ? error.cause : ApplicationFailure.fromError(error.cause);
  return error instanceof ApplicationFailure ? error : undefined;
}

export function failureMessage(error: unknown): string {
  return activityFailure(error)?.message ?? (error instanceof Error ? error.message : String(error));
}

export const isObjectGone = (error: unknown): boolean => activityFailure(error)?.type === OBJECT_GONE;

/** The versions of its own object a failed activity wrote before it failed (OwnWritesBeforeFailure). */
export function ownWritesBefore(failure: ApplicationFailure | undefined): string[] {
  const written = failure?.details?.[0] as Partial<OwnWritesBeforeFailure> | undefined;
  const versions = written?.resourceVersions;
  return Array.isArray(versions) ? versions.filter((v): v is string => typeof v === 'string') : [];
}
