// A stack server that dies before it answers is started again, and its log says how it died;
// one that keeps dying fails the start with that log. Real processes (sh), no stand-ins.
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopProcess, type ProcessSpec } from './processes';
import { ExitedBeforeReadyError, startUntilReady, type Probe } from './readiness';

function fileProbe(path: string): Probe {
  return () => access(path).then(() => true);
}

describe('startUntilReady', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoplane-readiness-'));
  });
  afterEach(async () => {
    await stopProcess(join(dir, 'server.pid'), 1_000);
    await rm(dir, { recursive: true, force: true });
  });

  function server(script: string): ProcessSpec {
    return {
      name: 'server',
      command: '/bin/sh',
      args: ['-c', script],
      logFile: join(dir, 'server.log'),
      pidFile: join(dir, 'server.pid'),
      detached: false,
    };
  }

  it('starts a server again when its first start dies before it answers', async () => {
    const marker = join(dir, 'tried');
    const ready = join(dir, 'ready');
    // The first start dies at once; the second serves (touches `ready`) and stays up, as the
    // shell its pid file names (an `exec` would make it another command, which counts as gone).
    const spec = server(`if [ -f ${marker} ]; then touch ${ready}; while :; do sleep 1; done; else touch ${marker}; exit 3; fi`);
    const started = await startUntilReady(spec, { probe: fileProbe(ready), timeoutMs: 20_000 });
    expect(started.wasAlreadyRunning).toBe(false);
    const log = await readFile(spec.logFile, 'utf8');
    expect(log.match(/starting: \/bin\/sh/g)).toHaveLength(2);
    expect(log).toContain('exited with code 3');
  });

  it('gives up after three starts, with the log that says how each ended', async () => {
    const spec = server('exit 7');
    const failure = await startUntilReady(spec, { probe: fileProbe(join(dir, 'never')), timeoutMs: 20_000 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ExitedBeforeReadyError);
    expect(String(failure)).toContain('server exited before it was ready');
    const log = await readFile(spec.logFile, 'utf8');
    expect(log.match(/starting: \/bin\/sh/g)).toHaveLength(3);
  });
});
