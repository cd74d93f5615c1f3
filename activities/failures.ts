// Maps errors onto Temporal failures. Non-retryable classes fail the activity at once so the
// workflow can show the message in Synced; everything else is retried by the retry policy.
import { ApplicationFailure } from '@temporalio/common';
import { ApiException } from '@kubernetes/client-node';
import { ClassifiedError, NON_RETRYABLE_CLASSES, type FailureClass } from '#core/errors';
import type { OwnWritesBeforeFailure } from '#contract/reconcile-activities';

function toFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  const { failureClass, message } = classify(error);
  return NON_RETRYABLE_CLASSES.includes(failureClass)
    ? ApplicationFailure.nonRetryable(message, failureClass)
    : ApplicationFailure.retryable(message, failureClass);
}

export function classify(error: unknown): { failureClass: FailureClass; message: string } {
  if (error instanceof ClassifiedError) return { failureClass: error.failureClass, message: error.message };
  if (error instanceof ApiException) {
    // The API server's own message is short and safe; the exception's text would add headers.
    const message = `Kubernetes API: ${kubeMessage(error)}`;
    if (error.code === 422 || error.code === 400) return { failureClass: 'InvalidInput', message };
    if (error.code === 401 || error.code === 403) return { failureClass: 'NotAuthorized', message };
    return { failureClass: 'Transient', message };
  }
  return { failureClass: 'Transient', message: error instanceof Error ? error.message : String(error) };
}

function kubeMessage(error: ApiException<unknown>): string {
  const body = error.body;
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message ?? `HTTP ${error.code}`;
    } catch {
      return `HTTP ${error.code}`;
    }
  }
  return (body as { message?: string } | undefined)?.message ?? `HTTP ${error.code}`;
}

/**
 * Runs an activity body and turns whatever it throws into the right kind of Temporal failure.
 * `written`: the versions of its own object the body wrote before it failed, which the failure
 * carries (OwnWritesBeforeFailure), so the workflow can tell their watch events from an edit.
 */
export async function asActivity<T>(body: () => Promise<T>, written?: readonly string[]): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw withOwnWrites(toFailure(error), written ?? []);
  }
}

function withOwnWrites(failure: ApplicationFailure, resourceVersions: readonly string[]): ApplicationFailure {
  if (resourceVersions.length === 0) return failure;
  const details: OwnWritesBeforeFailure = { resourceVersions: [...resourceVersions] };
  return ApplicationFailure.create({
    message: failure.message,
    type: failure.type ?? undefined,
    nonRetryable: failure.nonRetryable ?? undefined,
    details: [details],
  });
}
