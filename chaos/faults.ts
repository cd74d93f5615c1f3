// The five things a chaos round kills: each SIGKILLed (no chance to clean up, as in a crash or
// an OOM kill) and started again right away on the same port and the same state, so what is
// tested is that Chronoplane converges after the fault, not how long an outage lasts.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureKubeApiserver, kubePidFile } from '#stack/kube';
import { motoPidFile, startMoto } from '#stack/moto';
import { runningPidFromFile } from '#stack/processes';
import { startTemporal, temporalPidFile } from '#stack/temporal';
import type { TestStack } from '#stack/test-stack';
import type { RestartableController } from './controllers';
import type { FaultKind } from './options';

export interface Fault {
  kind: FaultKind;
  /** SIGKILLs it and resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts it again and resolves once it serves (a controller: once it logged that it runs). */
  restart(): Promise<void>;
}

interface FaultHooks {
  /** Called right before moto is killed: its request counts live in its memory and die with it. */
  beforeEc2Kill(): Promise<void>;
  /** Called once moto serves again, counting from zero. */
  afterEc2Restart(): void;
}

export function faultOf(
  kind: FaultKind,
  servers: TestStack,
  controllers: Record<'worker' | 'watcher', RestartableController>,
  hooks: FaultHooks,
): Fault {
  const fault = bareFaultOf(kind, servers, controllers, hooks);
  return { ...fault, restart: () => restartPatiently(fault) };
}

const RESTART_ATTEMPTS = 5;

/**
 * A restart that fails is tried again, a little later each time, and said so: the run is about
 * Chronoplane converging, and one server that did not come up should not end a half-hour run.
 * What has been seen is a bind failing (address in use) after the killed server was gone: its
 * connections linger in TIME_WAIT (ensureKubeApiserver asks for SO_REUSEADDR for that reason),
 * and the stack's ports come from the ephemeral range, where a client's own end may take one.
 */
async function restartPatiently(fault: Fault): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fault.restart();
    } catch (error) {
      if (attempt >= RESTART_ATTEMPTS) throw error;
      // The first line says what failed; the last, usually the server's own last words, why.
      const lines = String(error)
        .split('\n')
        .filter((line) => line.trim() !== '');
      const why = lines.length > 1 ? `${lines[0]} … ${lines.at(-1)}` : lines[0];
      console.warn(`restarting the ${fault.kind} failed (attempt ${attempt} of ${RESTART_ATTEMPTS}), trying again: ${why}`);
      await sleep(500 * 2 ** attempt);
    }
  }
}

function bareFaultOf(
  kind: FaultKind,
  servers: TestStack,
  controllers: Record<'worker' | 'watcher', RestartableController>,
  hooks: FaultHooks,
): Fault {
  const { kube, temporal, moto } = servers.startOptions;
  switch (kind) {
    case 'worker':
    case 'watcher': {
      const controller = controllers[kind];
      return { kind, kill: () => killAndWait(kind, controller.pid), restart: () => controller.start() };
    }
    case 'temporal': {
      const pidFile = temporalPidFile(temporal.dir);
      return {
        kind,
        kill: () => killAndWait(kind, () => runningPidFromFile(pidFile)),
        restart: async () => void (await startTemporal(temporal)),
      };
    }
    case 'apiserver': {
      const pidFile = kubePidFile(kube.dir, 'kube-apiserver');
      return { kind, kill: () => killAndWait(kind, () => runningPidFromFile(pidFile)), restart: () => ensureKubeApiserver(kube) };
    }
    case 'ec2': {
      const pidFile = motoPidFile(moto.dir);
      return {
        kind,
        kill: async () => {
          await hooks.beforeEc2Kill();
          await killAndWait(kind, () => runningPidFromFile(pidFile));
        },
        restart: async () => {
          await startMoto(moto);
          hooks.afterEc2Restart();
        },
      };
    }
  }
}

async function killAndWait(what: string, pidOf: () => Promise<number | undefined>): Promise<void> {
  const pid = await pidOf();
  if (pid === undefined) throw new Error(`cannot kill the ${what}: it is not running`);
  process.kill(pid, 'SIGKILL');
  while (!(await exited(pid))) await sleep(20);
}

/**
 * Whether the process is gone or a zombie: only then are its sockets closed. An empty command
 * line (what the pid files go by) comes earlier, while the kernel is still tearing it down, and a
 * server started again at that moment finds its port taken.
 */
async function exited(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command name, which is in parentheses and may hold spaces.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}
