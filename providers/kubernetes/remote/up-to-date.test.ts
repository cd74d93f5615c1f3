import { describe, expect, it, vi } from 'vitest';
import { contains, UpToDateCheck } from './up-to-date';

const desired = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: '1' } };
const live = (data: Record<string, string>, resourceVersion = '5', labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default', resourceVersion, labels, managedFields: [{ manager: 'chronoplane/c' }] },
  data,
});

describe('contains', () => {
  it('holds when every field the manifest names has its value; lists compare whole', () => {
    expect(contains({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(contains({ a: 1, b: { c: 2 } }, { b: { c: 3 } })).toBe(false);
    expect(contains({ l: [1, 2] }, { l: [1] })).toBe(false);
    expect(contains({}, { b: {} })).toBe(false);
  });
});

describe('UpToDateCheck', () => {
  it('needs no dry run when the target contains the manifest, whatever else others added', async () => {
    const dryRun = vi.fn();
    const check = new UpToDateCheck();
    expect(await check.isUpToDate('u', desired, live({ a: '1', other: 'x' }, '5', { team: 'a' }), dryRun)).toBe(true);
    expect(dryRun).not.toHaveBeenCalled();
  });

  it('asks a dry-run apply when the target reads back differently, once per target version', async () => {
    const check = new UpToDateCheck();
    const normalized = live({ a: '1.0' });
    const dryRun = vi.fn(async () => ({ ...normalized, metadata: { ...normalized.metadata, managedFields: [] } }));
    expect(await check.isUpToDate('u', desired, normalized, dryRun)).toBe(true);
    expect(await check.isUpToDate('u', desired, normalized, dryRun)).toBe(true);
    expect(dryRun).toHaveBeenCalledTimes(1);
    // A change by hand: the dry run would restore the field, so it is drift.
    const edited = live({ a: 'by hand' }, '6');
    expect(await check.isUpToDate('u', desired, edited, async () => live({ a: '1' }, '6'))).toBe(false);
  });

  it('is out of date after the manifest changed since our last apply, even if the target still contains it', async () => {
    const check = new UpToDateCheck();
    const withB = { ...desired, data: { a: '1', b: '2' } };
    check.recordApply('u', withB);
    // b was dropped from the manifest: only an apply removes it from the target.
    expect(await check.isUpToDate('u', desired, live({ a: '1', b: '2' }), vi.fn())).toBe(false);
    check.recordApply('u', desired);
    expect(await check.isUpToDate('u', desired, live({ a: '1' }), vi.fn())).toBe(true);
  });
});
