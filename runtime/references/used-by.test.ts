// Table tests for the in-use marks a dependent leaves on what it depends on: the annotation's
// key and value, and reading them back, ignoring hand-edited ones that do not parse.
import { describe, expect, it } from 'vitest';
import type { ObjectKey } from './dependencies';
import { USED_BY_PREFIX, usedByAnnotation, usedByMarks, usedByValue, type UsedByMark } from './used-by';

const subnet: ObjectKey = { group: 'ec2.aws.chronoplane.io', kind: 'Subnet', namespace: 'team-a', name: 'public-a' };
const namespaceScoped: ObjectKey = { group: '', kind: 'Namespace', namespace: '', name: 'prod' };

describe('usedByAnnotation and usedByValue', () => {
  it.each<{ name: string; uid: string; dependent: ObjectKey; key: string; value: string }>([
    {
      name: 'a namespaced managed dependent',
      uid: '3f1c0a52-0d7e-4b59-9a57-0c1a8e1f7d11',
      dependent: subnet,
      key: 'used-by.chronoplane.io/3f1c0a52-0d7e-4b59-9a57-0c1a8e1f7d11',
      value: 'Subnet.ec2.aws.chronoplane.io/team-a/public-a',
    },
    {
      name: 'a cluster-scoped core dependent',
      uid: 'u2',
      dependent: namespaceScoped,
      key: 'used-by.chronoplane.io/u2',
      value: 'Namespace.core//prod',
    },
  ])('$name', ({ uid, dependent, key, value }) => {
    expect(usedByAnnotation(uid)).toBe(key);
    expect(usedByValue(dependent)).toBe(value);
    expect(usedByMarks({ [key]: value })).toEqual([{ dependentUid: uid, dependent }]);
  });
});

describe('usedByMarks', () => {
  it.each<{ name: string; annotations: Record<string, string> | undefined; marks: UsedByMark[] }>([
    { name: 'no annotations', annotations: undefined, marks: [] },
    { name: 'no marks among other annotations', annotations: { 'crossplane.io/external-name': 'vpc-1', note: 'x' }, marks: [] },
    {
      name: 'one mark, among other annotations',
      annotations: { 'crossplane.io/external-name': 'vpc-1', [`${USED_BY_PREFIX}u1`]: 'Subnet.ec2.aws.chronoplane.io/team-a/public-a' },
      marks: [{ dependentUid: 'u1', dependent: subnet }],
    },
    {
      name: 'two marks, in annotation order',
      annotations: {
        [`${USED_BY_PREFIX}u1`]: 'Subnet.ec2.aws.chronoplane.io/team-a/public-a',
        [`${USED_BY_PREFIX}u2`]: 'Namespace.core//prod',
      },
      marks: [
        { dependentUid: 'u1', dependent: subnet },
        { dependentUid: 'u2', dependent: namespaceScoped },
      ],
    },
    { name: 'a malformed value is ignored', annotations: { [`${USED_BY_PREFIX}u1`]: 'not a key' }, marks: [] },
    { name: 'an empty value is ignored', annotations: { [`${USED_BY_PREFIX}u1`]: '' }, marks: [] },
    {
      name: 'a value without a name is ignored',
      annotations: { [`${USED_BY_PREFIX}u1`]: 'Subnet.ec2.aws.chronoplane.io/team-a/' },
      marks: [],
    },
    {
      name: 'a malformed mark does not hide a good one',
      annotations: { [`${USED_BY_PREFIX}bad`]: 'Subnet', [`${USED_BY_PREFIX}u1`]: 'Subnet.ec2.aws.chronoplane.io/team-a/public-a' },
      marks: [{ dependentUid: 'u1', dependent: subnet }],
    },
    {
      name: 'a key that only ends like the prefix is not a mark',
      annotations: { 'example.com/used-by.chronoplane.io/u1': 'Subnet.ec2.aws.chronoplane.io/team-a/public-a' },
      marks: [],
    },
  ])('$name', ({ annotations, marks }) => {
    expect(usedByMarks(annotations)).toEqual(marks);
  });

  // A key that is the bare prefix names no dependent: malformed, like a value that does not parse.
  it('ignores a mark whose key carries no uid', () => {
    expect(usedByMarks({ [USED_BY_PREFIX]: 'Subnet.ec2.aws.chronoplane.io/team-a/public-a' })).toEqual([]);
  });
});
