// moto's AWS emulator (EC2 is what the providers use), run from a private venv
// through stack/moto_with_journal.py, which journals state-changing requests to
// `dir/journal.jsonl` and replays them at start. That keeps VPCs and their ids
// across `npm run down` / `npm run up`; see that file for why replay is exact. It also
// makes moto's EC2 lookups cost what EC2's do (stack/moto_lookup_shortcuts.py).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureMotoVenv } from './install';
import { repoRoot } from './paths';
import { isRunning, stopProcess, type ManagedProcess } from './processes';
import { httpProbe, startUntilReady } from './readiness';

export interface MotoOptions {
  /** Holds journal.jsonl (moto's state), logs/ and run/. */
  dir: string;
  port: number;
  /** true: outlive this process (npm run up); false: die with it (tests). */
  detached: boolean;
}

interface MotoServer {
  /** Pass as `endpoint` to AWS SDK clients (any region, any credentials). */
  endpoint: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

const launcher = join(repoRoot, 'stack', 'moto_with_journal.py');

/** Set to 1 in the environment of startMoto's caller, moto runs its lookups as shipped: for measuring what the shortcuts save. */
export const MOTO_PLAIN_LOOKUPS_ENV = 'CHRONOPLANE_MOTO_PLAIN_LOOKUPS';

export function motoLogFile(dir: string): string {
  return join(dir, 'logs', 'moto.log');
}

function motoJournalFile(dir: string): string {
  return join(dir, 'journal.jsonl');
}

function pidFile(dir: string): string {
  return join(dir, 'run', 'moto.pid');
}

/** Where the server in `dir` keeps its pid: to signal it from outside, as a chaos run does. */
export const motoPidFile = pidFile;

export async function startMoto(options: MotoOptions): Promise<MotoServer> {
  const python = await ensureMotoVenv();
  await mkdir(options.dir, { recursive: true });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const spec = {
    name: 'moto',
    command: python,
    args: ['-u', launcher, '--host', '127.0.0.1', '--port', String(options.port), '--journal', motoJournalFile(options.dir)],
    logFile: motoLogFile(options.dir),
    pidFile: pidFile(options.dir),
    detached: options.detached,
  };
  const serverProcess = await startUntilReady(spec, {
    // moto's dashboard page: static, cheap, and served only once replay is done.
    probe: httpProbe(`${endpoint}/moto-api/`),
    timeoutMs: 60_000,
  });
  return { endpoint, process: serverProcess, stop: () => stopMoto(options.dir) };
}

export async function stopMoto(dir: string): Promise<void> {
  await stopProcess(pidFile(dir));
}

export async function motoRunning(dir: string): Promise<boolean> {
  return isRunning(pidFile(dir));
}
