import { describe, expect, it } from 'vitest';
import { HeldValues, isHeldValue } from './held-values';

const big = (fill: string) => ({ manifest: { data: { blob: fill.repeat(40_000) } } });

describe('HeldValues', () => {
  it('passes plain values through: nothing to hold', () => {
    const held = new HeldValues();
    expect(held.hold(undefined)).toBeUndefined();
    expect(held.hold('available')).toBe('available');
    expect(held.size).toBe(0);
  });

  it('stands in for every object, small or large, and gives it back on the worker that holds it', () => {
    const held = new HeldValues();
    for (const value of [{ state: 'available' }, big('x')]) {
      const standIn = held.hold(value);
      expect(isHeldValue(standIn)).toBe(true);
      expect(JSON.stringify(standIn).length).toBeLessThan(120);
      expect(held.resolve(standIn)).toEqual({ found: true, value });
    }
  });

  it('names equal values alike whatever their key order, and different values differently', () => {
    const held = new HeldValues();
    expect(held.hold({ a: 1, b: 2 })).toEqual(held.standIn({ b: 2, a: 1 }));
    expect(held.hold(big('x'))).not.toEqual(held.hold(big('y')));
  });

  it('keeps nothing for a value it only names, and tells whether a stand-in names a value', () => {
    const held = new HeldValues();
    const standIn = held.standIn({ state: 'available' });
    expect(held.size).toBe(0);
    expect(held.resolve(standIn)).toEqual({ found: false });
    expect(held.standsFor(standIn, { state: 'available' })).toBe(true);
    expect(held.standsFor(standIn, { state: 'pending' })).toBe(false);
    expect(held.standsFor({ state: 'available' }, { state: 'available' })).toBe(false);
  });

  it('resolves a value recorded before stand-ins to itself', () => {
    expect(new HeldValues().resolve({ state: 'available' })).toEqual({ found: true, value: { state: 'available' } });
  });

  it('drops the least recently used values past its budget', () => {
    const held = new HeldValues(100_000);
    const first = held.hold(big('a'));
    const second = held.hold(big('b'));
    expect(held.resolve(first).found).toBe(true); // now the most recently used
    const third = held.hold(big('c')); // over 100 kB: the least recently used (second) goes
    expect(held.resolve(second).found).toBe(false);
    expect(held.resolve(first).found).toBe(true);
    expect(held.resolve(third).found).toBe(true);
  });
});
