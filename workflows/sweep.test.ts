// The sweep workflow against a real Temporal dev server: it wakes the reconcile workflows its
// activity names (real ones, over an in-memory world), nothing else, keeps sweeping when a
// sweep or a wake-up fails, and continues as new to bound its history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleWorkflows, startTestEnvironment } from '#test/unit/temporal-env';
import { World } from '#test/unit/world';
import type { SweepActivities } from '#contract/sweep-workflow';
import { workflowIdFor, type ResourceRef } from '#core/managed-kind';
import { RECONCILE_WORKFLOW, resourceEventSignal, type ReconcileInput } from '#contract/reconcile-workflow';
import {
  SWEEP_WORKFLOW,
  sweepStateQuery,
  sweepWorkflowIdFor,
  type SweepInput,
  type SweepOutcome,
  type WakeTarget,
} from '#contract/sweep-workflow';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;
let counter = 0;

beforeAll(async () => {
  [env, bundle] = await Promise.all([startTestEnvironment(), bundleWorkflows()]);
});
afterAll(async () => {
  await env?.teardown();
});

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const outcome = (wake: WakeTarget[] = []): SweepOutcome => ({ intervalSeconds: 0.2, listed: 1, swept: 1, scopes: 1, wake, failures: [] });

/**
 * A worker serving a settled resource's reconcile workflow over `world` and a sweep whose
 * activity answers with `sweep(n)` on its n-th call (from 1). With RECORD_HISTORIES=1, the
 * sweep's history is saved as `recordAs` for the replay test (test/replay/).
 */
async function withSweep(
  world: World,
  sweep: (n: number, ref: ResourceRef, recovering?: readonly string[]) => SweepOutcome,
  body: (h: { ref: ResourceRef; sweepId: string; calls: () => number }) => Promise<void>,
  input: Partial<SweepInput> = {},
  recordAs?: string,
): Promise<void> {
  counter += 1;
  const taskQueue = `sweep-test-${counter}`;
  const ref: ResourceRef = { group: 'ec2.aws.chronoplane.io', kind: 'VPC', namespace: `sweep-${counter}`, name: 'settled' };
  let calls = 0;
  const sweepActivities: SweepActivities = {
    async sweepKind(_scope, recovering) {
      calls += 1;
      return sweep(calls, ref, recovering);
    },
  };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: { ...world.activities(), ...sweepActivities },
  });
  await worker.runUntil(async () => {
    const reconcile = await env.client.workflow.signalWithStart(RECONCILE_WORKFLOW, {
      workflowId: workflowIdFor(ref),
      taskQueue,
      args: [{ ref } satisfies ReconcileInput],
      signal: resourceEventSignal,
      signalArgs: [{ type: 'ADDED', uid: world.object!.uid, resourceVersion: '1' }],
    });
    await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
    const scope = { group: ref.group, kind: ref.kind, namespace: ref.namespace };
    const sweepId = sweepWorkflowIdFor(scope);
    await env.client.workflow.start(SWEEP_WORKFLOW, { workflowId: sweepId, taskQueue, args: [{ scope, ...input } satisfies SweepInput] });
    await body({ ref, sweepId, calls: () => calls });
    if (recordAs && process.env.RECORD_HISTORIES === '1') {
      const history = await env.client.workflow.getHandle(sweepId).fetchHistory();
      await writeFile(join(import.meta.dirname, '..', 'test', 'replay', 'histories', `${recordAs}.json`), historyToJSON(history));
    }
    await Promise.all([reconcile.terminate('test finished'), env.client.workflow.getHandle(sweepId).terminate('test finished')]);
  });
}

const target = (ref: ResourceRef, world: World, reason: string): WakeTarget => ({
  ref,
  uid: world.object!.uid,
  resourceVersion: String(world.object!.resourceVersion),
  generation: 1,
  reason,
});

describe('sweep workflow', () => {
  it('sweeps every interval and wakes only the workflows it names, once each', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2, safetyNetSeconds: 3_600 };
    await withSweep(
      world,
      (n, ref) => outcome(n === 3 ? [target(ref, world, 'drifted: tag a: not in spec')] : []),
      async ({ sweepId, calls }) => {
        const passes = world.count('observe');
        const handle = env.client.workflow.getHandle(sweepId);
        await eventually(async () => (await handle.query(sweepStateQuery)).sweeps >= 6, 'six sweeps');
        expect(world.count('observe')).toBe(passes + 1); // the one wake-up, and no other pass
        const state = await handle.query(sweepStateQuery);
        expect(state.woken).toBe(1);
        expect(state.last).toMatchObject({ wake: [], intervalSeconds: 0.2 });
        expect(calls()).toBeGreaterThanOrEqual(6);
      },
    );
  });

  it('goes on sweeping after a failed sweep and a wake-up for a workflow that is not running', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2, safetyNetSeconds: 3_600 };
    await withSweep(
      world,
      (n, ref) => {
        if (n === 1) throw ApplicationFailure.nonRetryable('Kubernetes API: connection refused', 'Transient');
        const gone = { ...target(ref, world, 'its external resource is gone'), ref: { ...ref, name: 'no-workflow' } };
        return outcome(n === 2 ? [gone, target(ref, world, 'its external resource is gone')] : []);
      },
      async ({ sweepId }) => {
        const handle = env.client.workflow.getHandle(sweepId);
        await eventually(async () => (await handle.query(sweepStateQuery)).lastError !== undefined, 'the failed sweep');
        expect((await handle.query(sweepStateQuery)).lastError).toBe('Kubernetes API: connection refused');
        await eventually(async () => (await handle.query(sweepStateQuery)).sweeps >= 3, 'sweeps after it');
        const state = await handle.query(sweepStateQuery);
        expect(state.woken).toBe(1);
        expect(state.lastError).toBeUndefined();
      },
      { intervalSeconds: 0.2 }, // what the failed first sweep waits, as a previous run would carry it
    );
  });

  it('tells each sweep which scopes the last one could not read, until they answer', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2, safetyNetSeconds: 3_600 };
    const asked: (readonly string[] | undefined)[] = [];
    await withSweep(
      world,
      (n, _ref, recovering) => {
        asked.push(recovering);
        if (n === 1) return { ...outcome(), failures: ['default/us-east-1: connect ECONNREFUSED'], failedScopes: ['default/us-east-1'] };
        // A sweep that fails as a whole (the API server's list) forgets nothing.
        if (n === 2) throw ApplicationFailure.nonRetryable('Kubernetes API: connection refused', 'Transient');
        return outcome();
      },
      async ({ calls }) => {
        await eventually(() => calls() >= 4, 'four sweeps');
        expect(asked.slice(0, 4)).toEqual([undefined, ['default/us-east-1'], ['default/us-east-1'], undefined]);
      },
      {},
      'sweep-recovering-scope',
    );
  });

  it('continues as new when its history budget is spent, carrying its interval', async () => {
    const world = new World();
    await withSweep(
      world,
      () => outcome(),
      async ({ sweepId }) => {
        const handle = env.client.workflow.getHandle(sweepId);
        const firstRunId = (await handle.describe()).runId;
        await eventually(async () => (await handle.describe()).runId !== firstRunId, 'a new run', 30_000);
        const next = await handle.describe();
        expect(next.status.name).toBe('RUNNING');
        const [input] = (
          await env.client.workflowService.getWorkflowExecutionHistory({
            namespace: 'default',
            execution: { workflowId: sweepId, runId: next.runId },
            maximumPageSize: 1,
          })
        ).history!.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
        expect(JSON.parse(Buffer.from(input!.data!).toString())).toMatchObject({ intervalSeconds: 0.2, historyBudget: 30 });
        await sleep(500);
        expect((await env.client.workflow.getHandle(sweepId).describe()).status.name).toBe('RUNNING');
      },
      { historyBudget: 30 },
    );
  });
});
