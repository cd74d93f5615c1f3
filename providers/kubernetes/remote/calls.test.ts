import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { TargetCalls } from './calls';

const apiError = (code: number, message: string) => new ApiException(code, 'failed', JSON.stringify({ kind: 'Status', message }), {});

describe('TargetCalls', () => {
  const calls = new TargetCalls('target cluster (ProviderConfig "remote-1")', 50);

  it('answers notFound for a 404 when the caller expects one', async () => {
    expect(
      await calls.run(
        'get ConfigMap default/c',
        () => Promise.reject(apiError(404, 'not found')),
        () => 'gone',
      ),
    ).toBe('gone');
  });

  it('classifies the target’s answer and names the ProviderConfig, with the target’s own message', async () => {
    await expect(calls.run('apply ConfigMap default/c', () => Promise.reject(apiError(422, 'data: Invalid value')))).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'target cluster (ProviderConfig "remote-1"): cannot apply ConfigMap default/c: data: Invalid value',
    });
    await expect(calls.run('apply ConfigMap x/c', () => Promise.reject(apiError(404, 'namespaces "x" not found')))).rejects.toMatchObject({
      failureClass: 'Transient',
      message: 'target cluster (ProviderConfig "remote-1"): cannot apply ConfigMap x/c: namespaces "x" not found',
    });
    await expect(
      calls.run('apply Widget default/w of example.com/v1', () =>
        Promise.reject(new ApiException(404, 'failed', '404 page not found', {})),
      ),
    ).rejects.toMatchObject({
      failureClass: 'Transient',
      message:
        'target cluster (ProviderConfig "remote-1"): cannot apply Widget default/w of example.com/v1: the target cluster does not serve this kind (yet)',
    });
    await expect(calls.run('get ConfigMap default/c', () => Promise.reject(apiError(403, 'forbidden')))).rejects.toMatchObject({
      failureClass: 'NotAuthorized',
    });
    await expect(
      calls.run('get ConfigMap default/c', () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6443'))),
    ).rejects.toMatchObject({ failureClass: 'Unreachable', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('tells a cluster that does not answer from one that answers no', async () => {
    // fetch reports a refused connection as "fetch failed", with the socket's error as its cause.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    const failed = new TypeError('fetch failed', { cause: refused });
    await expect(calls.run('get ConfigMap default/c', () => Promise.reject(failed))).rejects.toMatchObject({ failureClass: 'Unreachable' });
    // Discovery's "not served" is an answer: the cluster is there.
    const notServed = new Error('the target cluster does not serve Widget in example.com/v1');
    await expect(calls.run('discover Widget', () => Promise.reject(notServed))).rejects.toMatchObject({ failureClass: 'Transient' });
  });

  it('gives up on a call that hangs, so no activity waits for an unreachable cluster', async () => {
    await expect(calls.run('get ConfigMap default/c', () => new Promise(() => {}))).rejects.toMatchObject({
      failureClass: 'Unreachable',
      message: 'target cluster (ProviderConfig "remote-1"): get ConfigMap default/c timed out after 0.05 s',
    });
  });
});
