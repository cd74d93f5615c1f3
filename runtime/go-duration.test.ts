import { describe, expect, it } from 'vitest';
import { formatSeconds, parseGoDuration } from './go-duration';

describe('parseGoDuration', () => {
  it.each([
    ['10s', 10],
    ['10m', 600],
    ['1h30m', 5400],
    ['1.5h', 5400],
    ['.5m', 30],
    ['1h0m0s', 3600],
    ['1500ms', 1.5],
    ['2m3s4ms', 123.004],
    ['0', 0],
    ['+15s', 15],
    ['-15s', -15],
    ['10µs', 0.00001],
    ['10us', 0.00001],
  ])('reads %s as %d seconds', (text, seconds) => {
    const parsed = parseGoDuration(text);
    expect('seconds' in parsed && parsed.seconds).toBeCloseTo(seconds, 9);
  });

  it.each(['', '10', '1d', 'ten minutes', '1h 30m', '.s', '5m-3s', 'h', '1.2.3s', '-'])('refuses %j, saying how to write it', (text) => {
    expect(parseGoDuration(text)).toEqual({ error: expect.stringContaining('is not a duration') });
  });
});

describe('formatSeconds', () => {
  it.each([
    [10, '10s'],
    [90, '1m30s'],
    [3600, '1h0m0s'],
    [5415, '1h30m15s'],
  ])('writes %d seconds as %s', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});
