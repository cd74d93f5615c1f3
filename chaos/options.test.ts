import { describe, expect, it } from 'vitest';
import { parseChaosOptions, type ChaosOptions } from './options';

const parse = (...args: string[]) => parseChaosOptions(args, () => 99) as ChaosOptions;

describe('parseChaosOptions', () => {
  it('defaults to 200 worker kills, 10 a round, 3 for each other fault, every fault kind, a fresh seed', () => {
    expect(parse()).toEqual({
      kills: 200,
      killsPerRound: 10,
      faultKills: 3,
      only: ['worker', 'temporal', 'apiserver', 'ec2', 'watcher'],
      seed: 99,
      maxGapSeconds: 4,
      deadlineSeconds: 300,
      keep: false,
    });
  });

  it('spreads --kills over --rounds', () => {
    expect(parse('--kills', '25', '--rounds', '4').killsPerRound).toBe(7);
  });

  it('runs the fault kinds named by --only in the documented order', () => {
    expect(parse('--only', 'watcher,worker').only).toEqual(['worker', 'watcher']);
  });

  it('refuses what it cannot use, naming it', () => {
    expect(() => parse('--only', 'etcd')).toThrow(/not etcd/);
    expect(() => parse('--kills', '-1')).toThrow(/--kills/);
    expect(() => parse('--rounds', '2', '--kills-per-round', '3')).toThrow(/not both/);
    expect(() => parse('--max-gap', '0')).toThrow(/--max-gap/);
  });

  it('takes a seed to repeat a run', () => {
    expect(parse('--seed', '1234').seed).toBe(1234);
  });
});
