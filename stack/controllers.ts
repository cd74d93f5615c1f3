// Chronoplane's own processes for the dev stack: the Temporal worker (runs the
// reconcile workflows) and the watcher (turns Kubernetes watch events into workflow
// signals). They run as built JavaScript (stack/build.ts), rebuilt from source at every start,
// so `down` + `up` picks up edits.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './paths';
import { ensureProcess, isRunning, stopProcess, type ManagedProcess } from './processes';
import { logTail } from './readiness';
import { runCommand } from './run-command';
import { buildController } from './build';

export const CONTROLLERS = ['worker', 'watcher'] as const;
export type Controller = (typeof CONTROLLERS)[number];

export const TASK_QUEUE = 'chronoplane';

export interface ControllerEnvironment {
  temporalAddress: string;
  temporalNamespace: string;
  kubeconfigPath: string;
  /** More variables, such as metrics ports or poll intervals (benchmarks set these). */
  extra?: Record<string, string>;
}

export function controllerLogFile(dir: string, controller: Controller): string {
  return join(dir, 'logs', `${controller}.log`);
}

function pidFile(dir: string, controller: Controller): string {
  return join(dir, 'run', `${controller}.pid`);
}

/** Starts one controller detached. An early crash (a typo, a missing import) is reported right away. */
export async function startController(dir: string, controller: Controller, environment: ControllerEnvironment): Promise<ManagedProcess> {
  const running = await isRunning(pidFile(dir, controller));
  const entry = running ? '' : await buildController(controller, join(dir, 'build'));
  const bundle = controller === 'worker' ? await bundleWorkflows(dir) : undefined;
  const spec = {
    name: controller,
    command: process.execPath,
    args: [entry],
    cwd: repoRoot,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: environment.temporalAddress,
      TEMPORAL_NAMESPACE: environment.temporalNamespace,
      CHRONOPLANE_TASK_QUEUE: TASK_QUEUE,
      KUBECONFIG: environment.kubeconfigPath,
      ...(bundle ? { CHRONOPLANE_WORKFLOW_BUNDLE: bundle } : {}),
      ...environment.extra,
    },
    logFile: controllerLogFile(dir, controller),
    pidFile: pidFile(dir, controller),
    detached: true,
  };
  const started = await ensureProcess(spec);
  if (!started.wasAlreadyRunning) {
    // They have no port to probe; most start-up failures show within seconds.
    await sleep(3_000);
    if (!(await isRunning(spec.pidFile))) {
      throw new Error(`${controller} exited right after starting. Last lines of ${spec.logFile}:\n${await logTail(spec.logFile)}`);
    }
  }
  return started;
}

/**
 * Bundles the workflow code in a short-lived process, so the long-running worker starts from
 * the finished bundle and never carries webpack in its memory. Skipped while a worker runs.
 */
async function bundleWorkflows(dir: string): Promise<string | undefined> {
  if (await isRunning(pidFile(dir, 'worker'))) return undefined;
  return bundleWorkflowCode(join(dir, 'workflow-bundle.js'));
}

/** Writes the bundled workflow code to `out` (in a process of its own) and returns `out`. */
export async function bundleWorkflowCode(out: string): Promise<string> {
  await runCommand(process.execPath, ['--import', 'tsx', join(repoRoot, 'worker', 'bundle.ts'), out], { cwd: repoRoot });
  return out;
}

export async function stopController(dir: string, controller: Controller): Promise<void> {
  await stopProcess(pidFile(dir, controller));
}

export async function controllerRunning(dir: string, controller: Controller): Promise<boolean> {
  return isRunning(pidFile(dir, controller));
}
