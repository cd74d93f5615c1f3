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

/** Socket-level failures: the server is down, gone from the network, or cut the connection. */
const CONNECTION_FAILURES =
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENOTFOUND|EAI_AGAIN|EPIPE)\b|socket hang up/;

/**
 * Whether `error` (or what it wraps: fetch puts the socket's error in `cause`) failed to reach
 * the server, or got no answer in time (the AWS SDK's HTTP handler names those TimeoutError).
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if ((typeof code === 'string' && CONNECTION_FAILURES.test(code)) || CONNECTION_FAILURES.test(e.message)) return true;
    if (e.name === 'TimeoutError') return true;
  }
  return false;
}
