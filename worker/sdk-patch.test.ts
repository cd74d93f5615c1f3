// The Temporal SDK runs with one patch (patches/, applied by patch-package at install): Node
// starts and stops a watchdog thread for every vm call that has a timeout (nodejs/node#47739),
// and the SDK gave every activation one. The patched SDK runs activations without it, and one
// timer on the worker's main thread catches an activation stuck past isolateExecutionTimeout
// instead. The SDK also formatted a stack trace for every promise a workflow created, for the
// __stack_trace query alone; the patched SDK does so only with CHRONOPLANE_WORKFLOW_STACK_TRACES=on.
// These tests fail when the installed SDK is not the one the patch was made for, or when the
// patch is not applied, or when a stuck workflow is no longer caught, or when either stack-trace
// setting stops doing what it says.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnvironment } from '#test/unit/temporal-env';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const sdkDir = dirname(require.resolve('@temporalio/worker/package.json'));

describe('the patched Temporal SDK', () => {
  it('is the version the patch was made for, with the patch applied', () => {
    const patches = readdirSync(join(root, 'patches')).filter((f) => f.startsWith('@temporalio+worker+'));
    expect(patches).toHaveLength(1);
    const patchedVersion = patches[0]!.replace('@temporalio+worker+', '').replace('.patch', '');
    const installed = (JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string }).version;
    expect(installed).toBe(patchedVersion);
    for (const file of ['reusable-vm.js', 'vm.js']) {
      const code = readFileSync(join(sdkDir, 'lib', 'workflow', file), 'utf8');
      expect(code, file).toContain('isolateExecutionTimeoutMs > 0 ? { timeout: isolateExecutionTimeoutMs } : {}');
    }
    expect(readFileSync(join(sdkDir, 'lib', 'workflow', 'threaded-vm.js'), 'utf8')).toContain('failIfStuck');
    expect(readFileSync(join(sdkDir, 'lib', 'workflow', 'vm-shared.js'), 'utf8')).toContain('CHRONOPLANE_WORKFLOW_STACK_TRACES');
  });

  describe('against a Temporal dev server', () => {
    let env: TestWorkflowEnvironment;
    let bundle: Awaited<ReturnType<typeof bundleWorkflowCode>>;
    const errors: string[] = [];

    beforeAll(async () => {
      Runtime.install({ logger: new DefaultLogger('ERROR', (entry) => errors.push(entry.message)) });
      env = await startTestEnvironment();
      bundle = await bundleWorkflowCode({
        workflowsPath: join(root, 'test', 'unit', 'fixtures', 'stuck-workflow.ts'),
        logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
      });
    }, 120_000);
    afterAll(async () => {
      await env?.teardown();
    });

    const workerWith = (taskQueue: string) =>
      Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        workflowBundle: bundle,
        // Not in WorkerOptions' type, but honoured: the stuck limit, shortened for the test.
        ...({ isolateExecutionTimeout: '1s' } as Partial<WorkerOptions>),
      });

    it('runs workflows as before', async () => {
      const taskQueue = `answers-${randomUUID()}`;
      const worker = await workerWith(taskQueue);
      const answer = await worker.runUntil(env.client.workflow.execute('answers', { taskQueue, workflowId: `answers-${randomUUID()}` }));
      expect(answer).toBe('answered');
    }, 60_000);

    // The worker thread reads the setting when it starts, so each case starts its own worker.
    const stackTraceOf = async (setting: string | undefined): Promise<string> => {
      const before = process.env.CHRONOPLANE_WORKFLOW_STACK_TRACES;
      if (setting === undefined) delete process.env.CHRONOPLANE_WORKFLOW_STACK_TRACES;
      else process.env.CHRONOPLANE_WORKFLOW_STACK_TRACES = setting;
      const taskQueue = `stack-${randomUUID()}`;
      try {
        const worker = await workerWith(taskQueue);
        return await worker.runUntil(async () => {
          const handle = await env.client.workflow.start('waitsOnACondition', { taskQueue, workflowId: `stack-${randomUUID()}` });
          try {
            return await handle.query<string>('__stack_trace');
          } finally {
            await handle.terminate();
          }
        });
      } finally {
        if (before === undefined) delete process.env.CHRONOPLANE_WORKFLOW_STACK_TRACES;
        else process.env.CHRONOPLANE_WORKFLOW_STACK_TRACES = before;
      }
    };

    it('keeps no promise stack traces by default, and says so when asked for one', async () => {
      await expect(stackTraceOf(undefined)).rejects.toThrow('Workflow stack traces are not enabled on this worker');
    }, 60_000);

    it('answers the stack-trace query with CHRONOPLANE_WORKFLOW_STACK_TRACES=on', async () => {
      expect(await stackTraceOf('on')).toContain('waitsOnACondition');
    }, 60_000);

    it('fails the worker, naming the run, when an activation is stuck past isolateExecutionTimeout', async () => {
      const taskQueue = `stuck-${randomUUID()}`;
      const worker = await workerWith(taskQueue);
      const handle = await env.client.workflow.start('spinsForever', { taskQueue, workflowId: `stuck-${randomUUID()}` });
      await expect(worker.run()).rejects.toThrow(/Workflow Worker Thread|ran for more than 1000 ms/);
      expect(errors.some((m) => m.includes(`run ${handle.firstExecutionRunId} ran for more than 1000 ms`))).toBe(true);
      await handle.terminate();
    }, 60_000);
  });
});
