// Several workers in one stack directory: their names, metrics ports and pid files, and how an
// `up` with fewer workers (or `down`) finds and stops those an earlier `up` left. Real processes
// (sh) stand where the workers would run.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  controllerEnv,
  controllerLogFile,
  controllerRunning,
  stopWorkers,
  workerInstances,
  workersUnder,
  type WorkerName,
} from './controllers';
import { workersWanted } from './dev-stack';
import { startProcess } from './processes';

describe('worker instances', () => {
  it('keeps `worker` for the first, so a stack that grows keeps it, and gives each the next metrics port', () => {
    expect(workerInstances(1, 9465)).toEqual([{ name: 'worker', metricsPort: 9465 }]);
    expect(workerInstances(3, 9465)).toEqual([
      { name: 'worker', metricsPort: 9465 },
      { name: 'worker-2', metricsPort: 9466 },
      { name: 'worker-3', metricsPort: 9467 },
    ]);
  });

  it('has a log file of its own', () => {
    expect(controllerLogFile('/state/controllers', 'worker-2')).toBe('/state/controllers/logs/worker-2.log');
  });
});

describe("a controller's environment", () => {
  const servers = { temporalAddress: '127.0.0.1:7233', temporalNamespace: 'default', kubeconfigPath: '/state/kubeconfig' };

  it("runs with two malloc arenas, which keep the worker's resident memory lower", () => {
    expect(controllerEnv(servers, {}, {}).MALLOC_ARENA_MAX).toBe('2');
  });

  it('takes MALLOC_ARENA_MAX from the environment that starts it', () => {
    expect(controllerEnv(servers, {}, { MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
  });

  it("points at the stack's servers whatever the inherited environment says, and lets the caller add its own", () => {
    const env = controllerEnv(
      { ...servers, extra: { LOG_LEVEL: 'warn' } },
      { CHRONOPLANE_WORKER_METRICS_PORT: '9466' },
      {
        TEMPORAL_ADDRESS: 'elsewhere:7233',
        KUBECONFIG: '/home/me/.kube/config',
      },
    );
    expect(env).toMatchObject({
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      KUBECONFIG: '/state/kubeconfig',
      LOG_LEVEL: 'warn',
      CHRONOPLANE_WORKER_METRICS_PORT: '9466',
    });
  });
});

describe('CHRONOPLANE_WORKERS', () => {
  it('defaults to one worker', () => {
    expect(workersWanted({})).toBe(1);
    expect(workersWanted({ CHRONOPLANE_WORKERS: '' })).toBe(1);
  });

  it('takes any whole number from 1', () => {
    expect(workersWanted({ CHRONOPLANE_WORKERS: '2' })).toBe(2);
    expect(workersWanted({ CHRONOPLANE_WORKERS: '12' })).toBe(12);
  });

  it.each(['0', '-1', '1.5', 'two'])('refuses %s, saying what it wants', (value) => {
    expect(() => workersWanted({ CHRONOPLANE_WORKERS: value })).toThrow(/CHRONOPLANE_WORKERS must be a whole number of at least 1/);
  });
});

describe('workers left behind', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoplane-workers-'));
  });
  afterEach(async () => {
    await stopWorkers(dir);
    await rm(dir, { recursive: true, force: true });
  });

  const startStandIn = (name: WorkerName) =>
    startProcess({
      name,
      command: '/bin/sh',
      args: ['-c', 'sleep 600'],
      logFile: controllerLogFile(dir, name),
      pidFile: join(dir, 'run', `${name}.pid`),
      detached: false,
    });

  it('finds every worker with a pid file, in order, and nothing else', async () => {
    for (const name of ['worker-10', 'worker', 'worker-2'] as const) await startStandIn(name);
    await writeFile(join(dir, 'run', 'watcher.pid'), '1\nnode\n');
    await writeFile(join(dir, 'run', 'worker-x.pid'), '1\nnode\n');
    expect(await workersUnder(dir)).toEqual(['worker', 'worker-2', 'worker-10']);
  });

  it('finds none in a directory that never ran one', async () => {
    expect(await workersUnder(join(dir, 'nothing-here'))).toEqual([]);
  });

  it('stops the workers past the number kept, and keeps the others running', async () => {
    for (const name of ['worker', 'worker-2', 'worker-3'] as const) await startStandIn(name);
    expect(await stopWorkers(dir, 1)).toEqual(['worker-2', 'worker-3']);
    expect(await controllerRunning(dir, 'worker')).toBe(true);
    expect(await controllerRunning(dir, 'worker-2')).toBe(false);
    expect(await controllerRunning(dir, 'worker-3')).toBe(false);
    expect(await workersUnder(dir)).toEqual(['worker']);
  });

  it('stops them all, also one whose process is already gone', async () => {
    await startStandIn('worker');
    await mkdir(join(dir, 'run'), { recursive: true });
    await writeFile(join(dir, 'run', 'worker-4.pid'), '999999999\n/bin/sh\n');
    expect(await stopWorkers(dir)).toEqual(['worker', 'worker-4']);
    expect(await workersUnder(dir)).toEqual([]);
  });
});
