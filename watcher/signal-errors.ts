// Which signal failures are worth retrying. Temporal being briefly away (unavailable, deadline,
// throttled) is retried with backoff, forever if need be: an event is never dropped for that.
// A request Temporal refuses as written (an invalid argument, a namespace that does not exist,
// no permission) will be refused again; retrying it would only hold one of the signaler's
// concurrency slots for good, so it is reported and dropped. The next change to the object
// brings a new event, and the workflow's own poll is the safety net.
import { isGrpcServiceError } from '@temporalio/client';
import { status } from '@grpc/grpc-js';

const PERMANENT = new Set<number>([
  status.INVALID_ARGUMENT,
  status.NOT_FOUND,
  status.ALREADY_EXISTS,
  status.PERMISSION_DENIED,
  status.FAILED_PRECONDITION,
  status.OUT_OF_RANGE,
  status.UNIMPLEMENTED,
  status.UNAUTHENTICATED,
]);

export function isPermanentSignalError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (isGrpcServiceError(e)) return PERMANENT.has(e.code);
  }
  return false;
}
