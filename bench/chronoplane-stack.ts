// The stack every Chronoplane scenario runs on: fresh servers (kube-apiserver with etcd,
// Temporal, moto) in a temp dir, the CRDs and default ProviderConfig, our worker and watcher
// with metrics ports of their own, and a Temporal client. One run, one stack: nothing a previous
// scenario left behind can be measured by the next.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { ensureInstalled } from '#stack/install';
import { setTimeout as sleep } from 'node:timers/promises';
import { startController, stopController, TASK_QUEUE } from '#stack/controllers';
import { kubectl } from '#stack/kubectl';
import { freePort } from '#stack/ports';
import type { RunResult } from '#stack/run-command';
import { startTestStack, type TestStack } from '#stack/test-stack';
import { stopTemporal } from '#stack/temporal';
import type { PostgresServer } from '#stack/postgres';
import { startTemporalOnPostgres, type TemporalOnPostgres } from '#stack/temporal-server';
import { temporalSettingsFromEnv } from '#runtime/temporal-connection';
import { enableStatementTimes } from './temporal-database';
import { encryptingDataConverter, parsePayloadKeys } from '#runtime/payload-keys';

interface BenchStackOptions {
  /**
   * CHRONOPLANE_POLL_STEADY_SECONDS for the worker: how often settled resources are observed
   * again. Left out, each kind's default applies, as for a user.
   */
  steadyPollSeconds?: number;
  /**
   * CHRONOPLANE_WATCH_NAMESPACE for the watcher: objects elsewhere get no workflow, so a
   * benchmark can do work of its own beside ours on the same servers.
   */
  watchNamespace?: string;
  /** Leave the state directory (logs, kubeconfig, journal) behind for a look. */
  keep: boolean;
  /** Run the watcher inside the worker (CHRONOPLANE_EMBEDDED_WATCHER) instead of as a process of its own. */
  embeddedWatcher?: boolean;
  /**
   * The Temporal the controllers use: the CLI's dev server (SQLite, one process), as every test
   * does, or Temporal's own server on PostgreSQL, as operators run it (docs/production-temporal.md).
   */
  temporal?: BenchTemporal;
}

export type BenchTemporal = 'dev' | 'server';

/** How a row names its Temporal. */
export const TEMPORAL_LABELS: Record<BenchTemporal, string> = {
  dev: 'the dev server (SQLite)',
  server: "Temporal's own server on PostgreSQL",
};

export interface BenchStack {
  /** State of every server, worker and watcher (each writes `…/run/<name>.pid` under it). */
  dir: string;
  servers: TestStack;
  /** No watcher process when it is embedded in the worker. */
  pids: { worker: number; watcher?: number };
  workerMetricsPort: number;
  /** Served by the watcher's process: the worker's, when embedded. */
  watcherMetricsPort: number;
  temporal: Client;
  /** Temporal's PostgreSQL, with pg_stat_statements loaded, when it runs on Temporal's own server. */
  temporalDatabase?: PostgresServer;
  kubectl(args: string[], input?: string): Promise<RunResult>;
  stop(): Promise<void>;
}

export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  await ensureInstalled();
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-bench-'));
  const removeDir = () => (options.keep ? Promise.resolve() : rm(dir, { recursive: true, force: true }));
  let servers: TestStack;
  try {
    servers = await startTestStack({ dir, bootstrap: true });
  } catch (error) {
    await removeDir();
    throw error;
  }
  let production: TemporalOnPostgres | undefined;
  if (options.temporal === 'server') {
    try {
      production = await startProductionTemporal(dir, servers);
    } catch (error) {
      await servers.stop();
      await removeDir();
      throw error;
    }
  }
  const temporalServer = production?.server;
  const [workerMetricsPort, watcherMetricsPort] = [await freePort(), await freePort()];
  // Encrypted as for a user, so the codec's cost is part of what is measured.
  const payloadKey = randomBytes(32).toString('base64');
  const temporalNamespace = temporalServer?.namespace ?? servers.temporalNamespace;
  const environment = {
    temporalAddress: temporalServer?.address ?? servers.temporalAddress,
    temporalNamespace,
    kubeconfigPath: servers.kubeconfigPath,
    extra: {
      // The server's address, namespace and mutual TLS, as a deployment's worker reads them.
      ...temporalServer?.clientEnv,
      CHRONOPLANE_WORKER_METRICS_PORT: String(workerMetricsPort),
      CHRONOPLANE_WATCHER_METRICS_PORT: String(watcherMetricsPort),
      CHRONOPLANE_PAYLOAD_KEY: payloadKey,
      ...(options.embeddedWatcher ? { CHRONOPLANE_EMBEDDED_WATCHER: 'true' } : {}),
      ...(options.steadyPollSeconds === undefined ? {} : { CHRONOPLANE_POLL_STEADY_SECONDS: String(options.steadyPollSeconds) }),
      ...(options.watchNamespace === undefined ? {} : { CHRONOPLANE_WATCH_NAMESPACE: options.watchNamespace }),
      LOG_LEVEL: 'warn',
    },
  };
  // BENCH_WORKER_NODE_OPTIONS (e.g. `--import <repo>/bench/profile-threads.mjs`) goes to the worker only, for profiling.
  const workerNodeOptions: Record<string, string> = process.env.BENCH_WORKER_NODE_OPTIONS
    ? { NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS }
    : {};
  let connection: Connection | undefined;
  const stop = async () => {
    await connection?.close();
    await Promise.allSettled([stopController(dir, 'worker'), stopController(dir, 'watcher')]);
    await production?.stop();
    await servers.stop();
    await removeDir();
  };
  try {
    const worker = await startController(dir, 'worker', { ...environment, extra: { ...environment.extra, ...workerNodeOptions } });
    const watcher = options.embeddedWatcher ? undefined : await startController(dir, 'watcher', environment);
    connection = await Connection.connect(
      temporalServer ? temporalSettingsFromEnv(temporalServer.clientEnv).connectionOptions() : { address: servers.temporalAddress },
    );
    await waitUntilWorkerPolls(connection, temporalNamespace);
    return {
      dir,
      servers,
      pids: watcher ? { worker: worker.pid, watcher: watcher.pid } : { worker: worker.pid },
      workerMetricsPort,
      watcherMetricsPort,
      temporal: new Client({
        connection,
        namespace: temporalNamespace,
        dataConverter: encryptingDataConverter(parsePayloadKeys(payloadKey, 'the bench key')),
      }),
      ...(production ? { temporalDatabase: production.postgres } : {}),
      kubectl: (args, input) => kubectl(servers.kubeconfigPath, args, input),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * PostgreSQL and Temporal's server under the run's directory, in place of the dev server the test
 * stack started, which stops so that its idle CPU is not counted. Their pid files sit under
 * run/ directories like every other part's, so the CPU readings find them (postgres with its
 * backends: bench/process-cpu.ts counts each process's descendants).
 */
async function startProductionTemporal(dir: string, servers: TestStack): Promise<TemporalOnPostgres> {
  await stopTemporal(servers.startOptions.temporal.dir);
  const production = await startTemporalOnPostgres(dir, { statementStats: true });
  try {
    // Temporal's schema tool has made its database by now: the view goes there.
    await enableStatementTimes(production.postgres);
    return production;
  } catch (error) {
    await production.stop();
    throw error;
  }
}

/** temporal.api.enums.v1.TaskQueueType: a worker polls one queue of each. */
const TASK_QUEUE_TYPES = { workflow: 1, activity: 2 } as const;

/**
 * Waits until the worker polls for both workflow and activity tasks. startController returns
 * once the process is up, but on a loaded 2-core box the worker can take half a minute more to
 * load; a run started before then would count the worker's start-up as apply latency.
 */
async function waitUntilWorkerPolls(connection: Connection, namespace: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const polled = await Promise.all(
      Object.values(TASK_QUEUE_TYPES).map(async (taskQueueType) => {
        const { pollers } = await connection.workflowService.describeTaskQueue({
          namespace,
          taskQueue: { name: TASK_QUEUE },
          taskQueueType,
        });
        return (pollers ?? []).length > 0;
      }),
    );
    if (polled.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`the worker did not poll task queue ${TASK_QUEUE} within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}
