// The profile summary puts each sample's time where a reader looks for it: a library by its
// package name, our code by its folder, and idle time nowhere.
import { describe, expect, it } from 'vitest';
import { addProfile, packageOf, type ProfileSummary } from './cpu-profile-summary';

const frame = (url: string, functionName = 'f') => ({ url, functionName, lineNumber: 0 });

describe('cpu profile summary', () => {
  it('names the package, scoped or not, our folder, or Node itself', () => {
    expect(packageOf(frame('file:///w/node_modules/@temporalio/worker/lib/worker.js'))).toBe('@temporalio/worker');
    expect(packageOf(frame('file:///w/node_modules/a/node_modules/yaml/dist/index.js'))).toBe('yaml');
    expect(packageOf(frame('file:///w/activities/reconcile.ts'))).toBe('chronoplane activities/');
    expect(packageOf(frame('node:internal/streams/readable'))).toBe('node internals');
    expect(packageOf(frame('', '(garbage collector)'))).toBe('(garbage collector)');
    expect(packageOf(frame('', 'JSONParse'))).toBe('(native)');
  });

  it('adds self time per sample and leaves idle time out', () => {
    const summary: ProfileSummary = { totalMs: 0, byPackage: new Map(), byFunction: new Map() };
    addProfile(summary, {
      nodes: [
        { id: 1, callFrame: frame('', '(idle)') },
        { id: 2, callFrame: frame('file:///w/node_modules/yaml/x.js', 'parse') },
      ],
      samples: [1, 2, 2],
      timeDeltas: [5000, 2000, 3000],
    });
    expect(summary.totalMs).toBe(5);
    expect(summary.byPackage.get('yaml')).toBe(5);
    expect([...summary.byFunction.keys()]).toEqual(['parse yaml:1']);
  });
});
