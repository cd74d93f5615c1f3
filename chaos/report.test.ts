import { describe, expect, it } from 'vitest';
import { emptySummary } from './ec2-calls';
import { findingLines, roundsTable, totalLosses, totalsTable, verdict } from './report';
import type { RoundResult } from './rounds';

function round(index: number, change: Partial<RoundResult> = {}): RoundResult {
  return {
    index,
    fault: 'worker',
    namespace: `chaos-${index}`,
    killsGiven: { apply: 5, delete: 5 },
    apply: { killsMade: 5, killedAt: [1, 2, 3, 4, 5], restartSeconds: [2, 2, 2, 2, 2], convergeSeconds: 12, totalSeconds: 30 },
    delete: { killsMade: 5, killedAt: [1, 2, 3, 4, 5], restartSeconds: [2, 2, 2, 2, 3], convergeSeconds: 4, totalSeconds: 20 },
    lastToConverge: { apply: ['Instance/web'], delete: ['VPC/network'] },
    notReady: [],
    external: { duplicates: [], missing: [], strays: [] },
    stuck: [],
    leaks: {},
    ec2Calls: emptySummary(),
    interrupted: { retriedAfterTimeout: { createExternal: 2 }, workflowTasksTimedOut: 3 },
    unexpectedExits: [],
    seconds: 60,
    ...change,
  };
}

describe('the chaos report', () => {
  it('says nothing was lost when nothing was', () => {
    const rounds = [round(1), round(2)];
    expect(verdict(rounds)).toBe('');
    expect(findingLines(rounds)).toEqual([]);
    expect(totalsTable(rounds)).toMatch(/kills\s+worker 20/);
    expect(totalsTable(rounds)).toMatch(/apply: last kill to all Ready\s+median 12\.00 s, max 12\.00 s/);
    expect(roundsTable(rounds).split('\n')).toHaveLength(3);
    expect(totalsTable(rounds)).toMatch(/interrupted by worker kills\s+createExternal 4; 6 workflow tasks timed out/);
  });

  it('counts and names every kind of loss', () => {
    const stuckObject = {
      object: 'VPC/network',
      conditions: 'deleting; Ready=False (Deleting)',
      workflowId: 'VPC.x/chaos-2/network',
      workflow: 'Running',
    };
    const rounds = [
      round(1, {
        external: {
          duplicates: [{ object: 'Subnet/public-a', found: ['subnet-1', 'subnet-2', 'subnet-3'] }],
          missing: [],
          strays: [{ kind: 'Route', id: 'rtb-1_0.0.0.0/0' }],
        },
        ec2Calls: { ...emptySummary(), dependencyViolations: 2, errorsByAction: { 'DeleteVpc: DependencyViolation': 2 } },
      }),
      round(2, {
        fault: 'temporal',
        stuck: [stuckObject],
        leaks: { VPC: ['vpc-1'] },
        delete: { ...round(2).delete, convergeSeconds: undefined },
      }),
    ];
    expect(totalLosses(rounds)).toEqual({ notReady: 0, duplicates: 3, missing: 0, leaks: 1, stuck: 1, dependencyViolations: 2 });
    expect(verdict(rounds)).toBe('3 duplicates, 1 leaks, 1 stuck, 2 DependencyViolation');
    const lines = findingLines(rounds);
    expect(lines).toContain('round 1 (worker, namespace chaos-1): duplicate: Subnet/public-a has 3 at EC2: subnet-1, subnet-2, subnet-3');
    expect(lines).toContain('round 1 (worker, namespace chaos-1): DependencyViolation 2: DeleteVpc: DependencyViolation 2');
    expect(lines).toContain('round 2 (temporal, namespace chaos-2): leak: VPC vpc-1 still at EC2 after the delete');
    expect(lines.some((l) => l.includes('stuck VPC/network') && l.includes('workflow VPC.x/chaos-2/network: Running'))).toBe(true);
    expect(totalsTable(rounds)).toMatch(/delete: last kill to all gone\s+median 4\.00 s, max 4\.00 s, never in 1/);
  });

  it('names a slow convergence and what it waited for last, without calling it a loss', () => {
    const slow = round(3, { fault: 'watcher', apply: { ...round(3).apply, convergeSeconds: 58.6 } });
    expect(verdict([slow])).toBe('');
    expect(findingLines([slow])).toEqual([
      "round 3 (watcher, namespace chaos-3): slow: all Ready 58.6 s after the apply's last kill; the last to get there: Instance/web",
    ]);
  });
});
