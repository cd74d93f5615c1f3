// The worker and the watcher as a chaos run needs them: built and bundled once (a restart after a
// kill then takes seconds, not the ten of a webpack build), started as plain children with pid
// files, and counted as up only once they say so in their log, so that a kill always hits a
// process that was really running.
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildController } from '#stack/build';
import { bundleWorkflowCode, controllerEnv, controllerLogFile, type Controller } from '#stack/controllers';
import { repoRoot } from '#stack/paths';
import { runningPidFromFile, startProcess, stopProcess } from '#stack/processes';
import { logTail } from '#stack/readiness';

interface ControllerEnvironment {
  temporalAddress: string;
  temporalNamespace: string;
  kubeconfigPath: string;
  payloadKey: string;
}

/** One controller process, restartable after a SIGKILL. */
export interface RestartableController {
  name: Controller;
  logFile: string;
  /** Starts it and resolves once it logged that it runs. */
  start(): Promise<void>;
  /** Its pid, or undefined when it is not running. */
  pid(): Promise<number | undefined>;
  /** SIGTERM, as at the end of a run. */
  stop(): Promise<void>;
}

/** What each controller logs once it runs (worker/main.ts, watcher/watcher.ts). */
const READY_MESSAGE: Record<Controller, string> = { worker: 'worker started', watcher: 'watcher started' };
const START_TIMEOUT_MS = 180_000;

/** Builds both controllers and the workflow bundle once, into `dir`. */
export async function prepareControllers(
  dir: string,
  environment: ControllerEnvironment,
): Promise<Record<Controller, RestartableController>> {
  const buildDir = join(dir, 'build');
  const [worker, watcher, bundle] = await Promise.all([
    buildController('worker', buildDir),
    buildController('watcher', buildDir),
    bundleWorkflowCode(join(dir, 'workflow-bundle.js')),
  ]);
  // The stack's own environment for its controllers (servers, task queue, process defaults).
  const env = controllerEnv(environment, {
    CHRONOPLANE_WORKFLOW_BUNDLE: bundle,
    CHRONOPLANE_PAYLOAD_KEY: environment.payloadKey,
    // No metrics endpoints: nothing reads them, and a restart must not wait for a port to free.
    CHRONOPLANE_WORKER_METRICS_PORT: '0',
    CHRONOPLANE_WATCHER_METRICS_PORT: '0',
    // Info, since the start line is how a restart is known to be done; both log little at info.
    LOG_LEVEL: 'info',
  });
  return {
    worker: restartable(dir, 'worker', worker, env),
    watcher: restartable(dir, 'watcher', watcher, env),
  };
}

function restartable(dir: string, name: Controller, entry: string, env: NodeJS.ProcessEnv): RestartableController {
  const logFile = controllerLogFile(dir, name);
  const pidFile = join(dir, 'run', `${name}.pid`);
  return {
    name,
    logFile,
    pid: () => runningPidFromFile(pidFile),
    stop: () => stopProcess(pidFile),
    async start() {
      const from = await sizeOf(logFile);
      await startProcess({ name, command: process.execPath, args: [entry], cwd: repoRoot, env, logFile, pidFile, detached: false });
      const deadline = Date.now() + START_TIMEOUT_MS;
      for (;;) {
        if ((await textSince(logFile, from)).includes(READY_MESSAGE[name])) return;
        if ((await runningPidFromFile(pidFile)) === undefined) {
          throw new Error(`the ${name} exited while starting. Last lines of ${logFile}:\n${await logTail(logFile)}`);
        }
        if (Date.now() > deadline) throw new Error(`the ${name} did not start within ${START_TIMEOUT_MS / 1000} s; see ${logFile}`);
        await sleep(100);
      }
    },
  };
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/** What was appended to `file` after its first `from` bytes. */
async function textSince(file: string, from: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.max(0, size - from));
    await handle.read(buffer, 0, buffer.length, from);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
