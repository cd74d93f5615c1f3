import { describe, expect, it } from 'vitest';
import { formatRatio, rssTotal } from './object-scale-table';

describe('formatRatio', () => {
  it('divides with two decimals', () => {
    expect(formatRatio(30, 12)).toBe('2.50×');
  });

  it('says nothing when a figure is missing or the divisor is zero', () => {
    expect(formatRatio(undefined, 1)).toBe('—');
    expect(formatRatio(1, undefined)).toBe('—');
    expect(formatRatio(1, 0)).toBe('—');
    expect(formatRatio(NaN, 1)).toBe('—');
  });
});

describe('rssTotal', () => {
  it('adds the processes of a controller', () => {
    const rss = { worker: { peak: 300, settled: 200 }, watcher: { peak: 100, settled: 80 } };
    expect(rssTotal(rss, 'peak')).toBe(400);
    expect(rssTotal(rss, 'settled')).toBe(280);
  });

  it('has no figure without processes', () => {
    expect(rssTotal(undefined, 'peak')).toBeUndefined();
    expect(rssTotal({}, 'peak')).toBeUndefined();
  });
});
