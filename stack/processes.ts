// Starting, finding and stopping the stack's long-running servers.
//
// Two lifetimes:
// - "detached" (npm run up): the server gets its own session and process group and
//   outlives the command that started it; a pid file is how `down` and `status`
//   find it again later.
// - "child" (tests): a plain child in our process group, killed when the test run
//   ends, even if it ends by an uncaught error (see the exit hook below).
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessSpec {
  /** Short name used in messages, e.g. "kube-apiserver". */
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  pidFile: string;
  detached: boolean;
}

export interface ManagedProcess {
  name: string;
  pid: number;
  logFile: string;
  pidFile: string;
  /** True when a previous `up` had already started it and it was left alone. */
  wasAlreadyRunning: boolean;
  stop(): Promise<void>;
}

/** Starts the process unless its pid file points at a live instance of the same command. */
export async function ensureProcess(spec: ProcessSpec): Promise<ManagedProcess> {
  const runningPid = await runningPidFromFile(spec.pidFile);
  if (runningPid !== undefined) return handle(spec, runningPid, true);
  return startProcess(spec);
}

export async function startProcess(spec: ProcessSpec): Promise<ManagedProcess> {
  await mkdir(dirname(spec.logFile), { recursive: true });
  await mkdir(dirname(spec.pidFile), { recursive: true });
  appendFileSync(spec.logFile, `\n--- ${new Date().toISOString()} starting: ${spec.command} ${spec.args.join(' ')}\n`);
  const logFd = openSync(spec.logFile, 'a');
  try {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['ignore', logFd, logFd],
      detached: spec.detached,
    });
    const pid = await new Promise<number>((resolvePid, reject) => {
      child.once('spawn', () => resolvePid(child.pid!));
      child.once('error', (error) => reject(new Error(`could not start ${spec.name} (${spec.command}): ${error.message}`)));
    });
    // The exit goes into the server's own log: a server that dies silently (a signal, the OOM
    // killer) otherwise leaves no trace of why, and the log is where readiness errors point.
    child.once('exit', (code, signal) => noteExit(spec.logFile, code, signal));
    if (spec.detached) {
      child.unref();
    } else {
      childrenToKillOnExit.add(pid);
      child.once('exit', () => childrenToKillOnExit.delete(pid));
    }
    await writeFile(spec.pidFile, `${pid}\n${spec.command}\n`);
    return handle(spec, pid, false);
  } finally {
    closeSync(logFd);
  }
}

function noteExit(logFile: string, code: number | null, signal: NodeJS.Signals | null): void {
  const how = signal === null ? `with code ${code}` : `by signal ${signal}`;
  try {
    appendFileSync(logFile, `--- ${new Date().toISOString()} exited ${how}\n`);
  } catch {
    // The log's directory is gone (a test removed it after stopping the server): nothing to note.
  }
}

function handle(spec: ProcessSpec, pid: number, wasAlreadyRunning: boolean): ManagedProcess {
  return {
    name: spec.name,
    pid,
    logFile: spec.logFile,
    pidFile: spec.pidFile,
    wasAlreadyRunning,
    stop: () => stopProcess(spec.pidFile),
  };
}

/**
 * The pid recorded in `pidFile` if that process is alive and still runs the
 * command we started (after a reboot the pid may belong to something else).
 */
export async function runningPidFromFile(pidFile: string): Promise<number | undefined> {
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const [pidText, command] = content.split('\n');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !command) return undefined;
  return (await commandOf(pid)) === command ? pid : undefined;
}

export async function isRunning(pidFile: string): Promise<boolean> {
  return (await runningPidFromFile(pidFile)) !== undefined;
}

/** argv[0] of a live process; undefined if it is gone or a zombie (empty cmdline). */
async function commandOf(pid: number): Promise<string | undefined> {
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.split('\0')[0] || undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM, then SIGKILL if still alive after the grace period. Removes the pid file. */
export async function stopProcess(pidFile: string, graceMs = 10_000): Promise<void> {
  const pid = await runningPidFromFile(pidFile);
  if (pid !== undefined) {
    signal(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while ((await commandOf(pid)) !== undefined && Date.now() < deadline) await sleep(100);
    if ((await commandOf(pid)) !== undefined) {
      signal(pid, 'SIGKILL');
      while ((await commandOf(pid)) !== undefined) await sleep(50);
    }
  }
  await rm(pidFile, { force: true });
}

/**
 * Signals the process's own group when it leads one (detached servers, so helpers
 * they spawned go too), otherwise just the process.
 */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pid, name);
    return;
  } catch {
    // Not a group leader: a plain child.
  }
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

const childrenToKillOnExit = new Set<number>();

// 'exit' handlers must be synchronous; SIGKILL is the only thing that fits.
process.on('exit', () => {
  for (const pid of childrenToKillOnExit) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});
