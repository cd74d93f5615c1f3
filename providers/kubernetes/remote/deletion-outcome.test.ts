// A DELETE's answer tells whether the target went at once: then its Object is released in the
// pass that confirms the delete, without reading the target again.
import { describe, expect, it } from 'vitest';
import { deletionOutcome } from './cluster';

describe('deletionOutcome', () => {
  it('takes a Status of success for an object removed at once', () => {
    expect(deletionOutcome({ kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: 'c', kind: 'configmaps' } })).toBe(
      'gone',
    );
  });

  it('takes an object answered whole as still deleting: a Namespace, say, until its controller has emptied it', () => {
    expect(deletionOutcome({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, status: { phase: 'Terminating' } })).toBe(
      'deleting',
    );
  });

  it('takes an object that carries a deletionTimestamp as still deleting: finalizers or a grace period hold it', () => {
    const held = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', deletionTimestamp: '2026-11-26T20:00:00Z', finalizers: ['x'] },
    };
    expect(deletionOutcome(held)).toBe('deleting');
  });

  it('takes any Status other than success as not gone', () => {
    expect(deletionOutcome({ kind: 'Status', status: 'Failure' })).toBe('deleting');
  });
});
