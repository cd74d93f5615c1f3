// A process's CPU reading must include the work its children do, alive or reaped: PostgreSQL's
// postmaster does almost nothing itself, its backends do the work.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuBetween, cpuSecondsOf } from './process-cpu';

// The parent forks a child that burns about 0.4 s of CPU, says so, and idles until told to go;
// the parent waits for it (so the kernel moves its time into the parent's cutime) and says so.
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', \`
  const end = process.hrtime.bigint() + 400_000_000n;
  while (process.hrtime.bigint() < end);
  console.log('burnt');
  process.stdin.on('data', () => process.exit(0));
\`], { stdio: ['pipe', 'pipe', 'inherit'] });
child.stdout.on('data', (data) => process.stdout.write(data));
child.on('exit', () => console.log('reaped'));
process.stdin.on('data', () => child.stdin.write('go'));
`;

let parent: ChildProcess | undefined;
afterEach(() => parent?.kill());

/** Resolves when the parent's output has printed `word`. */
async function printed(process: ChildProcess, word: string): Promise<void> {
  let seen = '';
  while (!seen.includes(word)) seen += String((await once(process.stdout!, 'data'))[0]);
}

describe('cpuSecondsOf', () => {
  it("counts a child's CPU in its parent's, while the child lives and after it is reaped", async () => {
    parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['pipe', 'pipe', 'inherit'] });
    const started = await cpuSecondsOf({ parent: parent.pid! });
    await printed(parent, 'burnt');
    const alive = cpuBetween(started, await cpuSecondsOf({ parent: parent.pid! }));
    expect(alive.parent).toBeGreaterThanOrEqual(0.35);

    parent.stdin!.write('go');
    await printed(parent, 'reaped');
    const reaped = cpuBetween(started, await cpuSecondsOf({ parent: parent.pid! }));
    // Not counted twice: live, then reaped, the child's time is in the reading once.
    expect(reaped.parent).toBeGreaterThanOrEqual(alive.parent!);
    expect(reaped.parent).toBeLessThan(alive.parent! + 0.3);
  });

  it('reads NaN for a process that has exited', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await once(gone, 'exit');
    expect((await cpuSecondsOf({ gone: gone.pid! })).gone).toBeNaN();
  });
});
