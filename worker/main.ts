// The worker: runs reconcile workflows and their activities. Connect, create, run.
import { NativeConnection, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { createReconcileActivities } from '../activities/reconcile';
import { withHeartbeats } from '../activities/heartbeat';
import { KubeAccess } from '../activities/kube';
import { loadConfig, numberFrom } from '../runtime/config';
import { createLogger } from '../runtime/logger';
import { workflowsPath } from './workflows-path';

const config = loadConfig('worker');
const logger = createLogger('worker', config.logLevel);

if (config.metricsPort > 0) {
  Runtime.install({
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) },
      metrics: { prometheus: { bindAddress: `127.0.0.1:${config.metricsPort}` } },
    },
  });
}

const failpoint = process.env.CHRONOPLANE_FAILPOINT === 'exit-after-external-create';
const activities = createReconcileActivities(KubeAccess.fromDefault(), {
  pollOverride: {
    steadySeconds: numberFrom(process.env.CHRONOPLANE_POLL_STEADY_SECONDS),
    pendingSeconds: numberFrom(process.env.CHRONOPLANE_POLL_PENDING_SECONDS),
  },
  exitAfterExternalCreate: failpoint,
});

const connection = await NativeConnection.connect({ address: config.temporalAddress });
const worker = await Worker.create({
  connection,
  namespace: config.temporalNamespace,
  taskQueue: config.taskQueue,
  ...(process.env.CHRONOPLANE_WORKFLOW_BUNDLE
    ? { workflowBundle: { codePath: process.env.CHRONOPLANE_WORKFLOW_BUNDLE } }
    : { workflowsPath }),
  activities: withHeartbeats(activities),
  // The SDK sends at most one heartbeat per 80 % of the heartbeat timeout (8 s of 10 s); every
  // 3 s leaves room for a slow round trip to a busy server before a live activity times out.
  maxHeartbeatThrottleInterval: '3s',
  // A crash test wants each exit to interrupt exactly one create: with one activity at a time
  // no other create is in flight when the worker exits, so every object's first create attempt
  // runs, and exits, under the failpoint.
  ...(failpoint ? { maxConcurrentActivityTaskExecutions: 1 } : {}),
});
logger.info({ address: config.temporalAddress, namespace: config.temporalNamespace, taskQueue: config.taskQueue }, 'worker started');
await worker.run();
await connection.close();
