import { describe, expect, it } from 'vitest';
import { planRounds, splitKills, withCarriedKills, type PlannedRound } from './plan';

describe('planRounds', () => {
  it('gives the worker rounds of killsPerRound, the last the remainder, then one round per other fault', () => {
    expect(planRounds({ kills: 25, killsPerRound: 10, faultKills: 3, only: ['worker', 'temporal', 'ec2'] })).toEqual([
      { fault: 'worker', kills: 10 },
      { fault: 'worker', kills: 10 },
      { fault: 'worker', kills: 5 },
      { fault: 'temporal', kills: 3 },
      { fault: 'ec2', kills: 3 },
    ]);
  });

  it('has 20 worker rounds by default', () => {
    const rounds = planRounds({ kills: 200, killsPerRound: 10, faultKills: 3, only: ['worker'] });
    expect(rounds).toHaveLength(20);
    expect(rounds.reduce((sum, r) => sum + r.kills, 0)).toBe(200);
  });

  it('has no worker round without worker kills', () => {
    expect(planRounds({ kills: 0, killsPerRound: 10, faultKills: 2, only: ['worker', 'watcher'] })).toEqual([
      { fault: 'watcher', kills: 2 },
    ]);
  });
});

describe('splitKills', () => {
  it('gives the apply the odd kill', () => {
    expect(splitKills(5)).toEqual({ apply: 3, delete: 2 });
    expect(splitKills(1)).toEqual({ apply: 1, delete: 0 });
  });
});

/** Runs the schedule with each round making `making(round)` of what it was given; returns what each was given and made. */
function simulate(planned: PlannedRound[], making: (given: number, index: number) => number) {
  const seen: { fault: string; given: { apply: number; delete: number }; made: number }[] = [];
  for (const round of withCarriedKills(planned)) {
    const given = round.kills();
    const made = making(given.apply + given.delete, seen.length);
    round.made(made);
    seen.push({ fault: round.fault, given, made });
  }
  return seen;
}

describe('withCarriedKills', () => {
  it('gives each round its plan when every kill is made', () => {
    const seen = simulate(
      [
        { fault: 'worker', kills: 10 },
        { fault: 'worker', kills: 10 },
        { fault: 'ec2', kills: 3 },
      ],
      (given) => given,
    );
    expect(seen.map((r) => r.given)).toEqual([
      { apply: 5, delete: 5 },
      { apply: 5, delete: 5 },
      { apply: 2, delete: 1 },
    ]);
  });

  it('hands kills a round could not make to the next round of the same fault', () => {
    const seen = simulate(
      [
        { fault: 'worker', kills: 10 },
        { fault: 'worker', kills: 10 },
      ],
      (given, i) => (i === 0 ? given - 3 : given),
    );
    expect(seen[1]!.given).toEqual({ apply: 8, delete: 5 });
    expect(seen).toHaveLength(2);
  });

  it("adds rounds of a fault until its kills are made, and never another fault's", () => {
    const seen = simulate(
      [
        { fault: 'worker', kills: 4 },
        { fault: 'temporal', kills: 3 },
      ],
      (given, i) => (i === 0 ? 1 : Math.min(given, 2)),
    );
    expect(seen.map((r) => [r.fault, r.given.apply + r.given.delete, r.made])).toEqual([
      ['worker', 4, 1],
      ['worker', 3, 2],
      ['worker', 1, 1],
      ['temporal', 3, 2],
      ['temporal', 1, 1],
    ]);
  });

  it('gives up after as many extra rounds as were planned, at least three, when kills never land', () => {
    const seen = simulate([{ fault: 'watcher', kills: 3 }], () => 0);
    expect(seen).toHaveLength(4);
  });
});
