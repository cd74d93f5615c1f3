// The watcher as both of its hosts build it: its own process (watcher/main.ts), or embedded in
// the worker (worker/main.ts, CHRONOPLANE_EMBEDDED_WATCHER=true), where it hears the events of
// the worker's object cache instead of running a second informer per kind. Embedded, one
// process holds one copy of every object and one set of libraries instead of two; run it in one
// worker only, since every host signals every event.
import type { KubeConfig } from '@kubernetes/client-node';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { managedKinds } from '../providers/registry';
import { loadConfig } from '../runtime/config';
import { WatcherMetrics } from './metrics';
import { Watcher } from './watcher';
import type { OwnWrites } from '../activities/own-writes';

export interface WatcherSetup {
  watcher: Watcher;
  /** Stops the watcher (after its queued signals are sent) and its metrics endpoint. */
  stop(): Promise<void>;
}

/** `ownWrites`: the worker's activities' writes, when embedded there (see activities/own-writes.ts). */
export function setUpWatcher(kubeConfig: KubeConfig, client: Client, logger: Logger, ownWrites?: OwnWrites): WatcherSetup {
  const config = loadConfig('watcher');
  const metrics = new WatcherMetrics();
  const server = config.metricsPort > 0 ? metrics.serve(config.metricsPort) : undefined;
  const watcher = new Watcher({
    kubeConfig,
    client,
    taskQueue: config.taskQueue,
    kinds: managedKinds.map((k) => k.api),
    referencesOf: (api) => managedKinds.find((k) => k.api === api)?.references,
    namespace: process.env.CHRONOPLANE_WATCH_NAMESPACE || undefined,
    logger,
    metrics,
    ownWrites,
  });
  return {
    watcher,
    async stop() {
      await watcher.stop();
      server?.close();
    },
  };
}

/** Whether this worker hosts the watcher too. */
export const watcherEmbedded = (env: NodeJS.ProcessEnv = process.env): boolean => env.CHRONOPLANE_EMBEDDED_WATCHER === 'true';
