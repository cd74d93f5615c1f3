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

describe('writes under way', () => {
  it('settles once every write to the object has answered, having recorded their versions', async () => {
    const writes = new OwnWrites();
    expect(writes.settled('u1')).toBeUndefined();
    const first = writes.begin('u1');
    const second = writes.begin('u1');
    const settled = writes.settled('u1');
    let done = false;
    void settled!.then(() => (done = true));
    first('10');
    await Promise.resolve();
    expect(done).toBe(false);
    second(undefined);
    await settled;
    expect(writes.settled('u1')).toBeUndefined();
    expect(writes.take('u1', '10')).toBe(true);
  });

  it('counts each answer once, and holds no other object', () => {
    const writes = new OwnWrites();
    const first = writes.begin('u1');
    writes.begin('u1');
    first('10');
    first('11');
    expect(writes.settled('u1')).toBeDefined();
    expect(writes.settled('u2')).toBeUndefined();
    expect(writes.take('u1', '11')).toBe(false);
  });

  it('stops holding after the longest hold when a write never answers', async () => {
    const writes = new OwnWrites(60_000, Date.now, 5);
    writes.begin('u1');
    await expect(writes.settled('u1')).resolves.toBeUndefined();
  });
});
