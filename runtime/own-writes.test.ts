import { describe, expect, it } from 'vitest';
import { OwnWrites } from './own-writes';

describe('own writes', () => {
  it('knows each write of ours once, by object and resourceVersion', () => {
    const writes = new OwnWrites();
    writes.record('u1', '10');
    expect(writes.take('u2', '10')).toBe(false);
    expect(writes.take('u1', '11')).toBe(false);
    expect(writes.take('u1', '10')).toBe(true);
    expect(writes.take('u1', '10')).toBe(false);
  });

  it('forgets writes whose events never came, and ignores writes without a version', () => {
    let now = 0;
    const writes = new OwnWrites(1_000, () => now);
    writes.record('u1', '10');
    writes.record('u1', undefined);
    expect(writes.size).toBe(1);
    now = 1_500;
    expect(writes.take('u1', '10')).toBe(false);
    writes.record('u1', '10');
    now = 3_000;
    writes.record('u1', '12');
    expect(writes.size).toBe(1);
  });
});
