import { describe, expect, it } from 'vitest';
import type { Fault } from './faults';
import { KillWindows, runPhase } from './phase';
import { seededRandom } from './random';

/** A fault that only counts, and a goal that holds once `after` kills were made and `polls` more polls passed. */
function setUp(goal: { after: number; polls: number }) {
  const events: string[] = [];
  let kills = 0;
  let pollsSinceLastKill = 0;
  const fault: Fault = {
    kind: 'worker',
    kill: async () => {
      kills += 1;
      pollsSinceLastKill = 0;
      events.push('kill');
    },
    restart: async () => void events.push('restart'),
  };
  const converged = async () => kills >= goal.after && ++pollsSinceLastKill > goal.polls;
  return { events, fault, converged };
}

const common = { random: seededRandom(1), maxGapSeconds: 0.005, supervise: async () => {}, pollMs: 1 };

describe('runPhase', () => {
  it('makes every kill while the goal does not hold, restarting after each, then times convergence from the last', async () => {
    const { events, fault, converged } = setUp({ after: 3, polls: 2 });
    const outcome = await runPhase({ ...common, kills: 3, fault, converged, deadlineSeconds: 10 });
    expect(events).toEqual(['kill', 'restart', 'kill', 'restart', 'kill', 'restart']);
    expect(outcome.killsMade).toBe(3);
    expect(outcome.killedAt).toHaveLength(3);
    expect(outcome.restartSeconds).toHaveLength(3);
    expect(outcome.convergeSeconds).toBeDefined();
    expect(outcome.totalSeconds!).toBeGreaterThanOrEqual(outcome.convergeSeconds!);
  });

  it('stops killing once the goal holds, leaving the rest unmade', async () => {
    const { events, fault, converged } = setUp({ after: 0, polls: 0 });
    const outcome = await runPhase({ ...common, kills: 5, fault, converged, deadlineSeconds: 10 });
    expect(events).toEqual([]);
    expect(outcome.killsMade).toBe(0);
    expect(outcome.convergeSeconds).toBeDefined();
  });

  it('gives up the deadline after the last kill, without a convergence time', async () => {
    const fault: Fault = { kind: 'worker', kill: async () => {}, restart: async () => {} };
    const outcome = await runPhase({ ...common, kills: 1, fault, converged: async () => false, deadlineSeconds: 0.05 });
    expect(outcome.killsMade).toBe(1);
    expect(outcome.convergeSeconds).toBeUndefined();
  });

  it('counts a goal that cannot be read (a killed API server) as not reached', async () => {
    let calls = 0;
    const converged = async () => {
      calls += 1;
      if (calls < 3) throw new Error('connection refused');
      return true;
    };
    const fault: Fault = { kind: 'apiserver', kill: async () => {}, restart: async () => {} };
    const outcome = await runPhase({ ...common, kills: 0, fault, converged, deadlineSeconds: 10 });
    expect(calls).toBe(3);
    expect(outcome.convergeSeconds).toBeDefined();
  });
});

describe('KillWindows', () => {
  it('is --max-gap until a phase of the kind was seen, then the shortest one seen if shorter', () => {
    const windows = new KillWindows(4);
    expect(windows.of('delete')).toBe(4);
    windows.took('delete', 2.5);
    windows.took('delete', 9);
    windows.took('delete', undefined);
    windows.took('apply', 12);
    expect(windows.of('delete')).toBe(2.5);
    expect(windows.of('apply')).toBe(4);
  });
});
