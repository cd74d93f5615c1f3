// What a failed activity tells the workflow: the failure class that decides retries, and the
// versions of its own object it wrote before failing, so their watch events are not edits.
import { ApiException } from '@kubernetes/client-node';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ClassifiedError } from '#core/errors';
import { ownWritesBefore } from '#workflows/activity-failures';
import { asActivity } from './failures';

const failureOf = async (body: () => Promise<unknown>, written?: string[]): Promise<ApplicationFailure> => {
  try {
    await asActivity(body, written);
  } catch (error) {
    if (error instanceof ApplicationFailure) return error;
    throw error;
  }
  throw new Error('the body did not fail');
};

describe('asActivity', () => {
  it('fails bad input at once and retries the rest', async () => {
    const invalid = await failureOf(async () => {
      throw new ApiException(422, 'Unprocessable', { message: 'spec.forProvider.manifest: Required value' }, {});
    });
    expect(invalid).toMatchObject({ type: 'InvalidInput', nonRetryable: true });
    expect(invalid.message).toBe('Kubernetes API: spec.forProvider.manifest: Required value');
    expect(await failureOf(async () => Promise.reject(new Error('socket hang up')))).toMatchObject({
      type: 'Transient',
      nonRetryable: false,
    });
  });

  it('carries the versions written before the failure, keeping its class and message', async () => {
    const failure = await failureOf(async () => {
      throw new ClassifiedError('InvalidInput', 'cannot parse celQuery');
    }, ['41']);
    expect(failure).toMatchObject({ type: 'InvalidInput', nonRetryable: true, message: 'cannot parse celQuery' });
    expect(ownWritesBefore(failure)).toEqual(['41']);
  });

  it('carries nothing when nothing was written', async () => {
    const failure = await failureOf(async () => Promise.reject(ApplicationFailure.retryable('throttled', 'Transient')), []);
    expect(failure.details ?? []).toEqual([]);
    expect(ownWritesBefore(failure)).toEqual([]);
  });
});
