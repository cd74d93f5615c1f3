import { describe, expect, it } from 'vitest';
import { HeldValues, isHeldValue } from './held-values';

const big = (fill: string, bytes = 20_000) => ({ manifest: { kind: 'ConfigMap', data: { blob: fill.repeat(bytes) } } });

describe('HeldValues', () => {
  it('carries small values as they are, so histories keep showing them', () => {
    const held = new HeldValues();
    const small = { vpcId: 'vpc-1', state: 'available' };
    expect(held.hold(small)).toBe(small);
    expect(held.hold(undefined)).toBeUndefined();
    expect(held.size).toBe(0);
  });

  it('stands in for a large value with its digest and size, and gives it back', () => {
    const held = new HeldValues();
    const value = big('a');
    const standIn = held.hold(value);
    expect(isHeldValue(standIn)).toBe(true);
    expect(JSON.stringify(standIn).length).toBeLessThan(200);
    expect(held.resolve(standIn)).toBe(value);
  });

  it('gives equal stand-ins to equal values whatever their key order, so the workflow can compare them', () => {
    const held = new HeldValues();
    const one = { a: 'x'.repeat(20_000), b: { c: 1, d: 2 } };
    const other = { b: { d: 2, c: 1 }, a: 'x'.repeat(20_000) };
    expect(held.hold(one)).toEqual(held.hold(other));
    expect(held.hold(one)).not.toEqual(held.hold(big('y')));
  });

  it('passes values that are no stand-in through resolve', () => {
    expect(new HeldValues().resolve({ state: 'available' })).toEqual({ state: 'available' });
  });

  it('answers undefined for a stand-in it no longer holds, dropping the least recently used first', () => {
    const held = new HeldValues(50_000, 16 * 1024);
    const first = held.hold(big('a'));
    const second = held.hold(big('b'));
    expect(held.resolve(first)).toBeDefined(); // now the most recently used
    const third = held.hold(big('c')); // over 50 kB: the least recently used (second) goes
    expect(held.resolve(second)).toBeUndefined();
    expect(held.resolve(first)).toBeDefined();
    expect(held.resolve(third)).toBeDefined();
  });
});
