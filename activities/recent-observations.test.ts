import { describe, expect, it } from 'vitest';
import { RecentObservations, type ObservedFor } from './recent-observations';

const made = { resourceExists: true, resourceUpToDate: true, readiness: 'Available' as const, atProvider: { id: 'vpc-1' } };
const at: ObservedFor = { uid: 'u1', generation: 1, externalName: 'vpc-1', deleting: false };

describe('recent observations', () => {
  it('serves the next pass of exactly that state once', () => {
    const recent = new RecentObservations();
    recent.remember(at, made);
    expect(recent.take(at)).toEqual(made);
    expect(recent.take(at)).toBeUndefined();
  });

  it('serves nothing for another generation, external name, deletion state or object', () => {
    for (const other of [
      { ...at, generation: 2 },
      { ...at, externalName: 'vpc-2' },
      { ...at, deleting: true },
      { ...at, uid: 'u2' },
    ]) {
      const recent = new RecentObservations();
      recent.remember(at, made);
      expect(recent.take(other)).toBeUndefined();
    }
  });

  it('forgets an answer once it is older than its time to live, and prunes it', () => {
    let now = 0;
    const recent = new RecentObservations(1_000, () => now);
    recent.remember(at, made);
    now = 1_000;
    expect(recent.take(at)).toBeUndefined();
    recent.remember(at, made);
    now = 2_500;
    recent.remember({ ...at, uid: 'u2' }, made);
    expect(recent.size).toBe(1);
  });

  it('never keeps connection details', () => {
    const recent = new RecentObservations();
    recent.remember(at, { ...made, connectionDetails: { privateKey: 'secret' } });
    expect(recent.take(at)).not.toHaveProperty('connectionDetails');
  });
});
