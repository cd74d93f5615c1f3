// Events land where `kubectl describe` looks for them: in the object's namespace, or in
// `default` for a cluster-scoped object (provider-kubernetes' Object), whose involvedObject
// then has no namespace.
import { describe, expect, it } from 'vitest';
import { toKubeEvent } from './events';

const note = { type: 'Normal', reason: 'CreatedExternalResource', message: 'created' } as const;
const now = new Date('2026-11-22T12:00:00Z');

describe('toKubeEvent', () => {
  it("puts a namespaced object's event in its namespace", () => {
    const event = toKubeEvent({ group: 'ec2.aws.chronoplane.io', kind: 'VPC', namespace: 'team-a', name: 'main' }, 'uid-1', note, now);
    expect(event.metadata.namespace).toBe('team-a');
    expect(event.involvedObject).toMatchObject({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'VPC',
      namespace: 'team-a',
      name: 'main',
      uid: 'uid-1',
    });
  });

  it("puts a cluster-scoped object's event in default, with no namespace on the object it is about", () => {
    const event = toKubeEvent({ group: 'kubernetes.crossplane.io', kind: 'Object', namespace: '', name: 'sample' }, 'uid-2', note, now);
    expect(event.metadata.namespace).toBe('default');
    expect(event.involvedObject.namespace).toBeUndefined();
    expect(event.involvedObject).toMatchObject({ apiVersion: 'kubernetes.crossplane.io/v1alpha2', kind: 'Object', name: 'sample' });
  });
});
