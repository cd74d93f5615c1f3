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

/** User plus system CPU seconds each process has used so far; NaN for one that has exited. */
export async function cpuSecondsOf(pids: Record<string, number>): Promise<Record<string, number>> {
  clockTicksPerSecond ??= Number((await runCommand('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
  const ticks = clockTicksPerSecond;
  const entries = await Promise.all(
    Object.entries(pids).map(async ([name, pid]): Promise<[string, number]> => {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
        // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
        // After it come state (field 3) … utime (14) and stime (15).
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [name, (Number(fields[11]) + Number(fields[12])) / ticks];
      } catch {
        return [name, NaN];
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** CPU seconds used between two readings, by process. */
export function cpuBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([name, seconds]) => [name, Math.round((seconds - (before[name] ?? NaN)) * 100) / 100]),
  );
}
