// Workers: the same N VPCs applied to a stack with one worker, then to a fresh stack with two
// (or any list of counts), each worker a process of its own on the one task queue, started the
// way `npm run up` starts them (stack/controllers.ts startWorkers). For each: apply to all
// Ready and delete to gone, the CPU every process used meanwhile, and each worker's share of
// the workflow tasks and activities, from its own Temporal SDK metrics.
//
//   npx tsx bench/scenarios/workers.ts [--count 500] [--workers 1,2] [--keep]
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { encryptingDataConverter, parsePayloadKeys } from '#runtime/payload-keys';
import { ensureInstalled } from '#stack/install';
import { kubectl } from '#stack/kubectl';
import { freePort } from '#stack/ports';
import { startTestStack } from '#stack/test-stack';
import {
  startController,
  startWorkers,
  stopController,
  stopWorkers,
  TASK_QUEUE,
  workerName,
  type WorkerInstance,
} from '#stack/controllers';
import { applyBenchVpcs } from '../bench-vpcs';
import type { BenchStack } from '../chronoplane-stack';
import { percentile, RssSampler, table, formatSeconds } from '../measure';
import { cpuBetween, cpuSecondsOf, processesUnder } from '../process-cpu';
import { loadAverage, machine, writeResult } from '../results';
import { warmUp } from '../warm-up';
import { watchObjects } from '../watch-objects';
import { latenciesBetween, readWorkerLatencies, type LatencyTotals } from '../worker-latencies';

const namespace = 'bench';

interface WorkersOptions {
  count: number;
  /** One run per entry, each on a fresh stack: how many workers it runs. */
  workerCounts: number[];
  timeoutSeconds: number;
  keep: boolean;
}

/** What one worker did in one phase, by its own Temporal SDK metrics. */
interface WorkDone {
  workflowTasks: number;
  activities: number;
  localActivities: number;
  /** Workflow tasks for a workflow not in this worker's cache, which it replayed from history first. */
  stickyCacheMisses: number;
  /** Each step's count and mean, as bench/worker-latencies.ts names them ("activity deleteExternal"…). */
  steps: Record<string, { count: number; meanMs: number }>;
}

interface WorkerShare extends WorkDone {
  name: string;
  rssPeakMiB: number;
}

interface WorkerReading {
  latencies: LatencyTotals;
  stickyCacheMisses: number;
}

interface WorkersRun {
  workers: number;
  count: number;
  /** Absent when not all were Ready in time. */
  allReadySeconds?: number;
  p50Seconds: number;
  p95Seconds: number;
  kubectlSeconds: number;
  deleteToGoneSeconds?: number;
  deleteP50Seconds?: number;
  deleteP95Seconds?: number;
  /** CPU seconds by process, from the delete until all were gone. */
  deleteCpuSeconds?: Record<string, number>;
  deleteShares?: (WorkDone & { name: string })[];
  /** CPU seconds by process, from the apply until all were Ready. */
  applyCpuSeconds: Record<string, number>;
  shares: WorkerShare[];
  loadAverage: { atStart: number[]; afterApply: number[] };
}

interface WorkersResult {
  date: string;
  machine: { cores: number | undefined; node: string };
  runs: WorkersRun[];
}

export async function runWorkers(options: WorkersOptions): Promise<WorkersResult> {
  const result: WorkersResult = { date: new Date().toISOString(), machine: await machine(), runs: [] };
  for (const workers of options.workerCounts) {
    const run = await measureRun(workers, options);
    result.runs.push(run);
    console.log(`\n${workers} worker(s): ${JSON.stringify(run)}`);
  }
  console.log(`\n${workersTable(result)}`);
  console.log(`\nwrote ${await writeResult(`workers-${options.count}`, result)}`);
  return result;
}

async function measureRun(workers: number, options: WorkersOptions): Promise<WorkersRun> {
  await ensureInstalled();
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-bench-workers-'));
  const servers = await startTestStack({ dir, bootstrap: true });
  const controllersDir = join(dir, 'controllers');
  const payloadKey = randomBytes(32).toString('base64');
  const environment = {
    temporalAddress: servers.temporalAddress,
    temporalNamespace: servers.temporalNamespace,
    kubeconfigPath: servers.kubeconfigPath,
    extra: {
      CHRONOPLANE_WATCHER_METRICS_PORT: String(await freePort()),
      CHRONOPLANE_PAYLOAD_KEY: payloadKey,
      CHRONOPLANE_WATCH_NAMESPACE: namespace,
      LOG_LEVEL: 'warn',
    },
  };
  const instances: WorkerInstance[] = [];
  for (let i = 1; i <= workers; i++) instances.push({ name: workerName(i), metricsPort: await freePort() });
  const connection = await Connection.connect({ address: servers.temporalAddress });
  try {
    const started = await startWorkers(controllersDir, instances, environment);
    const watcher = await startController(controllersDir, 'watcher', environment);
    await waitForPollers(connection, servers.temporalNamespace, workers);
    const bench: BenchStack = {
      dir,
      servers,
      pids: { worker: started[0]!.pid, watcher: watcher.pid },
      workerMetricsPort: instances[0]!.metricsPort!,
      watcherMetricsPort: Number(environment.extra.CHRONOPLANE_WATCHER_METRICS_PORT),
      temporal: new Client({
        connection,
        namespace: servers.temporalNamespace,
        dataConverter: encryptingDataConverter(parsePayloadKeys(payloadKey, 'the bench key')),
      }),
      kubectl: (args, input) => kubectl(servers.kubeconfigPath, args, input),
      stop: async () => {},
    };
    await bench.kubectl(['create', 'namespace', namespace]);
    await warmUp(bench, namespace);
    return await applyAndDelete(bench, workers, instances, Object.fromEntries(started.map((p) => [p.name, p.pid])), options);
  } finally {
    await connection.close();
    await stopController(controllersDir, 'watcher');
    await stopWorkers(controllersDir);
    await servers.stop();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}

async function applyAndDelete(
  bench: BenchStack,
  workers: number,
  instances: WorkerInstance[],
  workerPids: Record<string, number>,
  options: WorkersOptions,
): Promise<WorkersRun> {
  const { count } = options;
  const timeoutMs = options.timeoutSeconds * 1000;
  const vpcs = await watchObjects(bench.servers.kubeconfigPath, [vpcApi], { namespace });
  const rss = new RssSampler(workerPids);
  try {
    const processes = await processesUnder(bench.dir);
    const readWorkers = () => Promise.all(instances.map((instance) => readWorker(instance.metricsPort!)));
    const metricsBefore = await readWorkers();
    const cpuBefore = await cpuSecondsOf(processes);
    const atStart = loadAverage();
    rss.start();
    const {
      appliedAt,
      userSeconds: kubectlSeconds,
      completed,
    } = await applyBenchVpcs({ kubectl: bench.kubectl, kubeconfigPath: bench.servers.kubeconfigPath }, vpcs, {
      namespace,
      count,
      timeoutMs,
      via: 'kubectl',
    });
    const cpuAfter = await cpuSecondsOf(processes);
    const metricsAfter = await readWorkers();
    rss.stop();
    const readyAfter = [...vpcs.readyAt.values()].map((at) => (at - appliedAt) / 1000);
    const peaks = rss.summary() as Record<string, { peak: number }>;
    const run: WorkersRun = {
      workers,
      count,
      allReadySeconds: completed ? Math.max(...readyAfter) : undefined,
      p50Seconds: percentile(readyAfter, 0.5),
      p95Seconds: percentile(readyAfter, 0.95),
      kubectlSeconds,
      applyCpuSeconds: cpuBetween(cpuBefore, cpuAfter),
      shares: instances.map((instance, i) => ({
        name: instance.name,
        ...workDone(metricsBefore[i]!, metricsAfter[i]!),
        rssPeakMiB: peaks[instance.name]?.peak ?? NaN,
      })),
      loadAverage: { atStart, afterApply: loadAverage() },
    };

    const [deleteStart, cpuBeforeDelete, workersBeforeDelete] = [Date.now(), await cpuSecondsOf(processes), await readWorkers()];
    const allGone = vpcs.waitFor(() => vpcs.current.size === 0, timeoutMs);
    allGone.catch(() => {}); // awaited below, unless the delete fails first
    await bench.kubectl(['delete', 'vpc', '--all', '-n', namespace, '--wait=false']);
    const gone = await allGone.then(
      () => true,
      () => false,
    );
    const goneAfter = [...vpcs.goneAt.values()].map((at) => (at - deleteStart) / 1000);
    run.deleteToGoneSeconds = gone ? Math.max(...goneAfter) : undefined;
    run.deleteP50Seconds = percentile(goneAfter, 0.5);
    run.deleteP95Seconds = percentile(goneAfter, 0.95);
    run.deleteCpuSeconds = cpuBetween(cpuBeforeDelete, await cpuSecondsOf(processes));
    const workersAfterDelete = await readWorkers();
    run.deleteShares = instances.map((instance, i) => ({
      name: instance.name,
      ...workDone(workersBeforeDelete[i]!, workersAfterDelete[i]!),
    }));
    return run;
  } finally {
    rss.stop();
    await vpcs.stop();
  }
}

async function readWorker(metricsPort: number): Promise<WorkerReading> {
  const [latencies, text] = await Promise.all([
    readWorkerLatencies(metricsPort),
    fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text()),
  ]);
  const stickyCacheMisses = [...text.matchAll(/^temporal_sticky_cache_miss\{[^}]*\} (\S+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { latencies, stickyCacheMisses };
}

/** What one worker ran between two readings. */
function workDone(before: WorkerReading, after: WorkerReading): WorkDone {
  const ran = (prefix: string) =>
    Object.entries(after.latencies)
      .filter(([step]) => step.startsWith(prefix) && !step.includes('schedule-to-start'))
      .reduce((sum, [step, { count }]) => sum + count - (before.latencies[step]?.count ?? 0), 0);
  return {
    workflowTasks: ran('workflow task execution'),
    activities: ran('activity '),
    localActivities: ran('local activity '),
    stickyCacheMisses: after.stickyCacheMisses - before.stickyCacheMisses,
    steps: latenciesBetween(before.latencies, after.latencies),
  };
}

/** temporal.api.enums.v1.TaskQueueType.WORKFLOW: every worker polls it once it runs. */
const WORKFLOW_TASK_QUEUE = 1;

/** Waits until `workers` distinct workers poll the task queue, so that none of them starts late. */
async function waitForPollers(connection: Connection, namespace: string, workers: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: TASK_QUEUE },
      taskQueueType: WORKFLOW_TASK_QUEUE,
    });
    if (new Set((pollers ?? []).map((poller) => poller.identity)).size >= workers) return;
    if (Date.now() > deadline) throw new Error(`${workers} workers did not poll task queue ${TASK_QUEUE} within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

function workersTable(result: WorkersResult): string {
  const rows = [
    [
      'workers',
      'all Ready',
      'p50 / p95',
      'delete to gone',
      'CPU while applying (s)',
      'workflow tasks / activities / local activities by worker',
    ],
  ];
  for (const run of result.runs) {
    const cpu = Object.entries(run.applyCpuSeconds)
      .sort(([, a], [, b]) => b - a)
      .map(([name, seconds]) => `${name} ${seconds}`)
      .join(', ');
    const shares = run.shares
      .map((share) => `${share.name} ${share.workflowTasks} / ${share.activities} / ${share.localActivities} (${share.rssPeakMiB} MiB)`)
      .join('; ');
    rows.push([
      String(run.workers),
      formatSeconds(run.allReadySeconds),
      `${formatSeconds(run.p50Seconds)} / ${formatSeconds(run.p95Seconds)}`,
      formatSeconds(run.deleteToGoneSeconds),
      cpu,
      shares,
    ]);
  }
  return table(rows);
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '500' },
      workers: { type: 'string', default: '1,2' },
      timeout: { type: 'string', default: '900' },
      keep: { type: 'boolean', default: false },
    },
  });
  await runWorkers({
    count: Number(values.count),
    workerCounts: values.workers.split(',').map(Number),
    timeoutSeconds: Number(values.timeout),
    keep: values.keep,
  });
}
