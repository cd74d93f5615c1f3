// The managed-resources gauge's numbers follow every event: a change of condition moves an
// object from one row to another, a deletion takes it out, and empty rows disappear.
import { describe, expect, it } from 'vitest';
import { WatcherMetrics } from './metrics';
import { ResourceStatuses } from './resource-statuses';

const vpc = (uid: string, ready?: string, synced?: string) => ({
  metadata: { uid, name: uid, namespace: 'team-a' },
  status: {
    conditions: [...(ready ? [{ type: 'Ready', status: ready }] : []), ...(synced ? [{ type: 'Synced', status: synced }] : [])],
  },
});

describe('ResourceStatuses', () => {
  it('counts objects by kind, Ready and Synced, moving them as their conditions change', () => {
    const statuses = new ResourceStatuses();
    statuses.note('VPC', vpc('a'), 'ADDED');
    statuses.note('VPC', vpc('b', 'True', 'True'), 'ADDED');
    statuses.note('Subnet', vpc('c', 'False', 'True'), 'ADDED');
    expect(statuses.counts()).toEqual(
      expect.arrayContaining([
        { kind: 'VPC', ready: 'Unknown', synced: 'Unknown', count: 1 },
        { kind: 'VPC', ready: 'True', synced: 'True', count: 1 },
        { kind: 'Subnet', ready: 'False', synced: 'True', count: 1 },
      ]),
    );
    statuses.note('VPC', vpc('a', 'True', 'True'), 'MODIFIED');
    statuses.note('Subnet', vpc('c', 'False', 'True'), 'DELETED');
    expect(statuses.counts()).toEqual([{ kind: 'VPC', ready: 'True', synced: 'True', count: 2 }]);
  });

  it('ignores objects without a uid', () => {
    const statuses = new ResourceStatuses();
    statuses.note('VPC', { metadata: { name: 'x' } }, 'ADDED');
    expect(statuses.counts()).toEqual([]);
  });
});

describe('the chronoplane_managed_resources gauge', () => {
  it('reports the counts at scrape time', async () => {
    const metrics = new WatcherMetrics();
    metrics.resourceStatuses.note('VPC', vpc('a', 'True', 'False'), 'ADDED');
    const text = await metrics.registry.getSingleMetricAsString('chronoplane_managed_resources');
    expect(text).toContain('chronoplane_managed_resources{kind="VPC",ready="True",synced="False"} 1');
  });
});
