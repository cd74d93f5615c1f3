// The worker: runs reconcile and sweep workflows and their activities, and makes sure each
// sweep is running. Connect, create, run.
import { NativeConnection, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { createReconcileActivities } from '#activities/reconcile';
import { withHeartbeats } from '#activities/heartbeat';
import { KubeAccess } from '#activities/kube';
import { ObjectCache } from '#activities/object-cache';
import { OwnWrites } from '#runtime/own-writes';
import { loadKubeConfig } from '#runtime/kube-config';
import { managedKinds } from '#providers/registry';
import { loadConfig, numberFrom } from '#runtime/config';
import { createLogger } from '#runtime/logger';
import { encryptingDataConverter, payloadKeysFromEnv } from '#runtime/payload-keys';
import { workflowsPath } from './workflows-path';
import { createSweepActivities } from '#activities/sweep';
import { listFromApiServer, listFromCacheOr } from '#activities/sweep-list';
import { startSweeps } from './sweeps';
import { setUpWatcher, watcherEmbedded } from '#watcher/setup';
import { Signaler } from '#watcher/signaler';
import { wakeBySignal } from '#watcher/wake';
import { workflowIdFor } from '#core/managed-kind';

const config = loadConfig('worker');
const logger = createLogger('worker', config.logLevel);
// Every payload this worker writes to history is encrypted; see runtime/payload-codec.ts.
const dataConverter = encryptingDataConverter(payloadKeysFromEnv());

if (config.metricsPort > 0) {
  Runtime.install({
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) },
      metrics: { prometheus: { bindAddress: `${config.metricsBindAddress}:${config.metricsPort}` } },
    },
  });
}

const failpoint = process.env.CHRONOPLANE_FAILPOINT === 'exit-after-external-create';
const kubeConfig = loadKubeConfig();
const kube = new KubeAccess(kubeConfig);
const connection = await NativeConnection.connect(config.temporal.connectionOptions());
const client = new Client({ connection, namespace: config.temporalNamespace, dataConverter });
// Embedded, the watcher signals from this process, fed by the object cache's informers, and
// leaves out the watch events of this process's own writes.
const ownWrites = watcherEmbedded() ? new OwnWrites() : undefined;
// Kinds that watch their external system (an Object's target objects) wake their workflows
// through the same signal the watcher sends.
const wakeSignaler = new Signaler(client, {
  taskQueue: config.taskQueue,
  onError: (request, error, permanent) =>
    logger.warn({ resource: workflowIdFor(request.ref), err: String(error), permanent }, 'cannot send a wake-up'),
});
kube.wake = wakeBySignal(wakeSignaler);
const embedded = ownWrites ? setUpWatcher(kubeConfig, client, logger, ownWrites) : undefined;
// Passes read their object from here rather than the API server; it watches what the watcher
// watches, so every object that has a workflow is in it.
const objects = ObjectCache.watch(
  kube,
  kubeConfig,
  managedKinds.map((k) => k.api),
  {
    namespace: process.env.CHRONOPLANE_WATCH_NAMESPACE || undefined,
    onError: (api, error, retryIn) =>
      logger.warn({ kind: api.kind, err: String(error), retryInSeconds: retryIn }, 'watch failed; restarting'),
    onEvent: embedded?.watcher.handleEvent,
  },
);
const activities = createReconcileActivities(kube, {
  pollOverride: {
    steadySeconds: numberFrom(process.env.CHRONOPLANE_POLL_STEADY_SECONDS),
    pendingSeconds: numberFrom(process.env.CHRONOPLANE_POLL_PENDING_SECONDS),
    safetyNetSeconds: numberFrom(process.env.CHRONOPLANE_POLL_SAFETY_NET_SECONDS),
  },
  exitAfterExternalCreate: failpoint,
  objects,
  ownWrites,
});

const worker = await Worker.create({
  connection,
  namespace: config.temporalNamespace,
  taskQueue: config.taskQueue,
  dataConverter,
  ...(process.env.CHRONOPLANE_WORKFLOW_BUNDLE
    ? { workflowBundle: { codePath: process.env.CHRONOPLANE_WORKFLOW_BUNDLE } }
    : { workflowsPath: workflowsPath() }),
  activities: withHeartbeats({
    ...activities,
    // The sweep follows the steady poll's override, so drift is found within the same interval.
    ...createSweepActivities(listFromCacheOr(objects, listFromApiServer(kubeConfig)), kube, {
      intervalOverrideSeconds: numberFrom(process.env.CHRONOPLANE_POLL_STEADY_SECONDS),
    }),
  }),
  // The SDK sends at most one heartbeat per 80 % of the heartbeat timeout (8 s of 10 s); every
  // 3 s leaves room for a slow round trip to a busy server before a live activity times out.
  maxHeartbeatThrottleInterval: '3s',
  // Sized for 10,000 workflows, most of them settled and asleep. Measured with the real bundle
  // (one thread, shared V8 context): a cached workflow costs about 0.2 MiB of RSS, plus about
  // 0.75 KiB per event of its run's history, which continue-as-new bounds at 2,000 events
  // (workflows/reconcile.ts), so up to about 1.7 MiB. Caching all 10,000 would take gigabytes;
  // the cache holds the working set instead (a burst of applies or deletes, the resources still
  // pending), and a workflow evicted while asleep replays its history when it next wakes, which
  // with the sweeps is rare. 200 keeps the cache under about 40 MiB for short histories; a burst
  // larger than the cache replays the workflows evicted mid-burst, which measured at a few
  // percent of the worker's CPU against 500 (bench/README.md).
  maxCachedWorkflows: numberFrom(process.env.CHRONOPLANE_MAX_CACHED_WORKFLOWS, 200),
  // One thread with one V8 context shared by every workflow (the SDK's defaults, stated because
  // the sizing above depends on them): a context per workflow would cost several times more,
  // and every extra thread carries its own isolate and copy of the bundle.
  reuseV8Context: true,
  workflowThreadPoolSize: 1,
  // A workflow task holds its slot while its local activities (reading and writing the object,
  // quick provider calls) run. More slots than the SDK's 40 gained 9% on a burst of 1,000 Objects
  // on 2 cores, where the worker's threads are the bound (bench/README.md); a bigger machine
  // may want more.
  maxConcurrentWorkflowTaskExecutions: numberFrom(process.env.CHRONOPLANE_MAX_CONCURRENT_WORKFLOW_TASKS, 40),
  // A crash test wants each exit to interrupt exactly one create: with one activity at a time
  // no other create is in flight when the worker exits, so every object's first create attempt
  // runs, and exits, under the failpoint.
  ...(failpoint ? { maxConcurrentActivityTaskExecutions: 1 } : {}),
});
// One sweep per kind with bulk observation; a worker that cannot start them still reconciles,
// and every settled resource still looks for itself at its safety net.
const sweeps = await startSweeps(client, {
  taskQueue: config.taskQueue,
  namespace: process.env.CHRONOPLANE_WATCH_NAMESPACE || undefined,
  kinds: managedKinds,
}).catch((error: unknown) => logger.error({ err: String(error) }, 'cannot start the sweeps'));
if (sweeps) logger.info({ sweeps }, 'sweeps running');
logger.info(
  {
    address: config.temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    watcher: embedded ? 'embedded' : 'separate',
  },
  'worker started',
);
await worker.run();
logger.info({ reads: Object.fromEntries(objects.outcomes) }, 'object cache reads');
await embedded?.stop();
await wakeSignaler.drained();
await Promise.all([objects.stop(), kube.stopWatches()]);
await connection.close();
