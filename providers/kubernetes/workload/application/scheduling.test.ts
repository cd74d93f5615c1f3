// Scheduling by label: Kubernetes' selector semantics, and a choice that does not depend on the
// order clusters are listed in.
import { describe, expect, it } from 'vitest';
import { chooseCluster, describeSelector, matchesSelector } from './scheduling';
import type { LabelSelector } from '#runtime/label-selector';

const labels = { app: 'wordpress-demo', tier: 'web' };

describe('matchesSelector', () => {
  it.each<[string, LabelSelector | undefined, Record<string, string> | undefined, boolean]>([
    ['an absent selector matches everything', undefined, labels, true],
    ['an empty selector matches everything', {}, undefined, true],
    ['matchLabels: all present with equal values', { matchLabels: { app: 'wordpress-demo', tier: 'web' } }, labels, true],
    ['matchLabels: a different value', { matchLabels: { app: 'other' } }, labels, false],
    ['matchLabels: a missing key', { matchLabels: { zone: 'a' } }, labels, false],
    ['matchLabels: no labels at all', { matchLabels: { app: 'wordpress-demo' } }, undefined, false],
    ['In: the value is listed', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['db', 'web'] }] }, labels, true],
    ['In: the value is not listed', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['db'] }] }, labels, false],
    ['In: the key is missing', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, labels, false],
    ['NotIn: the value is listed', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['web'] }] }, labels, false],
    ['NotIn: the value is not listed', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] }, labels, true],
    ['NotIn: the key is missing', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels, true],
    ['Exists: present', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, labels, true],
    ['Exists: missing', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels, false],
    ['DoesNotExist: missing', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels, true],
    ['DoesNotExist: present', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, labels, false],
    ['an inherited property is no label', { matchExpressions: [{ key: 'toString', operator: 'Exists' }] }, labels, false],
    [
      'labels and expressions must all hold',
      { matchLabels: { app: 'wordpress-demo' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['db'] }] },
      labels,
      false,
    ],
  ])('%s', (_, selector, clusterLabels, expected) => {
    expect(matchesSelector(selector, clusterLabels)).toBe(expected);
  });
});

describe('describeSelector', () => {
  it('reads as kubectl’s -l syntax', () => {
    expect(
      describeSelector({
        matchLabels: { app: 'wordpress-demo' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['web', 'db'] },
          { key: 'zone', operator: 'NotIn', values: ['a'] },
          { key: 'gpu', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('app=wordpress-demo,tier in (web,db),zone notin (a),gpu,!legacy');
  });

  it('says when it selects any cluster', () => {
    expect(describeSelector(undefined)).toBe('(any)');
    expect(describeSelector({ matchLabels: {} })).toBe('(any)');
  });
});

describe('chooseCluster', () => {
  const cluster = (name: string, clusterLabels?: Record<string, string>, deleting = false) => ({
    metadata: { name, labels: clusterLabels, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  });

  it('picks the first match by name, whatever the order of the list', () => {
    const clusters = [cluster('c', labels), cluster('a', { app: 'other' }), cluster('b', labels), cluster('d', labels)];
    expect(chooseCluster(clusters, { matchLabels: { app: 'wordpress-demo' } })?.metadata.name).toBe('b');
    expect(chooseCluster([...clusters].reverse(), { matchLabels: { app: 'wordpress-demo' } })?.metadata.name).toBe('b');
  });

  it('takes any cluster when there is no selector, but none that is being deleted', () => {
    expect(chooseCluster([cluster('b'), cluster('a', undefined, true)], undefined)?.metadata.name).toBe('b');
  });

  it('finds nothing when nothing matches', () => {
    expect(chooseCluster([cluster('a', { app: 'other' })], { matchLabels: { app: 'wordpress-demo' } })).toBeUndefined();
    expect(chooseCluster([], undefined)).toBeUndefined();
  });
});
