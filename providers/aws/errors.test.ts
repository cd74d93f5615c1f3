import { describe, expect, it } from 'vitest';
import { classifyAwsError, describeAwsError } from './errors';

const awsError = (name: string, status: number, fault: 'client' | 'server', extra: object = {}) =>
  Object.assign(new Error(`${name} happened`), { name, $fault: fault, $metadata: { httpStatusCode: status }, ...extra });

describe('classifyAwsError', () => {
  it('treats a rejected request as invalid input, with the provider\u2019s message', () => {
    const error = awsError('InvalidVpc.Range', 400, 'client');
    expect(classifyAwsError(error)).toBe('InvalidInput');
    expect(describeAwsError(error)).toBe('InvalidVpc.Range: InvalidVpc.Range happened');
  });
  it('retries throttling and server errors', () => {
    expect(classifyAwsError(awsError('RequestLimitExceeded', 503, 'client'))).toBe('Transient');
    expect(classifyAwsError(awsError('InternalError', 500, 'server'))).toBe('Transient');
  });
  it('tells an endpoint that does not answer from one that answers with an error', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5000'), { code: 'ECONNREFUSED', $metadata: { attempts: 3 } });
    expect(classifyAwsError(refused)).toBe('Unreachable');
    expect(classifyAwsError(new Error('socket hang up'))).toBe('Unreachable');
    expect(classifyAwsError(Object.assign(new Error('Connection timed out after 5000 ms'), { name: 'TimeoutError' }))).toBe('Unreachable');
    expect(classifyAwsError(awsError('ServiceUnavailable', 503, 'server'))).toBe('Transient');
  });
  it('sets credential problems apart', () => {
    expect(classifyAwsError(awsError('AuthFailure', 401, 'client'))).toBe('NotAuthorized');
  });
});
