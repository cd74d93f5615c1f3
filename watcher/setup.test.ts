// Where the leader Lease lives and what it is called: one per scope, so watchers of different
// namespaces or task queues never stand for the same leadership.
import { describe, expect, it } from 'vitest';
import { leaderElectionFromEnv, leaseName } from './setup';

describe('leader election settings', () => {
  it('is off unless CHRONOPLANE_LEADER_ELECTION=true', () => {
    expect(leaderElectionFromEnv({}, { taskQueue: 'chronoplane' })).toBeUndefined();
    expect(leaderElectionFromEnv({ CHRONOPLANE_LEADER_ELECTION: 'false' }, { taskQueue: 'chronoplane' })).toBeUndefined();
  });

  it('keeps the Lease in the watch namespace, else crossplane-system, unless told', () => {
    const on = { CHRONOPLANE_LEADER_ELECTION: 'true' };
    expect(leaderElectionFromEnv(on, { taskQueue: 'chronoplane' })?.namespace).toBe('crossplane-system');
    expect(leaderElectionFromEnv(on, { taskQueue: 'chronoplane', watchNamespace: 'team-a' })?.namespace).toBe('team-a');
    expect(
      leaderElectionFromEnv(
        { ...on, CHRONOPLANE_LEADER_ELECTION_NAMESPACE: 'chronoplane' },
        { taskQueue: 'chronoplane', watchNamespace: 'team-a' },
      )?.namespace,
    ).toBe('chronoplane');
  });

  it('names itself by hostname and pid unless told', () => {
    const on = { CHRONOPLANE_LEADER_ELECTION: 'true' };
    expect(leaderElectionFromEnv(on, { taskQueue: 'chronoplane' })?.identity).toMatch(new RegExp(`_${process.pid}$`));
    expect(leaderElectionFromEnv({ ...on, CHRONOPLANE_LEADER_ELECTION_IDENTITY: 'pod-a' }, { taskQueue: 'q' })?.identity).toBe('pod-a');
  });

  it('names the Lease after its scope', () => {
    expect(leaseName({ taskQueue: 'chronoplane' })).toBe('chronoplane-watcher');
    expect(leaseName({ taskQueue: 'chronoplane', watchNamespace: 'team-a' })).toBe('chronoplane-watcher-team-a');
    expect(leaseName({ taskQueue: 'it-lead-1', watchNamespace: 'it-lead-1' })).toBe('chronoplane-watcher-it-lead-1-it-lead-1');
  });

  it('keeps scopes apart whose names differ only in characters a Lease name cannot hold', () => {
    const a = leaseName({ taskQueue: 'Team_A' });
    const b = leaseName({ taskQueue: 'team.a' });
    expect(a).not.toBe(b);
    for (const name of [a, b, leaseName({ taskQueue: 'x'.repeat(400) })]) {
      expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(name.length).toBeLessThanOrEqual(253);
    }
  });
});
