// The watcher as both of its hosts build it: its own process (watcher/main.ts), or embedded in
// the worker (worker/main.ts, CHRONOPLANE_EMBEDDED_WATCHER=true), where it hears the events of
// the worker's object cache instead of running a second informer per kind. Embedded, one
// process holds one copy of every object and one set of libraries instead of two. Every host
// signals every event, so run one watcher, or several with CHRONOPLANE_LEADER_ELECTION=true,
// where the one that holds a Lease signals and the others stand by (leader-election.ts).
import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { managedKinds } from '#providers/registry';
import { loadConfig } from '#runtime/config';
import { WatcherMetrics } from './metrics';
import { Watcher } from './watcher';
import { LeaderElector, defaultIdentity } from './leader-election';
import type { OwnWrites } from '#runtime/own-writes';

interface WatcherSetup {
  watcher: Watcher;
  /** Stops the watcher (after its queued signals are sent), gives up its Lease, and stops its metrics endpoint. */
  stop(): Promise<void>;
}

/** `ownWrites`: the worker's activities' writes, when embedded there (see runtime/own-writes.ts). */
export function setUpWatcher(kubeConfig: KubeConfig, client: Client, logger: Logger, ownWrites?: OwnWrites): WatcherSetup {
  const config = loadConfig('watcher');
  const metrics = new WatcherMetrics();
  const server =
    config.metricsPort > 0
      ? metrics.serve(config.metricsPort, config.metricsBindAddress, (error) =>
          logger.error({ err: String(error), port: config.metricsPort }, 'cannot serve metrics'),
        )
      : undefined;
  const namespace = process.env.CHRONOPLANE_WATCH_NAMESPACE || undefined;
  const election = leaderElectionFromEnv(process.env, { watchNamespace: namespace, taskQueue: config.taskQueue });
  const watcher = new Watcher({
    kubeConfig,
    client,
    taskQueue: config.taskQueue,
    kinds: managedKinds.map((k) => k.api),
    referencesOf: (api) => managedKinds.find((k) => k.api === api)?.references,
    namespace,
    logger,
    metrics,
    ownWrites,
    leaderElection: election !== undefined,
    // Embedded in the worker, the client is the worker's, on its NativeConnection.
    eagerStart: ownWrites !== undefined,
  });
  metrics.leader.set(election ? 0 : 1);

  let stopping = false;
  const elector =
    election &&
    new LeaderElector({
      kubeConfig,
      ...election,
      onStartedLeading: () => {
        const relisted = watcher.startLeading();
        metrics.leader.set(1);
        metrics.leadershipTransitions.inc({ change: 'acquired' });
        logger.info({ identity: election.identity, lease: `${election.namespace}/${election.name}`, relisted }, 'became leader');
      },
      onStoppedLeading: () => {
        watcher.stopLeading();
        metrics.leader.set(0);
        metrics.leadershipTransitions.inc({ change: 'lost' });
        if (stopping) logger.info({ identity: election.identity }, 'stepped down to stop');
        else logger.warn({ identity: election.identity }, 'lost leadership');
      },
      onAttemptFailed: (error) =>
        logger.warn(
          { identity: election.identity, leader: watcher.isLeading(), err: String(error) },
          'cannot acquire or renew the leader Lease',
        ),
    });
  if (elector) {
    logger.info({ identity: election.identity, lease: `${election.namespace}/${election.name}` }, 'standing for leader');
    elector.start();
  }
  return {
    watcher,
    async stop() {
      stopping = true;
      // No new signals, then those still queued go out, and only then is the Lease given up, so
      // two never signal at once. (Embedded, the worker's cache still feeds it events until now.)
      if (elector) watcher.stopLeading();
      await watcher.stop();
      await elector?.stop();
      server?.close();
    },
  };
}

/** Whether this worker hosts the watcher too. */
export const watcherEmbedded = (env: NodeJS.ProcessEnv = process.env): boolean => env.CHRONOPLANE_EMBEDDED_WATCHER === 'true';

interface LeaderElectionConfig {
  namespace: string;
  name: string;
  identity: string;
}

/**
 * CHRONOPLANE_LEADER_ELECTION=true turns it on. One Lease per scope: watchers of different
 * namespaces or task queues each elect their own leader.
 */
export function leaderElectionFromEnv(
  env: NodeJS.ProcessEnv,
  scope: { watchNamespace?: string; taskQueue: string },
): LeaderElectionConfig | undefined {
  if (env.CHRONOPLANE_LEADER_ELECTION !== 'true') return undefined;
  return {
    namespace: env.CHRONOPLANE_LEADER_ELECTION_NAMESPACE || scope.watchNamespace || 'crossplane-system',
    name: leaseName(scope),
    identity: env.CHRONOPLANE_LEADER_ELECTION_IDENTITY || defaultIdentity(),
  };
}

const DEFAULT_TASK_QUEUE = 'chronoplane';

/**
 * `chronoplane-watcher`, then the task queue (unless the default) and the watch namespace. A
 * task queue may hold characters a Lease name may not; then a digest of the scope keeps names
 * apart that would otherwise become the same.
 */
export function leaseName(scope: { watchNamespace?: string; taskQueue: string }): string {
  const parts = [scope.taskQueue === DEFAULT_TASK_QUEUE ? undefined : scope.taskQueue, scope.watchNamespace].filter(
    (part): part is string => !!part,
  );
  if (parts.length === 0) return 'chronoplane-watcher';
  const raw = parts.join('-');
  const clean = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const digest = createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 8);
  const suffix = clean === raw && clean.length <= 200 ? clean : `${clean.slice(0, 200)}-${digest}`;
  return `chronoplane-watcher-${suffix}`.replace(/-+$/, '');
}
