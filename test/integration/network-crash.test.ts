// The worker killed right after each external create of the example network, before the
// create is recorded: every retried create must adopt what the first one made (by the uid tag
// for kinds EC2 tags at creation, by content for routes, associations and rules), so EC2 ends
// with exactly one resource per object, and deleting the network leaves nothing behind.
//
// Under the failpoint the worker runs one activity at a time and exits after every first
// create attempt (worker/main.ts), so each object kills it once, whatever order the
// dependency waves wake them in; the retry (attempt 2) comes when the heartbeat timeout
// notices the dead worker, and runs on the restarted one without exiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeRouteTablesCommand, DescribeSecurityGroupRulesCommand } from '@aws-sdk/client-ec2';
import { decodeTimeoutType } from '@temporalio/common';
import { workflowIdFor } from '#core/managed-kind';
import { EC2_GROUP, ec2KindFixtures, samplesOfMissingKinds } from '#test/kind-fixtures';
import { ControlPlane, condition, eventually, type VpcObject } from './harness';
import {
  leftovers,
  managedObjects,
  managedOnly,
  networkManifests,
  useOwnProviderConfig,
  withProviderConfig,
  type Manifest,
} from './network';

const FAILPOINT = { CHRONOPLANE_FAILPOINT: 'exit-after-external-create' };

let plane: ControlPlane;
beforeAll(async () => {
  // The test starts a dozen workers, one after each kill; each starts from the bundle that
  // global-setup built once (harness.ts), so a restart takes seconds.
  plane = await ControlPlane.start('crash');
});
afterAll(async () => {
  await plane?.stop();
});

/**
 * Starts a failpoint worker again each time the failpoint ends one, and keeps the exit codes.
 * `stop` stops the current worker and the restarting, and reports a worker that failed to start.
 */
function restartOnExit(): { exitCodes: (number | null)[]; stop: () => Promise<void> } {
  const exitCodes: (number | null)[] = [];
  let stopped = false;
  const loop = (async () => {
    for (;;) {
      const code = await plane.workerExit();
      if (stopped) return;
      exitCodes.push(code);
      await plane.startWorker(FAILPOINT);
      if (stopped) return plane.stopWorker(); // stopped while this one was starting
    }
  })();
  loop.catch(() => {}); // reported by stop()
  return {
    exitCodes,
    stop: async () => {
      stopped = true;
      await plane.stopWorker();
      await loop;
    },
  };
}

/** The names of the objects that are not Ready and Synced yet: one kubectl call for all. */
async function notReady(manifests: Manifest[]): Promise<string[]> {
  const { items } = JSON.parse(await plane.kubectl(['get', 'managed', '-o', 'json'])) as { items: (VpcObject & { kind: string })[] };
  const ready = new Set(
    items
      .filter((o) => condition(o, 'Ready')?.status === 'True' && condition(o, 'Synced')?.status === 'True')
      .map((o) => `${o.kind}/${o.metadata.name}`),
  );
  return manifests.map((m) => `${m.kind}/${m.metadata.name}`).filter((name) => !ready.has(name));
}

/**
 * Whether the object's create was retried because its heartbeats stopped: the started event of
 * a retried activity carries the attempt and the failure of the attempt before it.
 */
async function createRetriedAfterHeartbeatTimeout(m: Manifest): Promise<boolean> {
  const id = workflowIdFor({ group: EC2_GROUP, kind: m.kind, namespace: plane.namespace, name: m.metadata.name });
  const events = (await plane.temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
  const creates = new Set(
    events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'createExternal').map((e) => Number(e.eventId)),
  );
  return events.some((e) => {
    const started = e.activityTaskStartedEventAttributes;
    return (
      started !== undefined &&
      started !== null &&
      creates.has(Number(started.scheduledEventId)) &&
      (started.attempt ?? 1) > 1 &&
      decodeTimeoutType(started.lastFailure?.timeoutFailureInfo?.timeoutType) === 'HEARTBEAT'
    );
  });
}

describe('the worker killed after each create', () => {
  it('ends with exactly one external resource per object, all Ready, and deletes to nothing', { timeout: 720_000 }, async () => {
    const providerConfig = await useOwnProviderConfig(plane);
    // The example network, and a sample of each registered kind it lacks: every kind's create is interrupted.
    const fixtures = await ec2KindFixtures();
    const network = await networkManifests();
    const applied = withProviderConfig([...network, ...samplesOfMissingKinds(network, fixtures)], providerConfig);
    const manifests = managedOnly(applied);
    const kinds = new Set(manifests.map((m) => m.kind));
    expect(kinds).toEqual(new Set(fixtures.map((f) => f.kind.api.kind)));

    await plane.stopWorker();
    await plane.startWorker(FAILPOINT);
    const restarts = restartOnExit();
    await plane.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: applied }));
    // Polled once a second with one kubectl call: the machine is busy enough restarting workers.
    const deadline = Date.now() + 600_000;
    try {
      for (let waiting = await notReady(manifests); waiting.length > 0; waiting = await notReady(manifests)) {
        if (Date.now() > deadline)
          throw new Error(`still waiting for ${waiting.join(', ')} to be Ready after ${restarts.exitCodes.length} kills`);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    } finally {
      await restarts.stop();
    }
    await plane.startWorker(); // without the failpoint, for the deletion

    const kills = restarts.exitCodes;
    expect(new Set(kills)).toEqual(new Set([137])); // every exit was the failpoint's, never a crash
    expect(kills.length, 'more kills than objects: a retried create exited again').toBeLessThanOrEqual(manifests.length);
    // Each kill interrupted one create (one activity at a time), which the heartbeat timeout
    // retried; and every kind's create ran, and was interrupted, under the failpoint.
    const retried = (await Promise.all(manifests.map(async (m) => ((await createRetriedAfterHeartbeatTimeout(m)) ? [m] : [])))).flat();
    expect(retried).toHaveLength(kills.length);
    expect(new Set(retried.map((m) => m.kind))).toEqual(kinds);
    expect(kills.length).toBeGreaterThanOrEqual(kinds.size);

    // Exactly one resource per object: the kinds tagged at creation, counted by their tags...
    const found = await leftovers(plane);
    const taggedKinds = new Set(fixtures.filter((f) => f.tagged).map((f) => f.kind.api.kind));
    const objectsOfTaggedKinds: Record<string, number> = {};
    for (const m of manifests.filter((m) => taggedKinds.has(m.kind)))
      objectsOfTaggedKinds[m.kind] = (objectsOfTaggedKinds[m.kind] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(found).map(([kind, ids]) => [kind, ids.length]))).toEqual(objectsOfTaggedKinds);
    // ...and those EC2 knows by content, in what holds them, each the one recorded.
    const name = async (kind: string, n: string) => (await plane.getObject(kind, n))!.metadata.annotations!['crossplane.io/external-name']!;
    const table = (await plane.ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [await name('routetable', 'public')] })))
      .RouteTables![0]!;
    expect(table.Routes!.filter((r) => r.DestinationCidrBlock === '0.0.0.0/0').map((r) => r.GatewayId)).toEqual([
      await name('internetgateway', 'gateway'),
    ]);
    expect(
      table
        .Associations!.filter((a) => !a.Main)
        .map((a) => a.RouteTableAssociationId)
        .sort(),
    ).toEqual([await name('routetableassociation', 'public-a'), await name('routetableassociation', 'public-b')].sort());
    const rules = await plane.ec2.send(
      new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: [await name('securitygroup', 'web')] }] }),
    );
    expect(
      rules
        .SecurityGroupRules!.filter((r) => !r.IsEgress)
        .map((r) => r.SecurityGroupRuleId)
        .sort(),
    ).toEqual([await name('securitygrouprule', 'web-https'), await name('securitygrouprule', 'web-ssh-from-admin')].sort());

    // The key pair's private key survived its kill: the retry made the key pair anew, since the
    // first attempt's key was lost with the worker, and published the new one.
    const keySecret = JSON.parse(await plane.kubectl(['get', 'secret', 'admin-key', '-o', 'json'])) as { data?: Record<string, string> };
    expect(Buffer.from(keySecret.data?.privateKey ?? '', 'base64').toString()).toMatch(/PRIVATE KEY/);
    expect(Buffer.from(keySecret.data?.keyName ?? '', 'base64').toString()).toBe(await name('keypair', 'admin'));

    await plane.kubectl(['delete', '--wait=false', ...applied.map((m) => `${m.kind.toLowerCase()}/${m.metadata.name}`)]);
    await eventually(async () => (await managedObjects(plane)).length === 0, 'every managed object to be gone', 120_000);
    expect(await leftovers(plane)).toEqual({});
  });
});
