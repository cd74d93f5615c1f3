// Chronoplane's own processes for the dev stack: the Temporal workers (one or more on one task
// queue, running the reconcile workflows) and the watcher (turns Kubernetes watch events into
// workflow signals). They run as built JavaScript (stack/build.ts), rebuilt from source at every start,
// so `down` + `up` picks up edits.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './paths';
import { ensureProcess, isRunning, stopProcess, type ManagedProcess } from './processes';
import { logTail } from './readiness';
import { runCommand } from './run-command';
import { buildController } from './build';

export const CONTROLLERS = ['worker', 'watcher'] as const;
export type Controller = (typeof CONTROLLERS)[number];

/**
 * One worker process of a stack: `worker` is the first, `worker-2`, `worker-3` … the others.
 * The first keeps its old name, so a stack that grows from one worker to several keeps it running.
 */
export type WorkerName = 'worker' | `worker-${number}`;
/** One running process: the watcher, or one of the workers. */
type ControllerProcess = Controller | WorkerName;

export interface WorkerInstance {
  name: WorkerName;
  /** CHRONOPLANE_WORKER_METRICS_PORT for this one; left out, the environment's (or the default) applies. */
  metricsPort?: number;
}

export const TASK_QUEUE = 'chronoplane';

interface ControllerEnvironment {
  temporalAddress: string;
  temporalNamespace: string;
  kubeconfigPath: string;
  /** More variables, such as metrics ports or poll intervals (benchmarks set these). */
  extra?: Record<string, string>;
}

export function workerName(index: number): WorkerName {
  return index === 1 ? 'worker' : `worker-${index}`;
}

/** 1 for `worker`, K for `worker-K`. */
export function workerIndex(name: WorkerName): number {
  return name === 'worker' ? 1 : Number(name.slice('worker-'.length));
}

/** `count` workers, the first on `firstMetricsPort` and each next one on the port after. */
export function workerInstances(count: number, firstMetricsPort: number): WorkerInstance[] {
  return Array.from({ length: count }, (_, i) => ({ name: workerName(i + 1), metricsPort: firstMetricsPort + i }));
}

export function controllerLogFile(dir: string, controller: ControllerProcess): string {
  return join(dir, 'logs', `${controller}.log`);
}

function pidFile(dir: string, controller: ControllerProcess): string {
  return join(dir, 'run', `${controller}.pid`);
}

const WORKER_PID_FILE = /^(worker(?:-[1-9]\d*)?)\.pid$/;

/**
 * The workers that have a pid file under `dir`, running or not, in order: also those that an
 * earlier start with more workers left behind.
 */
export async function workersUnder(dir: string): Promise<WorkerName[]> {
  const files = await readdir(join(dir, 'run')).catch(() => [] as string[]);
  const names = files.flatMap((file) => {
    const name = WORKER_PID_FILE.exec(file)?.[1];
    return name ? [name as WorkerName] : [];
  });
  return names.sort((a, b) => workerIndex(a) - workerIndex(b));
}

/** Starts one controller detached; for the worker, the first of a stack's workers. */
export async function startController(dir: string, controller: Controller, environment: ControllerEnvironment): Promise<ManagedProcess> {
  if (controller === 'worker') {
    const [worker] = await startWorkers(dir, [{ name: 'worker' }], environment);
    return worker!;
  }
  const entry = (await isRunning(pidFile(dir, controller))) ? '' : await buildController(controller, join(dir, 'build'));
  return startDetached(dir, controller, entry, environment, {});
}

/**
 * Starts each worker that does not run yet. Every worker of a stack runs one build, since
 * workers on one task queue must run the same workflow code: the code is built and bundled only
 * when none runs, and a worker added beside running ones starts from the build they run.
 */
export async function startWorkers(dir: string, workers: WorkerInstance[], environment: ControllerEnvironment): Promise<ManagedProcess[]> {
  const running = await runningWorkers(dir);
  const toStart = workers.filter((worker) => !running.includes(worker.name));
  const bundle = join(dir, 'workflow-bundle.js');
  const buildDir = join(dir, 'build');
  let entry = '';
  if (toStart.length > 0 && running.length === 0) {
    [entry] = await Promise.all([buildController('worker', buildDir), bundleWorkflowCode(bundle)]);
  } else if (toStart.length > 0) {
    // Where buildController put the running workers' entry point.
    entry = join(buildDir, 'worker', 'main.mjs');
  }
  return Promise.all(
    workers.map((worker) =>
      startDetached(dir, worker.name, entry, environment, {
        CHRONOPLANE_WORKFLOW_BUNDLE: bundle,
        ...(worker.metricsPort === undefined ? {} : { CHRONOPLANE_WORKER_METRICS_PORT: String(worker.metricsPort) }),
      }),
    ),
  );
}

async function runningWorkers(dir: string): Promise<WorkerName[]> {
  const names = await workersUnder(dir);
  const running = await Promise.all(names.map((name) => isRunning(pidFile(dir, name))));
  return names.filter((_, i) => running[i]);
}

// glibc's malloc gives a thread that allocates while another holds the lock an arena of its own,
// up to eight per core, and each arena keeps the memory it freed. A worker has many such threads
// (Temporal's core in Rust, Node's workers and its thread pool), so two arenas keep its resident
// memory lower for no CPU that a benchmark could see (bench/README.md). The Dockerfile sets the
// same for the image.
const PROCESS_DEFAULTS = { MALLOC_ARENA_MAX: '2' };

/** A controller's environment: ours over the caller's, which wins over the process defaults. */
export function controllerEnv(
  environment: ControllerEnvironment,
  own: Record<string, string>,
  inherited: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...PROCESS_DEFAULTS,
    ...inherited,
    TEMPORAL_ADDRESS: environment.temporalAddress,
    TEMPORAL_NAMESPACE: environment.temporalNamespace,
    CHRONOPLANE_TASK_QUEUE: TASK_QUEUE,
    KUBECONFIG: environment.kubeconfigPath,
    ...environment.extra,
    ...own,
  };
}

/** Starts one process detached unless it runs. An early crash (a typo, a missing import) is reported right away. */
async function startDetached(
  dir: string,
  name: ControllerProcess,
  entry: string,
  environment: ControllerEnvironment,
  own: Record<string, string>,
): Promise<ManagedProcess> {
  const spec = {
    name,
    command: process.execPath,
    args: [entry],
    cwd: repoRoot,
    env: controllerEnv(environment, own),
    logFile: controllerLogFile(dir, name),
    pidFile: pidFile(dir, name),
    detached: true,
  };
  const started = await ensureProcess(spec);
  if (!started.wasAlreadyRunning) {
    // They have no port to probe; most start-up failures show within seconds.
    await sleep(3_000);
    if (!(await isRunning(spec.pidFile))) {
      throw new Error(`${name} exited right after starting. Last lines of ${spec.logFile}:\n${await logTail(spec.logFile)}`);
    }
  }
  return started;
}

/** Writes the bundled workflow code to `out` (in a process of its own) and returns `out`. */
export async function bundleWorkflowCode(out: string): Promise<string> {
  await runCommand(process.execPath, ['--import', 'tsx', join(repoRoot, 'worker', 'bundle.ts'), out], { cwd: repoRoot });
  return out;
}

export async function stopController(dir: string, controller: ControllerProcess): Promise<void> {
  await stopProcess(pidFile(dir, controller));
}

/** Stops every worker under `dir` past the first `keep` (all of them by default), and returns their names. */
export async function stopWorkers(dir: string, keep = 0): Promise<WorkerName[]> {
  const surplus = (await workersUnder(dir)).filter((name) => workerIndex(name) > keep);
  await Promise.all(surplus.map((name) => stopController(dir, name)));
  return surplus;
}

export async function controllerRunning(dir: string, controller: ControllerProcess): Promise<boolean> {
  return isRunning(pidFile(dir, controller));
}
