// The reconcile workflow against a real Temporal dev server, with its activities backed by an
// in-memory world. These pin down the loop's behaviour: what it does, in what order, and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { Client, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleWorkflows, startTestEnvironment } from '#test/unit/temporal-env';
import { World, newObject } from '#test/unit/world';
import type { PassObservation, ReferenceObservation } from '#contract/observation';
import type { ReconcileActivities } from '#contract/reconcile-activities';
import { deletionBlockedBy } from './decide';
import { releasableWithoutProvider } from '#contract/observation';
import { DELETED_EXTERNAL_RESOURCE } from '#contract/write-back';
import { withSyncedNote } from '#core/conditions';
import {
  RECONCILE_WORKFLOW,
  reconcileNowUpdate,
  resourceEventSignal,
  stateQuery,
  type ReconcileInput,
  type ResourceEvent,
} from '#contract/reconcile-workflow';
import { ReadyKey, SyncedKey } from '#contract/search-attributes';
import { workflowIdFor, type ResourceRef } from '#core/managed-kind';

const { EventType } = temporal.api.enums.v1;
let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;
let counter = 0;

beforeAll(async () => {
  [env, bundle] = await Promise.all([startTestEnvironment(), bundleWorkflows()]);
});
afterAll(async () => {
  await env?.teardown();
});

/**
 * Runs `body` with a worker serving one fresh workflow over `world`, signalled with start as
 * the watcher does, or (`eagerStart`) started with the event as its input, as the watcher
 * embedded in the worker does for an object it sees first.
 */
async function withWorkflow(
  world: World,
  body: (h: Harness) => Promise<void>,
  recordAs?: string,
  historyBudget?: number,
  eagerStart = false,
): Promise<void> {
  counter += 1;
  const taskQueue = `reconcile-test-${counter}`;
  const ref: ResourceRef = {
    group: 'ec2.aws.chronoplane.io',
    kind: 'VPC',
    namespace: 'test',
    name: `vpc-${counter}`,
  };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: world.activities(),
  });
  await worker.runUntil(async () => {
    const event = (): ResourceEvent => ({
      type: 'MODIFIED',
      uid: world.object?.uid ?? 'gone',
      resourceVersion: String(world.object?.resourceVersion ?? 0),
    });
    const signal = async () =>
      env.client.workflow.signalWithStart(RECONCILE_WORKFLOW, {
        workflowId: workflowIdFor(ref),
        taskQueue,
        args: [{ ref, historyBudget } satisfies ReconcileInput],
        signal: resourceEventSignal,
        signalArgs: [event()],
      });
    // Eager start needs a client on the worker's own NativeConnection.
    const handle = eagerStart
      ? await new Client({ connection: env.nativeConnection }).workflow.start(RECONCILE_WORKFLOW, {
          workflowId: workflowIdFor(ref),
          taskQueue,
          args: [{ ref, historyBudget, event: { ...event(), type: 'ADDED' } } satisfies ReconcileInput],
          requestEagerStart: true,
        })
      : await signal();
    await body({ handle, signal, world });
    if (recordAs && process.env.RECORD_HISTORIES === '1') {
      const history = await handle.fetchHistory();
      await writeFile(join(import.meta.dirname, '..', 'test', 'replay', 'histories', `${recordAs}.json`), historyToJSON(history));
    }
    const description = await handle.describe();
    if (description.status.name === 'RUNNING') await handle.terminate('test finished');
  });
}

interface Harness {
  handle: WorkflowHandle;
  signal: () => Promise<unknown>;
  world: World;
}

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const references = (over: Partial<ReferenceObservation> = {}): ReferenceObservation => ({
  waiting: [],
  errors: [],
  writes: [],
  unmarked: [],
  dependsOnManaged: true,
  ...over,
});
/** What the watcher sends when something this object depends on changed. */
async function wake(handle: Harness['handle'], world: World): Promise<void> {
  const o = world.object!;
  await handle.signal(resourceEventSignal, { type: 'MODIFIED', uid: o.uid, resourceVersion: String(o.resourceVersion), wake: true });
}
/**
 * A world whose observe lets go of a deletion that needs no provider without asking it, as the
 * real activity does (activities/reconcile.ts): the provider's error is then never seen.
 */
class ReleasingWorld extends World {
  /** Passes released without the provider, and why. */
  released: string[] = [];
  /** Thrown by the next deleteExternal calls, in order. */
  deleteFailures: Error[] = [];
  /** Whether delete answers that the external resource is gone, as a VPC's does. */
  deletesSynchronously = false;
  /** Someone changes the object while its delete runs: a release decided before must not happen. */
  changedDuringDelete = false;
  /**
   * The delete's answer is lost after it released the object (a cut connection), and its retry
   * finds the object gone, as the real one does (PassContext.current).
   */
  answerLostAfterRelease = false;

  override activities(): ReconcileActivities {
    const activities = super.activities();
    return {
      ...activities,
      deleteExternal: async (ref, uid, releaseWhenGone) => {
        const failure = this.deleteFailures.shift();
        if (!failure) {
          const externalName = this.object?.externalName;
          if (this.changedDuringDelete) this.bump(this.live(uid));
          const decidedOnThis = releaseWhenGone?.decidedOn === String(this.live(uid).resourceVersion);
          const deleted = await activities.deleteExternal(ref, uid);
          if (!this.deletesSynchronously) return deleted;
          const gone = { uid, externalName };
          // As the real one (activities/external-calls.ts): the release the workflow decided on,
          // while the object is still the version it decided on.
          if (!releaseWhenGone || !decidedOnThis) return { ...deleted, gone };
          const own = { type: 'Normal' as const, reason: DELETED_EXTERNAL_RESOURCE, message: deleted.summary };
          const released = this.release(uid, [...releaseWhenGone.events, own]);
          if (this.answerLostAfterRelease) this.live(uid); // throws: the object is gone
          return { ...deleted, gone, released };
        }
        this.calls.push('deleteExternal');
        throw failure;
      },
      observe: async (ref, atLeast, known): Promise<PassObservation> => {
        const seen = await activities.observe(ref, atLeast, known);
        if (!seen.found || seen.object.paused) return seen;
        const why = releasableWithoutProvider(seen.object, known.noExternal);
        if (!why) return seen;
        this.released.push(why);
        const { externalError: _notAsked, ...rest } = seen;
        return { ...rest, external: { resourceExists: false, resourceUpToDate: false, notObserved: why } };
      },
    };
  }
}
/**
 * A world whose object carries Crossplane's per-object controls, as the real observe reports
 * them: a reconcile request's token and the one status records, and a poll-interval annotation
 * it cannot honour.
 */
class AnnotatedWorld extends World {
  reconcileRequestedAt?: string;
  lastHandledReconcileAt?: string;
  pollIntervalProblem?: string;

  override activities(): ReconcileActivities {
    const activities = super.activities();
    return {
      ...activities,
      observe: async (...args): Promise<PassObservation> => {
        const seen = await activities.observe(...args);
        if (!seen.found) return seen;
        const { reconcileRequestedAt, lastHandledReconcileAt, pollIntervalProblem } = this;
        return {
          ...seen,
          object: { ...seen.object, reconcileRequestedAt, lastHandledReconcileAt },
          ...(pollIntervalProblem ? { pollIntervalProblem } : {}),
        };
      },
      writeBack: async (ref, uid, outcome) => {
        const written = await activities.writeBack(ref, uid, outcome);
        if (outcome.status) this.lastHandledReconcileAt = outcome.status.lastHandledReconcileAt;
        return written;
      },
    };
  }
}

const brokenProviderConfig = { failureClass: 'MissingConfiguration' as const, message: 'cannot get ProviderConfig "gone": not found' };

const lastPassDone = async (handle: Harness['handle']) => (await handle.query(stateQuery)).lastPass !== undefined;

describe('reconcile workflow', () => {
  it('adds the finalizer, creates once, and reports Ready and Synced, also as search attributes', async () => {
    const world = new World();
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        // The finalizer goes in with the create, in the same activity.
        expect(world.calls.slice(0, 2)).toEqual(['observe', 'createExternal']);
        expect(world.finalizersAddedByCreate).toBe(1);
        expect(world.count('createExternal')).toBe(1);
        expect(world.condition('Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess', observedGeneration: 1 });
        expect(world.events).toContain('Normal CreatedExternalResource: created ext-uid-1');
        await eventually(async () => (await handle.query(stateQuery)).ready === 'True', 'state query');
        const attributes = (await handle.describe()).typedSearchAttributes;
        expect(attributes.get(ReadyKey)).toBe('True');
        expect(attributes.get(SyncedKey)).toBe('True');
      },
      'create-adds-finalizer-and-settles',
    );
  });

  it('creates and settles as well when started with its first event as input (eager start), which no signal repeats', async () => {
    const world = new World();
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        expect(world.count('createExternal')).toBe(1);
        expect(world.condition('Synced')).toMatchObject({ status: 'True', reason: 'ReconcileSuccess', observedGeneration: 1 });
        const events = (await handle.fetchHistory()).events ?? [];
        expect(events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toEqual([]);
      },
      'eager-start-create-and-settle',
      undefined,
      true,
    );
  });

  it('runs a quick kind’s provider calls as local activities: markers in history, no activity tasks', async () => {
    const world = new World();
    world.quickProviderCalls = true;
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        expect(world.count('createExternal')).toBe(1);
        // A local call retried after a crash starts over at attempt 1: it must search.
        expect(world.createsFirstForObject).toEqual([false]);
        world.object!.deleting = true;
        await signal();
        await handle.result();
        expect(world.count('deleteExternal')).toBe(1);
        expect(world.object).toBeUndefined();
        const events = (await handle.fetchHistory()).events ?? [];
        const scheduled = events.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
        expect(scheduled).toEqual([]);
        expect(events.filter((e) => e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED).length).toBeGreaterThan(0);
      },
      'quick-provider-calls',
    );
  });

  it('writes nothing in the steady state: a pass that changes nothing is one observation', async () => {
    const world = new World();
    await withWorkflow(world, async ({ handle }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      const writes = world.count('writeBack');
      const summary = await handle.executeUpdate(reconcileNowUpdate);
      expect(summary.actions).toEqual([]);
      expect(world.count('writeBack')).toBe(writes);
    });
  });

  it('never lets observe read an object older than the newest event it heard of or its own last write', async () => {
    const world = new World();
    world.poll = { steadySeconds: 0.5, pendingSeconds: 0.2 };
    await withWorkflow(world, async ({ handle }) => {
      // The first pass needs the object of the event that started the workflow.
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      expect(world.observedAtLeast[0]).toBe('1');
      // A timer pass needs nothing newer than what the workflow wrote last.
      const written = String(world.object!.resourceVersion);
      const passes = world.count('observe');
      await eventually(() => world.count('observe') > passes, 'a timer pass');
      expect(world.observedAtLeast.at(-1)).toBe(written);
      // Someone else's change: the next pass (and every later one) needs at least its version.
      await handle.signal(resourceEventSignal, { type: 'MODIFIED', uid: world.object!.uid, resourceVersion: '100' });
      await eventually(() => world.observedAtLeast.at(-1) === '100', 'a pass that needs the event');
      const after = world.count('observe');
      await eventually(() => world.count('observe') > after + 1, 'later passes');
      expect(world.observedAtLeast.at(-1)).toBe('100');
    });
  });

  it('waits for the sweep once settled, if its kind has one: no timer pass, and a pass on the wake-up', async () => {
    const world = new World();
    world.poll = { steadySeconds: 0.2, pendingSeconds: 0.2, safetyNetSeconds: 3_600 };
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        await sleep(500); // the settling pass ends
        const passes = world.count('observe');
        await sleep(2_000); // ten steady intervals
        expect(world.count('observe')).toBe(passes);

        world.external.set(world.object!.externalName!, { upToDate: false }); // drift, which the sweep finds
        await wake(handle, world);
        await eventually(() => world.count('updateExternal') === 1, 'the drift corrected after the wake-up');
        expect((await handle.query(stateQuery)).synced).toBe('True');
      },
      'settle-and-wait-for-sweep',
    );
  });

  it('coalesces a burst of signals into a few passes', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      await handle.executeUpdate(reconcileNowUpdate);
      const before = world.count('observe');
      await Promise.all(Array.from({ length: 50 }, () => signal()));
      await handle.executeUpdate(reconcileNowUpdate);
      // 50 signals and one update: the burst is taken in a handful of workflow tasks.
      expect(world.count('observe') - before).toBeLessThanOrEqual(4);
    });
  });

  it('shows invalid input in Synced with the provider message, and backs off instead of retrying at once', async () => {
    const world = new World();
    const invalid = ApplicationFailure.nonRetryable("InvalidVpc.Range: The CIDR '10.0.0.0/8' is invalid.", 'InvalidInput');
    world.createFailures = [invalid, invalid, invalid];
    await withWorkflow(world, async ({ handle }) => {
      await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False');
      expect(world.condition('Synced')).toMatchObject({
        reason: 'ReconcileError',
        message: "InvalidVpc.Range: The CIDR '10.0.0.0/8' is invalid.",
      });
      expect(world.events.filter((e) => e.startsWith('Warning ReconcileError'))).toHaveLength(1);
      // The pending poll is 0.2 s, but after a failure the next attempt waits the 5 s backoff.
      await sleep(3_000);
      expect(world.count('createExternal')).toBe(1);
      expect((await handle.query(stateQuery)).consecutiveFailures).toBe(1);
    });
  });

  it('takes the finalizer its failed create wrote for its own: the echo brings no pass before the backoff', async () => {
    const world = new World();
    world.createFailures = [ApplicationFailure.nonRetryable("InvalidVpc.Range: The CIDR '10.0.0.0/8' is invalid.", 'InvalidInput')];
    const real = world.activities();
    let echo: (() => Promise<unknown>) | undefined;
    world.activities = () => ({
      ...real,
      createExternal: async (...args) => {
        // The watch event of the finalizer it wrote comes before the create's failure.
        const outcome = real.createExternal(...args).then(
          (created) => ({ created }),
          (error: unknown) => ({ error }),
        );
        await echo?.();
        const settled = await outcome;
        if ('error' in settled) throw settled.error;
        return settled.created;
      },
    });
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        echo = signal;
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready after the backoff', 20_000);
        expect(world.finalizersAddedByCreate).toBe(1);
        expect(world.count('createExternal')).toBe(2);
        // The second create waited for the 5 s backoff, not for the echo.
        expect(world.createsAt[1]! - world.createsAt[0]!).toBeGreaterThanOrEqual(4_500);
        expect((await handle.query(stateQuery)).consecutiveFailures).toBe(0);
      },
      'create-adds-finalizer-fails-then-backs-off',
    );
  });

  it('retries transient failures through the activity retry policy and still creates once', async () => {
    const world = new World();
    world.createFailures = [ApplicationFailure.retryable('RequestLimitExceeded: slow down', 'Transient')];
    await withWorkflow(world, async () => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      expect(world.count('createExternal')).toBe(2);
      expect(world.external.size).toBe(1);
    });
  });

  it('survives an activity that exhausts its retries, and tries again after the backoff', async () => {
    const world = new World();
    const apiServerDown = () => ApplicationFailure.retryable('Kubernetes API: connection refused', 'Transient');
    world.observeFailures = [apiServerDown(), apiServerDown(), apiServerDown()]; // all 3 local attempts
    await withWorkflow(world, async ({ handle }) => {
      await eventually(async () => (await handle.query(stateQuery)).consecutiveFailures === 1, 'the failed pass');
      expect((await handle.describe()).status.name).toBe('RUNNING');
      expect((await handle.query(stateQuery)).lastPass?.error).toBe('Kubernetes API: connection refused');
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready after the backoff', 20_000);
    });
  });

  it('does nothing while paused, and does not poll', async () => {
    const world = new World();
    world.object = newObject('uid-1', { paused: true });
    await withWorkflow(world, async () => {
      await eventually(() => world.condition('Synced')?.reason === 'ReconcilePaused', 'ReconcilePaused');
      await sleep(1_000);
      expect(world.calls.filter((c) => c !== 'observe' && c !== 'writeBack')).toEqual([]);
      expect(world.count('observe')).toBe(1);
    });
  });

  it('deletes the external resource, then removes the finalizer, then ends', async () => {
    const world = new World();
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        world.object!.deleting = true;
        await signal();
        await handle.result();
        // The pass after the delete confirms it and releases the object, recording the event
        // with the finalizer's removal.
        expect(world.calls.slice(-3)).toEqual(['deleteExternal', 'observe', 'removeFinalizer']);
        expect(world.events.at(-1)).toBe('Normal DeletedExternalResource: deleted');
        expect(world.external.size).toBe(0);
        expect(world.object).toBeUndefined();
      },
      // create-and-delete-status-after-confirming.json holds the same before the folded writes.
      'create-and-delete-folded-writes',
    );
  });

  it('orphans the external resource with deletionPolicy Orphan', async () => {
    const world = new World();
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      world.object!.deletionPolicy = 'Orphan';
      world.object!.deleting = true;
      await signal();
      await handle.result();
      expect(world.count('deleteExternal')).toBe(0);
      expect(world.external.size).toBe(1);
    });
  });

  it('continues as new when its history budget is spent, carrying its state', async () => {
    const world = new World();
    world.poll = { steadySeconds: 0.05, pendingSeconds: 0.05 };
    await withWorkflow(
      world,
      async ({ handle }) => {
        const firstRunId = (await handle.describe()).runId;
        await eventually(async () => (await handle.describe()).runId !== firstRunId, 'a new run', 30_000);
        const next = await handle.describe();
        expect(next.status.name).toBe('RUNNING');
        expect(next.historyLength).toBeLessThan(60);
        const state = await handle.query(stateQuery);
        expect(state.uid).toBe('uid-1');
        expect(state.passes).toBeGreaterThan(3); // counted on from the previous run
        expect(world.count('createExternal')).toBe(1); // the new run knows the VPC exists
      },
      undefined,
      40,
    );
  });

  it('treats a recreated object (same name, new uid) as new', async () => {
    const world = new World();
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      world.object = newObject('uid-2');
      await signal();
      await eventually(() => world.condition('Ready')?.status === 'True', 'the new object to become Ready');
      expect([...world.external.keys()].sort()).toEqual(['ext-uid-1', 'ext-uid-2']);
      expect((await handle.query(stateQuery)).uid).toBe('uid-2');
    });
  });

  it('waits for its references without creating, and creates as soon as a wake-up follows their resolution', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 }; // only a signal can end the wait
    world.references = references({ waiting: ['VPC test/a: not found'] });
    await withWorkflow(world, async ({ handle }) => {
      await eventually(() => world.condition('ReferencesResolved')?.status === 'False', 'ReferencesResolved=False');
      expect(world.condition('ReferencesResolved')).toMatchObject({
        reason: 'ReferencesUnresolved',
        message: 'waiting for VPC test/a: not found',
      });
      expect(world.condition('Ready')).toMatchObject({ status: 'False', reason: 'Creating', message: 'waiting for VPC test/a: not found' });
      expect(world.condition('Synced')?.status).toBe('True');
      await eventually(() => lastPassDone(handle), 'the pass to end');
      expect(world.count('createExternal')).toBe(0);

      world.references = references({ writes: ['vpcId from VPC test/a'], unmarked: ['VPC test/a'] });
      await wake(handle, world);
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True after the wake-up');
      expect(world.count('createExternal')).toBe(1);
      expect(world.calls.indexOf('resolveReferences')).toBeLessThan(world.calls.indexOf('createExternal'));
      expect(world.condition('ReferencesResolved')).toMatchObject({ status: 'True', reason: 'ResolvedReferences' });
    });
  });

  it('never takes a wake-up for the echo of its own write, though it ignores the same event without wake', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    world.references = references({ waiting: ['VPC test/a: not Ready yet'] });
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('ReferencesResolved')?.status === 'False', 'ReferencesResolved=False');
      await eventually(() => lastPassDone(handle), 'the pass to end');
      const observed = world.count('observe');
      expect(world.calls.at(-1)).toBe('writeBack'); // the resourceVersion signalled below is that write's

      await signal(); // the watch event of our own status write: nothing new
      await sleep(1_000);
      expect(world.count('observe')).toBe(observed);

      await wake(handle, world); // the same uid and resourceVersion, as a wake-up
      await eventually(() => world.count('observe') > observed, 'a pass after the wake-up');
    });
  });

  it('confirms a create by its own answer: the pass after it neither reads nor observes, and writes status once', async () => {
    const world = new World();
    world.createAnswersObservation = true;
    world.quickProviderCalls = true;
    world.poll = { steadySeconds: 60, pendingSeconds: 60 };
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True', 5_000);
        await eventually(() => lastPassDone(handle), 'the pass to end');
        expect(world.calls).toEqual(['observe', 'createExternal', 'writeBack']);
        expect(world.events).toEqual([expect.stringMatching(/^Normal CreatedExternalResource: created /)]);
        expect((await handle.query(stateQuery)).passes).toBe(2);
      },
      'create-confirmed-by-its-answer',
    );
  });

  it('confirms a create by its own answer though the echoes of its writes arrive first (a regular activity)', async () => {
    const world = new World();
    world.createAnswersObservation = true;
    world.poll = { steadySeconds: 60, pendingSeconds: 60 };
    const real = world.activities();
    let echo: (() => Promise<unknown>) | undefined;
    world.activities = () => ({
      ...real,
      createExternal: async (...args) => {
        const created = await real.createExternal(...args);
        await echo?.(); // the watch event of the name it recorded, before the activity answers
        return created;
      },
    });
    await withWorkflow(world, async ({ handle, signal }) => {
      echo = signal;
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True', 5_000);
      await eventually(() => lastPassDone(handle), 'the pass to end');
      expect(world.calls).toEqual(['observe', 'createExternal', 'writeBack']);
    });
  });

  it('never loses an edit made while a create runs: its watch event brings a pass that observes', async () => {
    const world = new World();
    world.createAnswersObservation = true;
    world.quickProviderCalls = true;
    const real = world.activities();
    let signalDuringCreate: (() => Promise<unknown>) | undefined;
    world.activities = () => ({
      ...real,
      createExternal: async (...args) => {
        const created = await real.createExternal(...args);
        world.object!.generation += 1; // someone edits the spec while the create runs
        world.object!.resourceVersion += 1;
        await signalDuringCreate?.();
        return created;
      },
    });
    await withWorkflow(world, async ({ handle, signal }) => {
      signalDuringCreate = signal;
      await eventually(() => world.condition('Synced')?.observedGeneration === 2, 'status of the edited spec', 5_000);
      expect(world.count('observe')).toBeGreaterThanOrEqual(2);
      expect(world.condition('Ready')?.status).toBe('True');
      expect(world.count('createExternal')).toBe(1);
      expect((await handle.query(stateQuery)).consecutiveFailures).toBe(0);
    });
  });

  it('observes again at once after a create: no timer, and no wait for the echo of its record', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 60 }; // a timer pass would come far too late
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True', 5_000);
        // One status write, by the pass that confirms the create, with the create's event.
        expect(world.calls.slice(0, 4)).toEqual(['observe', 'createExternal', 'observe', 'writeBack']);
        expect(world.count('writeBack')).toBe(1);
        expect(world.events).toEqual([expect.stringMatching(/^Normal CreatedExternalResource: created /)]);
        // The pass after the create reads the object at least as new as the recorded external name.
        expect(Number(world.observedAtLeast[1])).toBeGreaterThanOrEqual(world.object!.resourceVersion - 1);
        await eventually(() => lastPassDone(handle), 'the pass to end');
        const timers = ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerStartedEventAttributes);
        expect(timers).toHaveLength(1); // only the settled wait
      },
      'status-after-confirming-create',
    );
  });

  it('confirms a delete at once: the pass after it runs without a pending wait', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 60 };
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        const o = world.object!;
        o.deleting = true;
        o.resourceVersion += 1;
        await handle.signal(resourceEventSignal, { type: 'MODIFIED', uid: o.uid, resourceVersion: String(o.resourceVersion) });
        const ended = await Promise.race([handle.result().then(() => true), sleep(5_000).then(() => false)]);
        expect(ended).toBe(true);
        expect(world.calls.slice(-3)).toEqual(['deleteExternal', 'observe', 'removeFinalizer']);
      },
      'status-after-confirming-delete',
    );
  });

  it('does not loop when the provider cannot find what it just created: the pass after waits', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 60 };
    world.missesAfterCreate = 1;
    await withWorkflow(
      world,
      async () => {
        await eventually(() => world.count('createExternal') === 2, 'the create to be tried again, idempotently');
        await sleep(1_000);
        expect(world.count('createExternal')).toBe(2);
        expect(world.count('observe')).toBe(2);
        // Only the first create may skip the provider's search for an earlier one.
        expect(world.createsFirstForObject).toEqual([true, false]);
      },
      'second-create-searches-for-earlier',
    );
  });

  it('ignores a watch event no newer than the object its last pass read', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        await eventually(() => lastPassDone(handle), 'the pass to end');
        const observed = world.count('observe');
        const o = world.object!;
        // An echo of a write the last pass already read past (its own create's record, say).
        await handle.signal(resourceEventSignal, { type: 'MODIFIED', uid: o.uid, resourceVersion: String(o.resourceVersion - 2) });
        await sleep(1_000);
        expect(world.count('observe')).toBe(observed);
        // Someone else's change, newer than anything it read.
        o.resourceVersion += 1;
        await handle.signal(resourceEventSignal, { type: 'MODIFIED', uid: o.uid, resourceVersion: String(o.resourceVersion) });
        await eventually(() => world.count('observe') > observed, 'a pass for the newer event');
      },
      'ignore-events-already-seen',
    );
  });

  it('reports a reference error in Synced and does not create', async () => {
    const world = new World();
    const error = 'vpcIdSelector {net=main} matches 2 VPCs (a, b); it must select exactly one';
    world.references = references({ errors: [error] });
    await withWorkflow(world, async ({ handle }) => {
      await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False');
      expect(world.condition('Synced')).toMatchObject({ reason: 'ReconcileError', message: `cannot resolve references: ${error}` });
      expect(world.condition('ReferencesResolved')).toMatchObject({ status: 'False', message: `cannot resolve references: ${error}` });
      await eventually(() => lastPassDone(handle), 'the pass to end');
      expect(world.count('createExternal')).toBe(0);
    });
  });

  // A reference error fails the pass like a provider error: counted, so the backoff grows (or it
  // would retry every 5 s forever, re-reading every referenced object), and told in one event.
  it('backs off longer after each pass whose references cannot resolve, with one Warning event', async () => {
    const world = new World();
    const error = 'vpcIdSelector {net=main} matches 2 VPCs (a, b); it must select exactly one';
    world.references = references({ errors: [error] });
    await withWorkflow(world, async ({ handle }) => {
      await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False');
      await eventually(() => lastPassDone(handle), 'the pass to end');
      expect((await handle.query(stateQuery)).consecutiveFailures).toBe(1);
      expect(world.events).toContain(`Warning ReconcileError: cannot resolve references: ${error}`);
    });
  });

  it('answers reconcileNow with the failed pass when observe keeps failing', async () => {
    const world = new World();
    const apiServerDown = () => ApplicationFailure.retryable('Kubernetes API: connection refused', 'Transient');
    world.observeFailures = Array.from({ length: 30 }, apiServerDown); // ten passes' worth of local attempts
    await withWorkflow(world, async ({ handle }) => {
      const summary = await handle.executeUpdate(reconcileNowUpdate);
      expect(summary).toMatchObject({ actions: [], error: 'Kubernetes API: connection refused' });
      expect((await handle.query(stateQuery)).consecutiveFailures).toBeGreaterThanOrEqual(1);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    });
  });

  const brokenOrphan = (world: World) => {
    world.object = newObject('uid-1', { finalizer: true, deleting: true, deletionPolicy: 'Orphan', externalName: 'ext-uid-1' });
    world.external.set('ext-uid-1', { upToDate: true });
    world.externalError = { failureClass: 'MissingConfiguration', message: 'ProviderConfig default: not found' };
    world.references = references({ dependsOnManaged: true });
  };

  // Released in the pass that sees it: the provider error it did not need to look at is no
  // failure, so nothing is written to the object it has just let go of, and there is no backoff.
  it('releases an Orphan whose provider cannot be reached in one pass, without the error', async () => {
    const world = new World();
    brokenOrphan(world);
    await withWorkflow(world, async ({ handle }) => {
      await handle.result();
      expect(world.calls).toEqual(['observe', 'releaseDependencies', 'removeFinalizer']);
      expect(world.object).toBeUndefined();
      expect(world.external.size).toBe(1);
      expect(world.events).toEqual([]);
    });
  });

  it('waits in Deleting while dependents hold it, and deletes once woken after they are gone', async () => {
    const world = new World();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      world.blockers = ['Subnet test/s'];
      world.object!.deleting = true;
      world.object!.resourceVersion += 1; // the API server's write of deletionTimestamp
      await signal();
      await eventually(() => world.condition('Ready')?.reason === 'Deleting', 'Ready=False Deleting');
      expect(world.condition('Ready')).toMatchObject({
        status: 'False',
        message: 'waiting for dependents to be deleted first: Subnet test/s',
      });
      expect(world.count('deleteExternal')).toBe(0);

      world.blockers = [];
      await wake(handle, world);
      await handle.result();
      expect(world.count('deleteExternal')).toBe(1);
      expect(world.external.size).toBe(0);
      expect(world.object).toBeUndefined();
    });
  });
});

describe('reconcile workflow and the per-object annotations', () => {
  it('records a reconcile request in status once, with no other change, and keeps it in later writes', async () => {
    const world = new AnnotatedWorld();
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      await eventually(async () => (await handle.query(stateQuery)).passes >= 2, 'the settling pass');
      const writes = world.count('writeBack');
      world.reconcileRequestedAt = 'token-1'; // the annotation edit, and its watch event
      world.object!.resourceVersion += 1;
      await signal();
      await eventually(() => world.lastHandledReconcileAt === 'token-1', 'token-1 recorded');
      expect(world.count('writeBack')).toBe(writes + 1);
      await handle.executeUpdate(reconcileNowUpdate);
      expect(world.count('writeBack')).toBe(writes + 1); // already recorded: nothing to write

      world.external.set(world.object!.externalName!, { upToDate: false }); // a status write for another reason
      world.object!.conditions = [];
      await handle.executeUpdate(reconcileNowUpdate);
      await eventually(() => world.count('writeBack') > writes + 1, 'another status write');
      expect(world.lastHandledReconcileAt).toBe('token-1');
    });
  });

  it('notes a poll interval it cannot honour in Synced, with one Warning event however many passes run', async () => {
    const world = new AnnotatedWorld();
    const problem = 'crossplane.io/poll-interval "soon" is not a duration';
    world.pollIntervalProblem = problem;
    await withWorkflow(world, async ({ handle }) => {
      await eventually(() => world.condition('Synced')?.message?.includes(problem) === true, 'Synced to name the problem');
      expect(world.condition('Synced')?.status).toBe('True');
      await handle.executeUpdate(reconcileNowUpdate);
      await handle.executeUpdate(reconcileNowUpdate);
      expect(world.events.filter((e) => e.startsWith('Warning InvalidPollInterval'))).toEqual([`Warning InvalidPollInterval: ${problem}`]);
    });
  });
});

describe('deletion that needs no provider, and deletion that waits for one', () => {
  it('releases an object never created while its ProviderConfig is broken, without reaching the provider', async () => {
    const world = new ReleasingWorld();
    world.externalError = brokenProviderConfig; // from the start: nothing is ever created
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False naming the ProviderConfig');
      expect(world.condition('Synced')?.message).toBe(brokenProviderConfig.message);
      world.object!.deleting = true;
      world.object!.resourceVersion += 1;
      await signal();
      await handle.result();
      expect(world.released).toEqual(['no external resource was ever created for it']);
      expect(world.object).toBeUndefined();
      expect(world.count('createExternal') + world.count('deleteExternal')).toBe(0);
    });
  });

  it('knows it across continue-as-new', async () => {
    const world = new ReleasingWorld();
    world.poll = { steadySeconds: 0.05, pendingSeconds: 0.05 };
    world.externalError = { failureClass: 'Transient', message: 'cannot describe VPCs: HTTP 500' };
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        const firstRunId = (await handle.describe()).runId;
        // The backoff would take minutes to spend the budget: wake-ups run passes at once.
        for (let i = 0; (await handle.describe()).runId === firstRunId; i++) {
          if (i > 200) throw new Error('no continue-as-new');
          const passes = world.count('observe');
          await wake(handle, world);
          // The pass it asks for, or the new run it ends in.
          await eventually(
            async () => world.count('observe') > passes || (await handle.describe()).runId !== firstRunId,
            'the pass a wake-up asks for',
          );
        }
        world.object!.deleting = true;
        world.object!.resourceVersion += 1;
        await signal();
        await handle.result();
        expect(world.released).toEqual(['no external resource was ever created for it']);
        expect(world.object).toBeUndefined();
      },
      undefined,
      40,
    );
  });

  it('releases the object in the delete call itself when the delete answers "gone": one call, and the workflow ends', async () => {
    const world = new ReleasingWorld();
    world.deletesSynchronously = true;
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        world.object!.deleting = true;
        world.object!.resourceVersion += 1;
        await signal();
        await handle.result();
        expect(world.calls.slice(-2)).toEqual(['observe', 'deleteExternal']);
        expect(world.count('removeFinalizer')).toBe(0);
        expect(world.events.at(-1)).toBe('Normal DeletedExternalResource: deleted');
        expect(world.released).toEqual([]);
        expect(world.object).toBeUndefined();
      },
      'delete-answered-gone-releases-at-once',
    );
  });

  it('ends without writing to an object that a step found gone: no status, no warning', async () => {
    const world = new ReleasingWorld();
    world.deletesSynchronously = true;
    world.answerLostAfterRelease = true;
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        const writesBefore = world.count('writeBack');
        world.object!.deleting = true;
        world.object!.resourceVersion += 1;
        await signal();
        await handle.result();
        expect(world.calls.slice(-3)).toEqual(['observe', 'deleteExternal', 'observe']);
        expect(world.count('writeBack')).toBe(writesBefore);
        expect(world.events.filter((e) => e.startsWith('Warning'))).toEqual([]);
        expect(world.object).toBeUndefined();
      },
      'step-finds-object-gone',
    );
  });

  it('releases an object whose delete answered "gone" but which changed meanwhile by the answer, without asking the provider again, whichever worker runs the pass', async () => {
    const world = new ReleasingWorld();
    world.deletesSynchronously = true;
    world.changedDuringDelete = true;
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        const externalName = world.object!.externalName!;
        world.object!.deleting = true;
        world.object!.resourceVersion += 1;
        await signal();
        await handle.result();
        // The change may change the decision, so a pass decides again. The answer travels in
        // the workflow, not in one worker's memory: that pass releases the object by it, where
        // a pass that observed would need a second delete on a kind that deletes without
        // asking first.
        expect(world.released).toEqual([`its external resource ${externalName} is gone`]);
        expect(world.calls.slice(-3)).toEqual(['deleteExternal', 'observe', 'removeFinalizer']);
        expect(world.count('deleteExternal')).toBe(1);
        expect(world.events.at(-1)).toBe('Normal DeletedExternalResource: deleted');
        expect(world.object).toBeUndefined();
      },
      // Recorded before the delete could release the object: the same calls.
      'delete-answered-gone',
    );
  });

  it('waits for the provider to delete what it created: Ready=False Deleting and Synced=False name the error; Orphan releases it at once', async () => {
    const world = new ReleasingWorld();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    await withWorkflow(
      world,
      async ({ handle, signal }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        world.externalError = brokenProviderConfig;
        const o = world.object!;
        o.deleting = true;
        o.resourceVersion += 1;
        await signal();
        await eventually(() => world.condition('Ready')?.reason === 'Deleting', 'Ready=False Deleting');
        expect(world.condition('Ready')).toMatchObject({ status: 'False', message: deletionBlockedBy(brokenProviderConfig.message) });
        expect(world.condition('Synced')).toMatchObject({
          status: 'False',
          reason: 'ReconcileError',
          message: brokenProviderConfig.message,
        });
        expect((await handle.query(stateQuery)).consecutiveFailures).toBeGreaterThanOrEqual(1);
        expect(world.released).toEqual([]);

        // The patch is a spec change: the watcher's signal starts a pass, which lets go at once.
        o.deletionPolicy = 'Orphan';
        o.generation += 1;
        o.resourceVersion += 1;
        await signal();
        await handle.result();
        expect(world.released).toEqual(['it orphans its external resource']);
        expect(world.count('deleteExternal')).toBe(0);
        expect(world.external.size).toBe(1);
        expect(world.object).toBeUndefined();
      },
      'delete-waits-for-provider-then-orphan',
    );
  });

  it('says in Ready what a failing delete call waits for, as a failing observe does', async () => {
    const world = new ReleasingWorld();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    const missingSecret = 'cannot read credentials of ProviderConfig team/aws: key "credentials" of Secret team/aws not found';
    world.deleteFailures = [ApplicationFailure.nonRetryable(missingSecret, 'MissingConfiguration')];
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
      const o = world.object!;
      o.deleting = true;
      o.resourceVersion += 1;
      await signal();
      await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False');
      expect(world.condition('Ready')).toMatchObject({ status: 'False', reason: 'Deleting', message: deletionBlockedBy(missingSecret) });
      expect(world.condition('Synced')?.message).toBe(missingSecret);
      // Fixed, it deletes after the backoff.
      await handle.result();
      expect(world.count('deleteExternal')).toBe(2);
      expect(world.external.size).toBe(0);
    });
  });

  it('needs the provider for an object adopted by external name: it waits, and is not released', async () => {
    const world = new ReleasingWorld();
    world.poll = { steadySeconds: 60, pendingSeconds: 0.2 };
    world.object = newObject('uid-1', { externalName: 'vpc-someone-made' });
    world.externalError = brokenProviderConfig;
    await withWorkflow(world, async ({ handle, signal }) => {
      await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False');
      world.object!.deleting = true;
      world.object!.resourceVersion += 1;
      await signal();
      await eventually(() => world.condition('Ready')?.reason === 'Deleting', 'Ready=False Deleting');
      expect(world.released).toEqual([]);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      expect(world.object?.finalizer).toBe(true);
    });
  });

  it('a create the provider never answers: Ready=False Unavailable and Synced=False, both with the message', async () => {
    const world = new World();
    const unreachable = 'cannot create VPC: cannot reach EC2 in region us-east-1 at http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1';
    // Non-retryable here only to skip the retry policy's 15 s: the class is what counts.
    world.createFailures = [ApplicationFailure.nonRetryable(unreachable, 'Unreachable')];
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Synced')?.status === 'False', 'Synced=False', 30_000);
        expect(world.condition('Ready')).toMatchObject({ status: 'False', reason: 'Unavailable', message: unreachable });
        // The pass ends (and its history is complete) once the search attributes say so.
        await eventually(async () => (await handle.query(stateQuery)).ready === 'False', 'Ready=False in the state query');
        expect(world.condition('Synced')).toMatchObject({ reason: 'ReconcileError', message: unreachable });
      },
      'create-unreachable',
    );
  });
});

/**
 * A world whose API server cannot hold the object with its observed state (an Object mirroring a
 * target of a megabyte): a status with atProvider is refused as too large, and writeBack writes
 * the conditions without it, as the real one does (activities/reconcile.ts).
 */
class TooLargeWorld extends World {
  /** Status writes that carried an observed state. */
  mirroredWrites = 0;

  override activities(): ReconcileActivities {
    const activities = super.activities();
    return {
      ...activities,
      writeBack: async (ref, uid, outcome) => {
        if (outcome.status?.atProvider === undefined) return activities.writeBack(ref, uid, outcome);
        this.mirroredWrites += 1;
        const note = 'status.atProvider is left out: with it the object would pass the API server size limit';
        const written = await activities.writeBack(ref, uid, {
          ...outcome,
          status: { ...outcome.status, atProvider: undefined, conditions: withSyncedNote(outcome.status.conditions, note) },
          events: [...outcome.events, { type: 'Warning', reason: 'StatusTooLarge', message: note }],
        });
        return { ...written, leftOut: { atProvider: outcome.status.atProvider, note } };
      },
    };
  }
}

describe('reconcile workflow with a status too large for its observed state', () => {
  it('writes the conditions without it once, saying why, and leaves status alone on later passes', async () => {
    const world = new TooLargeWorld();
    await withWorkflow(
      world,
      async ({ handle }) => {
        await eventually(() => world.condition('Ready')?.status === 'True', 'Ready=True');
        expect(world.condition('Synced')).toMatchObject({
          status: 'True',
          message: expect.stringContaining('status.atProvider is left out'),
        });
        expect(world.object!.atProvider).toBeUndefined();
        const writes = world.count('writeBack');
        for (let i = 0; i < 3; i += 1) expect((await handle.executeUpdate(reconcileNowUpdate)).error).toBeUndefined();
        expect(world.count('writeBack')).toBe(writes);
        expect(world.mirroredWrites).toBe(1);
        expect(world.events.filter((e) => e.includes('StatusTooLarge'))).toHaveLength(1);
      },
      'status-too-large',
    );
  });
});

describe('reconcile workflow whose status write is refused', () => {
  it('counts each refused write as one more failure in a row, so the backoff grows', async () => {
    const world = new World();
    const base = world.activities.bind(world);
    world.activities = () => ({
      ...base(),
      writeBack: async () => {
        world.calls.push('writeBack');
        throw ApplicationFailure.nonRetryable('spec.forProvider.groupName: Invalid value: "sg-web": cannot start with sg-', 'InvalidInput');
      },
    });
    await withWorkflow(world, async ({ handle }) => {
      // The first pass fails at its write (1), the one after the 5 s backoff too (2): before,
      // each pass's successful steps reset the count first, so it stayed 1 and passes ran every 5 s.
      await eventually(async () => (await handle.query(stateQuery)).consecutiveFailures >= 2, 'two failed passes in a row', 20_000);
      expect((await handle.query(stateQuery)).lastPass?.error).toContain('cannot start with sg-');
    });
  });
});
