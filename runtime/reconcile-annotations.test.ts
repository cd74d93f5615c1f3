import { describe, expect, it } from 'vitest';
import { MIN_POLL_INTERVAL_SECONDS, POLL_INTERVAL, pollIntervalOf } from './reconcile-annotations';

describe('pollIntervalOf', () => {
  it('is undefined for an object without the annotation', () => {
    expect(pollIntervalOf(undefined)).toBeUndefined();
    expect(pollIntervalOf({ other: '1' })).toBeUndefined();
  });

  it('reads a Go duration', () => {
    expect(pollIntervalOf({ [POLL_INTERVAL]: '1h30m' })).toEqual({ seconds: 5400 });
    expect(pollIntervalOf({ [POLL_INTERVAL]: ' 15s ' })).toEqual({ seconds: 15 });
  });

  it('reports a value that is not a duration, and keeps the default interval', () => {
    const own = pollIntervalOf({ [POLL_INTERVAL]: '5 minutes' });
    expect(own).toEqual({ problem: expect.stringContaining('"5 minutes" is not a duration') });
    expect(own && 'problem' in own && own.problem).toContain("the kind's default poll interval applies");
  });

  it('raises an interval below the minimum to the minimum, and says so', () => {
    expect(pollIntervalOf({ [POLL_INTERVAL]: '1s' })).toEqual({
      seconds: MIN_POLL_INTERVAL_SECONDS,
      problem: `${POLL_INTERVAL} "1s" is shorter than the minimum 10s; polling every 10s`,
    });
    expect(pollIntervalOf({ [POLL_INTERVAL]: '-5m' })).toMatchObject({ seconds: MIN_POLL_INTERVAL_SECONDS });
  });
});
