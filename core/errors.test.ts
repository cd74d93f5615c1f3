import { describe, expect, it } from 'vitest';
import { isConnectionFailure } from './errors';

describe('isConnectionFailure', () => {
  it('finds a socket failure, also where fetch wraps it as its cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    expect(isConnectionFailure(refused)).toBe(true);
    expect(isConnectionFailure(new TypeError('fetch failed', { cause: refused }))).toBe(true);
    expect(isConnectionFailure(new Error('socket hang up'))).toBe(true);
    expect(
      isConnectionFailure(Object.assign(new Error('getaddrinfo ENOTFOUND ec2.mars-north-1.amazonaws.com'), { code: 'ENOTFOUND' })),
    ).toBe(true);
  });

  it('counts a call that got no answer in time', () => {
    expect(isConnectionFailure(Object.assign(new Error('Connection timed out after 5000 ms'), { name: 'TimeoutError' }))).toBe(true);
  });

  it('is false for an answer, however unwelcome', () => {
    expect(isConnectionFailure(new Error('the target cluster does not serve Widget in example.com/v1'))).toBe(false);
    expect(isConnectionFailure(Object.assign(new Error('Rate exceeded'), { name: 'Throttling' }))).toBe(false);
    expect(isConnectionFailure('ECONNREFUSED')).toBe(false); // not an Error: nothing to go by
  });
});
