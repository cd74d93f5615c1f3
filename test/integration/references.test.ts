// Cross-resource references against the real stack (seed 000): a dependent woken the moment
// what it needs appears, selectors, raw ids of existing resources, the reference winning over
// the raw value, cycles, dependsOn, and a dependency deleted directly while dependents exist.
// Steady polls are ten minutes here, so only a signal can explain a prompt wake-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateVpcCommand, DeleteVpcCommand } from '@aws-sdk/client-ec2';
import { readEc2CallCounts } from '#bench/ec2-call-counter';
import { ControlPlane, condition, eventually } from './harness';
import { ec2Calls, ownProviderConfigRef, useOwnProviderConfig } from './network';

let plane: ControlPlane;
let providerConfig: string;
beforeAll(async () => {
  plane = await ControlPlane.start('refs', { CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
  providerConfig = await useOwnProviderConfig(plane);
});
afterAll(async () => {
  await plane?.stop();
});

const region = 'us-east-1';
const api = 'ec2.aws.chronoplane.io/v1alpha1';
const vpc = (name: string, cidrBlock: string, extra: { labels?: Record<string, string>; spec?: object } = {}) => ({
  apiVersion: api,
  kind: 'VPC',
  metadata: { name, labels: extra.labels },
  spec: { forProvider: { region, cidrBlock }, providerConfigRef: ownProviderConfigRef(providerConfig), ...extra.spec },
});
const subnet = (name: string, cidrBlock: string, forProvider: object) => ({
  apiVersion: api,
  kind: 'Subnet',
  metadata: { name },
  spec: {
    forProvider: { region, cidrBlock, availabilityZone: 'us-east-1a', ...forProvider },
    providerConfigRef: ownProviderConfigRef(providerConfig),
  },
});
const externalName = async (kind: string, name: string) =>
  (await plane.getObject(kind, name))?.metadata.annotations?.['crossplane.io/external-name'];
const conditionOf = async (kind: string, name: string, type: string) => condition(await plane.getObject(kind, name), type);

describe('references', () => {
  it('waits for a missing VPC, naming it, and resolves as soon as it appears (a signal, not a poll)', async () => {
    await plane.apply(subnet('early', '10.31.1.0/24', { vpcIdRef: { name: 'late' } }));
    const waiting = await eventually(async () => {
      const c = await conditionOf('subnet', 'early', 'ReferencesResolved');
      return c?.status === 'False' && c;
    }, 'ReferencesResolved=False');
    expect(waiting.message).toContain(`VPC ${plane.namespace}/late: not found`);
    expect((await conditionOf('subnet', 'early', 'Ready'))?.status).toBe('False');

    await plane.apply(vpc('late', '10.31.0.0/16'));
    await plane.ready('vpc', 'late');
    const readyAt = Date.now();
    const ready = await plane.ready('subnet', 'early', 30_000);
    // A poll would take ten minutes; a wake-up takes well under the pending interval's few passes.
    expect(Date.now() - readyAt).toBeLessThan(30_000);
    expect(ready.spec.forProvider.vpcId).toBe(await externalName('vpc', 'late'));
    expect(condition(ready, 'ReferencesResolved')).toMatchObject({ status: 'True' });
  });

  it('selects by label: zero matches waits, one resolves and is recorded as the Ref, two is an error naming both', async () => {
    await plane.apply(subnet('by-label', '10.32.1.0/24', { vpcIdSelector: { matchLabels: { pick: 'me' } } }));
    const none = await eventually(async () => {
      const c = await conditionOf('subnet', 'by-label', 'ReferencesResolved');
      return c?.status === 'False' && c;
    }, 'no match to be reported');
    expect(none.message).toMatch(/vpcIdSelector \{pick=me\}: no VPC matches/);
    await plane.apply(vpc('picked', '10.32.0.0/16', { labels: { pick: 'me' } }));
    const resolved = await plane.ready('subnet', 'by-label', 60_000);
    expect(resolved.spec.forProvider.vpcIdRef).toEqual({ name: 'picked' });
    expect(resolved.spec.forProvider.vpcId).toBe(await externalName('vpc', 'picked'));

    await plane.apply(vpc('twin-1', '10.33.0.0/16', { labels: { pick: 'twin' } }));
    await plane.apply(vpc('twin-2', '10.34.0.0/16', { labels: { pick: 'twin' } }));
    await plane.apply(subnet('ambiguous', '10.33.1.0/24', { vpcIdSelector: { matchLabels: { pick: 'twin' } } }));
    const error = await eventually(async () => {
      const c = await conditionOf('subnet', 'ambiguous', 'Synced');
      return c?.status === 'False' && c;
    }, 'the ambiguous selector to be an error');
    expect(error.message).toMatch(/matches 2 VPCs \(twin-1, twin-2\); it must select exactly one/);
    expect(await externalName('subnet', 'ambiguous')).toBeUndefined();
    await plane.kubectl(['delete', 'subnet', 'ambiguous', 'by-label', 'early']);
  });

  it('uses an existing VPC by its raw id, and lets a reference win over a raw id', async () => {
    const existing = await plane.ec2.send(new CreateVpcCommand({ CidrBlock: '10.35.0.0/16' }));
    const existingId = existing.Vpc!.VpcId!;
    await plane.apply(subnet('in-existing', '10.35.1.0/24', { vpcId: existingId }));
    const inExisting = await plane.ready('subnet', 'in-existing');
    expect(inExisting.status!.atProvider!.vpcId).toBe(existingId);
    expect(condition(inExisting, 'ReferencesResolved')).toBeUndefined();

    await plane.apply(vpc('winner', '10.36.0.0/16'));
    await plane.apply(subnet('ref-wins', '10.36.1.0/24', { vpcId: existingId, vpcIdRef: { name: 'winner' } }));
    const refWins = await plane.ready('subnet', 'ref-wins', 60_000);
    const winnerId = await externalName('vpc', 'winner');
    expect(refWins.spec.forProvider.vpcId).toBe(winnerId);
    expect(refWins.status!.atProvider!.vpcId).toBe(winnerId);

    await plane.kubectl(['delete', 'subnet', 'in-existing', 'ref-wins']);
    await plane.ec2.send(new DeleteVpcCommand({ VpcId: existingId }));
  });

  it('reports a reference cycle on each member, and still deletes both', async () => {
    const from = (name: string) => ({
      references: [{ patchesFrom: { apiVersion: api, kind: 'VPC', name, fieldPath: 'metadata.labels.color' }, toFieldPath: 'tags.color' }],
    });
    await plane.apply(vpc('cycle-a', '10.37.0.0/16', { labels: { color: 'red' }, spec: from('cycle-b') }));
    await plane.apply(vpc('cycle-b', '10.38.0.0/16', { labels: { color: 'blue' }, spec: from('cycle-a') }));
    for (const [self, other] of [
      ['cycle-a', 'cycle-b'],
      ['cycle-b', 'cycle-a'],
    ] as const) {
      const c = await eventually(async () => {
        const found = await conditionOf('vpc', self, 'ReferencesResolved');
        return found?.status === 'False' && found.message?.includes('cycle') && found;
      }, `the cycle to be reported on ${self}`);
      const ns = plane.namespace;
      expect(c.message).toContain(`reference cycle: VPC ${ns}/${self} \u2192 VPC ${ns}/${other} \u2192 VPC ${ns}/${self}`);
      expect(await externalName('vpc', self)).toBeUndefined();
    }
    await plane.kubectl(['delete', 'vpc', 'cycle-a', 'cycle-b', '--timeout=60s']);
  });

  it('dependsOn does not hold up creation, but holds up deletion', async () => {
    const dependsOnBase = { references: [{ dependsOn: { apiVersion: api, kind: 'VPC', name: 'base' } }] };
    await plane.apply(vpc('app', '10.39.0.0/16', { spec: dependsOnBase }));
    await plane.ready('vpc', 'app'); // base does not exist yet: non-blocking
    await plane.apply(vpc('base', '10.40.0.0/16'));
    await plane.ready('vpc', 'base');
    await eventually(
      async () =>
        (await plane.getObject('vpc', 'base'))?.metadata.annotations?.[
          `used-by.chronoplane.io/${(await plane.getObject('vpc', 'app'))!.metadata.uid}`
        ],
      'app to mark base as in use',
    );

    await plane.kubectl(['delete', 'vpc', 'base', '--wait=false']);
    const held = await eventually(async () => {
      const c = await conditionOf('vpc', 'base', 'Ready');
      return c?.reason === 'Deleting' && c.message?.includes('waiting for dependents') && c;
    }, 'base to wait for app');
    expect(held.message).toContain(`VPC ${plane.namespace}/app`);
    expect(await plane.describeVpc((await externalName('vpc', 'base'))!)).toBeDefined();

    await plane.kubectl(['delete', 'vpc', 'app', '--wait=false']);
    await eventually(async () => !(await plane.getObject('vpc', 'base')), 'base to go once app is gone');
  });

  it('keeps a VPC deleted directly in Deleting, naming its Subnets, and makes no DeleteVpc call until they are gone', async () => {
    await plane.apply(vpc('holder', '10.41.0.0/16'));
    await plane.apply(subnet('held-1', '10.41.1.0/24', { vpcIdRef: { name: 'holder' } }));
    await plane.apply(subnet('held-2', '10.41.2.0/24', { vpcIdRef: { name: 'holder' } }));
    await Promise.all(['held-1', 'held-2'].map((s) => plane.ready('subnet', s)));
    const vpcId = (await externalName('vpc', 'holder'))!;
    const before = await readEc2CallCounts(plane.ec2Endpoint);

    await plane.kubectl(['delete', 'vpc', 'holder', '--wait=false']);
    const held = await eventually(async () => {
      const c = await conditionOf('vpc', 'holder', 'Ready');
      return c?.reason === 'Deleting' && c.message?.includes('held-2') && c;
    }, 'the VPC to wait for its Subnets');
    const ns = plane.namespace;
    expect(held.message).toBe(`waiting for dependents to be deleted first: Subnet ${ns}/held-1, Subnet ${ns}/held-2`);
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await ec2Calls(plane, before)).byAction.DeleteVpc).toBeUndefined();
    expect(await plane.describeVpc(vpcId)).toBeDefined();

    await plane.kubectl(['delete', 'subnet', 'held-1', 'held-2', '--wait=false']);
    await eventually(async () => !(await plane.getObject('vpc', 'holder')), 'the VPC to go after its Subnets', 60_000);
    const calls = await ec2Calls(plane, before);
    expect(calls.byAction.DeleteVpc).toBe(1);
    expect(calls.byAction.DeleteSubnet).toBe(2);
    expect(calls.dependencyViolations).toBe(0);
    expect(await plane.describeVpc(vpcId)).toBeUndefined();
  });
});
