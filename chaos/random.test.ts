import { describe, expect, it } from 'vitest';
import { roundRandom, seededRandom } from './random';

describe('seededRandom', () => {
  it('draws the same sequence from the same seed, and another from another', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed).next);
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('stays in [min, max) and spreads over it', () => {
    const random = seededRandom(7);
    const values = Array.from({ length: 10_000 }, () => random.between(2, 6));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...values)).toBeLessThan(6);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(3.9);
    expect(mean).toBeLessThan(4.1);
  });
});

describe('roundRandom', () => {
  it('gives each round of a run its own sequence, the same whatever ran before it', () => {
    const first = (seed: number, fault: string, nth: number) => roundRandom(seed, fault, nth).next();
    expect(first(5, 'watcher', 1)).toBe(first(5, 'watcher', 1));
    expect(new Set([first(5, 'watcher', 1), first(5, 'watcher', 2), first(5, 'worker', 1), first(6, 'watcher', 1)]).size).toBe(4);
  });
});
