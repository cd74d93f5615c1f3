// Two worker processes share one task queue. 200 VPCs are applied in one `kubectl apply`, one
// worker is killed with SIGKILL once a quarter of them are Ready, and the other finishes the
// job: every VPC Ready, exactly one VPC at EC2 per object, and each worker's own metrics show
// the work it did. Then, with a second worker started anew, everything is deleted until EC2
// holds none of them, with one delete call per VPC between the two.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DescribeVpcsCommand, type Vpc } from '@aws-sdk/client-ec2';
import { stringify } from 'yaml';
import { ControlPlane, eventually, stopChild, vpcManifest } from './harness';
import { freePort } from '#stack/ports';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { UID_TAG } from '#providers/aws/tags';
import { EXTERNAL_NAME } from '#core/annotations';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { keyOfObject, watchObjects, type WatchedObjects } from '#bench/watch-objects';
import { readWorkerLatencies } from '#bench/worker-latencies';
import { EC2_API_CALLS } from '#providers/aws/call-metrics';
import { RECONCILE_FAILURES } from '#workflows/failure-metrics';

const COUNT = 200;
/** How many are Ready when the second worker is killed: mid-way, with most of the work still ahead. */
const READY_AT_KILL = 50;
// Generous for a loaded 2-core machine: 200 VPCs usually take one to two minutes here.
const ALL_READY_MS = 10 * 60_000;
const ALL_GONE_MS = 10 * 60_000;
/** One VPC's pass, or its deletion, with nothing else going on. */
const ONE_VPC_MS = 60_000;

let plane: ControlPlane;
let secondWorker: ChildProcess | undefined;
let vpcs: WatchedObjects;
const metricsPorts = { first: 0, second: 0 };

beforeAll(async () => {
  metricsPorts.first = await freePort();
  metricsPorts.second = await freePort();
  plane = await ControlPlane.start('workers', {
    CHRONOPLANE_WORKER_METRICS_PORT: String(metricsPorts.first),
    // The kinds' own poll intervals: 200 settled VPCs at the harness's 3 s would only add load
    // that this test does not look at.
    CHRONOPLANE_POLL_STEADY_SECONDS: '',
    CHRONOPLANE_POLL_PENDING_SECONDS: '',
  });
  secondWorker = await plane.spawnExtra('worker', { CHRONOPLANE_WORKER_METRICS_PORT: String(metricsPorts.second) });
  vpcs = await watchObjects(inject('kubeconfigPath'), [vpcApi], { namespace: plane.namespace });
});
afterAll(async () => {
  await vpcs?.stop();
  await stopChild(secondWorker);
  await plane?.stop();
});

const vpcName = (index: number) => `vpc-${String(index).padStart(3, '0')}`;

/** One multi-document YAML stream, as a user would keep 200 VPCs in one file. */
function manifestStream(): string {
  return Array.from({ length: COUNT }, (_, i) =>
    stringify(vpcManifest(vpcName(i), { cidrBlock: `10.${(i >> 8) & 255}.${i & 255}.0/24` })),
  ).join('---\n');
}

/** Workflow tasks the worker behind `port` has run so far, from the Temporal SDK's own metrics. */
async function workflowTasksRun(port: number): Promise<number> {
  return (await readWorkerLatencies(port))['workflow task execution']?.count ?? 0;
}

/** Activities and local activities the worker behind `port` has run so far (observe, create, write status…). */
async function activitiesRun(port: number): Promise<number> {
  const steps = await readWorkerLatencies(port);
  return Object.entries(steps)
    .filter(([step]) => step.startsWith('local activity ') || step.startsWith('activity '))
    .filter(([step]) => !step.startsWith('activity schedule-to-start'))
    .reduce((sum, [, { count }]) => sum + count, 0);
}

/** A counter's series on both workers' endpoints whose labels include `labels`: each series' labels and value. */
async function seriesOnWorkers(metric: string, labels: Record<string, string>): Promise<{ labels: string; value: number }[]> {
  const series: { labels: string; value: number }[] = [];
  for (const port of [metricsPorts.first, metricsPorts.second]) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const line of text.split('\n')) {
      const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
      if (!match || match[1] !== metric) continue;
      if (Object.entries(labels).every(([key, value]) => match[2]!.includes(`${key}="${value}"`)))
        series.push({ labels: match[2]!, value: Number(match[3]) });
    }
  }
  return series;
}

/** The sum of a counter over both workers' endpoints, over the series whose labels include `labels`. */
async function sumOnWorkers(metric: string, labels: Record<string, string>): Promise<number> {
  return (await seriesOnWorkers(metric, labels)).reduce((sum, { value }) => sum + value, 0);
}

/** Delete activities the worker behind `port` has run so far. */
async function deleteCalls(port: number): Promise<number> {
  return (await readWorkerLatencies(port))['activity deleteExternal']?.count ?? 0;
}

/** DeleteVpc calls counted by both workers, by outcome ("ok", an EC2 error code). */
async function deleteVpcOutcomes(): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (const { labels, value } of await seriesOnWorkers(EC2_API_CALLS, { operation: 'DeleteVpc' })) {
    const outcome = /outcome="([^"]*)"/.exec(labels)?.[1] ?? '?';
    outcomes[outcome] = (outcomes[outcome] ?? 0) + value;
  }
  return outcomes;
}

/**
 * Why a delete ran more than once, from the workflows' histories: the VPCs whose delete was
 * scheduled more than once, or started on a later attempt (a retry leaves no event of its own;
 * the attempt that ran carries the attempt number and the failure before it).
 */
async function repeatedDeletes(): Promise<string[]> {
  const ACTIVITY_TASK_SCHEDULED = 10;
  const ACTIVITY_TASK_STARTED = 11;
  const found: string[] = [];
  for (let i = 0; i < COUNT; i += 1) {
    const workflowId = workflowIdFor(refFor(vpcApi, plane.namespace, vpcName(i)));
    const events = (await plane.decodedHistory(workflowId)).events ?? [];
    const deletes = new Set(
      events
        .filter((e) => Number(e.eventType) === ACTIVITY_TASK_SCHEDULED)
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deleteExternal')
        .map((e) => String(e.eventId)),
    );
    const attempts = events
      .filter(
        (e) => Number(e.eventType) === ACTIVITY_TASK_STARTED && deletes.has(String(e.activityTaskStartedEventAttributes?.scheduledEventId)),
      )
      .map((e) => e.activityTaskStartedEventAttributes!);
    if (deletes.size === 1 && attempts.every((a) => (a.attempt ?? 1) === 1)) continue;
    const described = attempts.map((a) => `attempt ${a.attempt}${a.lastFailure ? ` after "${a.lastFailure.message}"` : ''}`);
    found.push(`${vpcName(i)}: ${deletes.size} delete(s) scheduled; ${described.join(', ') || 'none started'}`);
  }
  return found;
}

/** The VPCs at EC2 tagged as this test's namespace's. */
async function vpcsAtEc2(): Promise<Vpc[]> {
  const found: Vpc[] = [];
  let NextToken: string | undefined;
  do {
    const page = await plane.ec2.send(
      new DescribeVpcsCommand({ Filters: [{ Name: 'tag:crossplane-namespace', Values: [plane.namespace] }], NextToken }),
    );
    found.push(...(page.Vpcs ?? []));
    NextToken = page.NextToken;
  } while (NextToken);
  return found;
}

const readyCount = () =>
  [...vpcs.current.values()].filter((o) => o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;

describe('several workers on one task queue', () => {
  it(
    `makes ${COUNT} VPCs Ready, one each at EC2, when one of two workers is killed with SIGKILL mid-way`,
    async () => {
      const applied = plane.kubectl(['apply', '-f', '-'], manifestStream());
      applied.catch(() => {}); // awaited below; a failed apply must not go unhandled while we wait
      await vpcs
        .waitFor(() => readyCount() >= READY_AT_KILL, ALL_READY_MS)
        .catch((error: Error) => {
          throw new Error(`${error.message} waiting for ${READY_AT_KILL} Ready VPCs; ${vpcs.describe()}`);
        });

      // Both did work before the kill, by their own account.
      const [firstBefore, secondBefore] = await Promise.all([workflowTasksRun(metricsPorts.first), workflowTasksRun(metricsPorts.second)]);
      const [firstActivitiesBefore, secondActivitiesBefore] = await Promise.all([
        activitiesRun(metricsPorts.first),
        activitiesRun(metricsPorts.second),
      ]);
      expect(firstBefore, 'workflow tasks run by the first worker before the kill').toBeGreaterThan(0);
      expect(secondBefore, 'workflow tasks run by the second worker before the kill').toBeGreaterThan(0);
      expect(firstActivitiesBefore, 'activities run by the first worker before the kill').toBeGreaterThan(0);
      expect(secondActivitiesBefore, 'activities run by the second worker before the kill').toBeGreaterThan(0);

      secondWorker!.kill('SIGKILL');
      const readyAtKill = readyCount();
      // Read after the kill: whatever the survivor does from here on is work the killed one left.
      const [firstAtKill, firstActivitiesAtKill] = [await workflowTasksRun(metricsPorts.first), await activitiesRun(metricsPorts.first)];
      expect(readyAtKill, 'VPCs Ready when the second worker was killed').toBeLessThan(COUNT);

      await applied;
      await vpcs
        .waitFor(() => vpcs.current.size === COUNT && readyCount() === COUNT, ALL_READY_MS)
        .catch((error: Error) => {
          throw new Error(`${error.message} waiting for all ${COUNT} VPCs to be Ready (${readyCount()} are); ${vpcs.describe()}`);
        });
      expect(secondWorker!.signalCode).toBe('SIGKILL');

      // The survivor finished it: its counters grew after the kill.
      const [firstAtEnd, firstActivitiesAtEnd] = [await workflowTasksRun(metricsPorts.first), await activitiesRun(metricsPorts.first)];
      expect(firstAtEnd).toBeGreaterThan(firstAtKill);
      expect(firstActivitiesAtEnd).toBeGreaterThan(firstActivitiesAtKill);
      // The closing note of issue 22 reports these.
      console.log(
        `several workers: ${readyAtKill}/${COUNT} Ready at the kill; before it, workflow tasks / activities: ` +
          `first ${firstBefore} / ${firstActivitiesBefore}, second ${secondBefore} / ${secondActivitiesBefore}; ` +
          `the first after it: ${firstAtEnd - firstAtKill} / ${firstActivitiesAtEnd - firstActivitiesAtKill}`,
      );

      // Exactly one VPC at EC2 per object, and it is the one the object names.
      const objects = [...vpcs.current.values()];
      const atEc2 = await vpcsAtEc2();
      const uidOf = (vpc: Vpc) => vpc.Tags?.find((tag) => tag.Key === UID_TAG)?.Value;
      const perUid = new Map<string, string[]>();
      for (const vpc of atEc2) perUid.set(uidOf(vpc) ?? 'untagged', [...(perUid.get(uidOf(vpc) ?? 'untagged') ?? []), vpc.VpcId!]);
      const duplicated = [...perUid].filter(([, ids]) => ids.length > 1);
      expect(duplicated, 'objects with more than one VPC at EC2').toEqual([]);
      expect(atEc2).toHaveLength(COUNT);
      for (const object of objects) {
        expect(perUid.get(object.metadata!.uid!), `VPCs at EC2 of ${object.metadata!.name}`).toEqual([
          object.metadata!.annotations![EXTERNAL_NAME],
        ]);
      }
    },
    ALL_READY_MS * 2,
  );

  it(
    `deletes all ${COUNT} with two workers again, until EC2 holds none of them, with one delete call each`,
    async () => {
      // A worker started anew shares the deletes: the survivor holds every workflow in its
      // cache, while any worker may pick up a delete activity. A delete answered on one worker
      // is confirmed by a pass on the other, which must not delete again to find out.
      metricsPorts.second = await freePort();
      secondWorker = await plane.spawnExtra('worker', { CHRONOPLANE_WORKER_METRICS_PORT: String(metricsPorts.second) });
      await plane.kubectl(['delete', 'vpc', '--all', '--wait=false']);
      await vpcs
        .waitFor(() => vpcs.current.size === 0, ALL_GONE_MS)
        .catch((error: Error) => {
          throw new Error(`${error.message} waiting for all VPC objects to be gone; ${vpcs.describe()}`);
        });
      expect(await vpcsAtEc2()).toEqual([]);
      // A delete that answers gone releases its object itself, inside the activity, and the SDK
      // counts the activity only once it returns: the last objects may be gone a moment before
      // their activity is counted. A count can only rise, so waiting for it to reach COUNT hides
      // no extra delete: the assertion below still fails on one.
      await eventually(
        async () => (await deleteCalls(metricsPorts.first)) + (await deleteCalls(metricsPorts.second)) >= COUNT || undefined,
        `${COUNT} delete activities counted by the workers`,
        10_000,
      ).catch(() => undefined);
      const deletes = await Promise.all([deleteCalls(metricsPorts.first), deleteCalls(metricsPorts.second)]);
      console.log(`several workers: delete calls by the survivor ${deletes[0]}, by the new worker ${deletes[1]}`);
      expect(deletes[1], 'delete calls made by the new worker').toBeGreaterThan(0);
      // Said before the count is asserted, so a failure names the VPCs deleted more than once, and why.
      if (deletes[0] + deletes[1] !== COUNT) {
        console.log(`several workers: DeleteVpc outcomes ${JSON.stringify(await deleteVpcOutcomes())}; repeated deletes:`);
        for (const line of await repeatedDeletes()) console.log(`  ${line}`);
      }
      expect(deletes[0] + deletes[1], 'delete calls made by both workers').toBe(COUNT);
      // The workers' own count of EC2 calls agrees: one DeleteVpc per VPC.
      const deleteVpcs = await sumOnWorkers(EC2_API_CALLS, { operation: 'DeleteVpc', outcome: 'ok' });
      expect(deleteVpcs, 'DeleteVpc calls counted by the workers').toBe(COUNT);
    },
    ALL_GONE_MS + 60_000,
  );

  it("counts failed passes by kind and class, and EC2 calls by operation and outcome, on the workers' metrics endpoints", async () => {
    await plane.apply(vpcManifest('too-big', { cidrBlock: '10.0.0.0/8' }));
    await vpcs
      .waitFor(() => {
        const synced = vpcs.current.get(keyOfObject('VPC', 'too-big'))?.status?.conditions?.find((c) => c.type === 'Synced');
        return synced?.status === 'False' && /InvalidVpc\.Range/.test(synced.message ?? '');
      }, ONE_VPC_MS)
      .catch((error: Error) => {
        throw new Error(`${error.message} waiting for VPC too-big to be Synced=False with InvalidVpc.Range; ${vpcs.describe()}`);
      });
    // Counted as the pass ends, before its status reaches the object: the metric may trail by a moment.
    await eventually(
      async () => (await sumOnWorkers(RECONCILE_FAILURES, { kind: 'VPC', class: 'InvalidInput' })) >= 1,
      'the failed pass counted as InvalidInput',
    );
    expect(await sumOnWorkers(EC2_API_CALLS, { operation: 'CreateVpc', outcome: 'InvalidVpc.Range' })).toBeGreaterThanOrEqual(1);
    expect(await sumOnWorkers(RECONCILE_FAILURES, { kind: 'VPC', class: 'Transient' })).toBe(0);
    await plane.kubectl(['delete', 'vpc', 'too-big', '--wait=false']);
    await vpcs.waitFor(() => vpcs.current.size === 0, ONE_VPC_MS);
  });
});
