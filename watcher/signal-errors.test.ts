import { describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { ServiceError } from '@temporalio/client';
import { isPermanentSignalError } from './signal-errors';

const grpc = (code: number) => Object.assign(new Error(`grpc ${code}`), { code, details: '', metadata: {} });

describe('isPermanentSignalError', () => {
  it.each([
    ['an invalid argument (a search attribute Temporal does not know)', status.INVALID_ARGUMENT, true],
    ['a namespace that does not exist', status.NOT_FOUND, true],
    ['no permission', status.PERMISSION_DENIED, true],
    ['Temporal unavailable', status.UNAVAILABLE, false],
    ['a deadline', status.DEADLINE_EXCEEDED, false],
    ['throttling', status.RESOURCE_EXHAUSTED, false],
  ])('%s → permanent: %s', (_, code, permanent) => {
    expect(isPermanentSignalError(grpc(code))).toBe(permanent);
    // The client wraps gRPC errors in its own ServiceError.
    expect(isPermanentSignalError(new ServiceError('wrapped', { cause: grpc(code) }))).toBe(permanent);
  });

  it('retries anything that is not a gRPC answer (a socket error, say)', () => {
    expect(isPermanentSignalError(new Error('socket hang up'))).toBe(false);
  });
});
