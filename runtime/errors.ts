// How a failure should be handled. Activities translate provider errors into these classes,
// and the activity layer maps them onto Temporal failures: retryable ones are retried by the
// activity's retry policy with backoff; the others fail fast and surface as Synced=False.

export type FailureClass =
  /** The request can never succeed as written (bad CIDR, unknown field value): fix the spec. */
  | 'InvalidInput'
  /** Credentials or permissions are wrong: fix the ProviderConfig or its Secret. */
  | 'NotAuthorized'
  /** Configuration Chronoplane needs is missing, such as the ProviderConfig. */
  | 'MissingConfiguration'
  /** Throttling, 5xx or network trouble: retrying later may succeed. */
  | 'Transient'
  /**
   * The external system does not answer at all (connection refused, a call timed out): retrying
   * later may succeed, but until then nobody knows the external resource's state, so it is not
   * reported Ready.
   */
  | 'Unreachable';

export const NON_RETRYABLE_CLASSES: readonly FailureClass[] = ['InvalidInput', 'NotAuthorized', 'MissingConfiguration'];

/** An error whose class is already known, with a message safe to show users. */
export class ClassifiedError extends Error {
  constructor(
    readonly failureClass: FailureClass,
    message: string,
  ) {
    super(message);
    this.name = failureClass;
  }
}

/** The failure type of an activity that found its object deleted, or replaced by a new one. */
export const OBJECT_GONE = 'ObjectGone';
