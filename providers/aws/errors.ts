// Sorts AWS SDK errors into failure classes. The SDK already knows whether it would retry
// ($retryable, $fault); we add the AWS error codes that mean "your input is wrong" or
// "your credentials are wrong", so those fail fast and show in Synced instead of retrying.
import { ClassifiedError, isConnectionFailure, type FailureClass } from '#core/errors';

const AUTH_CODES = new Set([
  'AuthFailure',
  'UnauthorizedOperation',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'OptInRequired',
  'Blocked',
]);
const THROTTLING_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'TooManyRequestsException',
]);

interface AwsServiceError {
  name?: string;
  message?: string;
  $fault?: 'client' | 'server';
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** The AWS error code, such as InvalidVpcID.NotFound: the SDK gives it as the error's name. */
export function errorCode(error: unknown): string | undefined {
  return (error as AwsServiceError | undefined)?.name;
}

export function classifyAwsError(error: unknown): FailureClass {
  if (error instanceof ClassifiedError) return error.failureClass;
  // No answer at all (the SDK gives up after its own retries): nobody can see the resources there.
  if (isConnectionFailure(error)) return 'Unreachable';
  const e = error as AwsServiceError;
  const code = errorCode(error) ?? '';
  const status = e?.$metadata?.httpStatusCode;
  if (THROTTLING_CODES.has(code) || e?.$retryable) return 'Transient';
  if (AUTH_CODES.has(code) || status === 401 || status === 403) return 'NotAuthorized';
  if (e?.$fault === 'client' && status !== undefined && status < 500) return 'InvalidInput';
  return 'Transient';
}

/** `InvalidVpc.Range: The CIDR '10.0.0.0/8' is invalid.` — the provider's own words, with its code. */
export function describeAwsError(error: unknown): string {
  const code = errorCode(error);
  const prefix = code && code !== 'Error' ? `${code}: ` : '';
  return `${prefix}${(error as AwsServiceError)?.message ?? String(error)}`;
}
