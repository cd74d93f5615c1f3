// CPU time of the processes a benchmark started, read from /proc: on a 2-core box shared by
// every server, who burns the CPU during a phase says more than any latency figure.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { runningPidFromFile } from '#stack/processes';
import { runCommand } from '#stack/run-command';

/**
 * Every live process started under `dir`, by name. The stack's parts each write
 * `…/run/<name>.pid` under their own state directory (moto/run/moto.pid, kube/run/etcd.pid,
 * run/worker.pid, …), so this finds them all without knowing the layout.
 */
export async function processesUnder(dir: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.pid') || basename(entry.parentPath) !== 'run') continue;
    const pid = await runningPidFromFile(join(entry.parentPath, entry.name));
    if (pid !== undefined) found[entry.name.slice(0, -'.pid'.length)] = pid;
  }
  return found;
}

let clockTicksPerSecond: number | undefined;

/**
 * User plus system CPU seconds each process has used so far, with its descendants (PostgreSQL
 * serves each connection from a child process); NaN for one that has exited.
 */
export async function cpuSecondsOf(pids: Record<string, number>): Promise<Record<string, number>> {
  clockTicksPerSecond ??= Number((await runCommand('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
  const ticks = clockTicksPerSecond;
  const entries = await Promise.all(
    Object.entries(pids).map(async ([name, pid]): Promise<[string, number]> => {
      try {
        return [name, (await treeTicks(pid, true)) / ticks];
      } catch {
        return [name, NaN];
      }
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * A process's own ticks, its reaped children's (which the kernel adds to its cutime and cstime
 * once it waits for them), and the same for each live child, recursively. A child is counted
 * live or reaped, never both. Only the root must exist: a child may exit while it is read.
 */
async function treeTicks(pid: number, root: boolean): Promise<number> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if (root) throw error;
    return 0;
  }
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'. After
  // it come state (field 3) … utime (14), stime (15), cutime (16) and cstime (17).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  const children = await childrenOf(pid);
  const theirs = await Promise.all(children.map((child) => treeTicks(child, false)));
  return theirs.reduce((sum, ticks) => sum + ticks, own);
}

/** Live children of every thread of a process (a child belongs to the thread that forked it). */
async function childrenOf(pid: number): Promise<number[]> {
  try {
    const threads = await readdir(`/proc/${pid}/task`);
    const lists = await Promise.all(threads.map((tid) => readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '')));
    return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** CPU seconds used between two readings, by process. */
export function cpuBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([name, seconds]) => [name, Math.round((seconds - (before[name] ?? NaN)) * 100) / 100]),
  );
}
