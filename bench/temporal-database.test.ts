import { describe, expect, it } from 'vitest';
import { formatStatementTimes, statementTimesBetween, type StatementTimes } from './temporal-database';

const before: StatementTimes = { visibilitySeconds: 1.2, visibilityWrites: 30, historySeconds: 0.5, otherSeconds: 2 };
const after: StatementTimes = { visibilitySeconds: 3.126, visibilityWrites: 2044, historySeconds: 0.81, otherSeconds: 3.25 };

describe("Temporal's PostgreSQL statement times", () => {
  it('takes what a phase added to each cumulative figure', () => {
    expect(statementTimesBetween(before, after)).toEqual({
      visibilitySeconds: 1.93,
      visibilityWrites: 2014,
      historySeconds: 0.31,
      otherSeconds: 1.25,
    });
  });

  it('says how many visibility writes each resource cost when the count is known', () => {
    const phase = statementTimesBetween(before, after);
    expect(formatStatementTimes(phase, 1000)).toBe('visibility 1.93 s (2,014 writes, 2.0 per resource), history 0.31 s, the rest 1.25 s');
    expect(formatStatementTimes(phase)).toBe('visibility 1.93 s (2,014 writes), history 0.31 s, the rest 1.25 s');
  });
});
