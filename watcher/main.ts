// Entry point: watch every registered managed kind and signal its workflows.
import { loadKubeConfig } from '../runtime/kube-config';
import { Client, Connection } from '@temporalio/client';
import { managedKinds } from '../providers/registry';
import { loadConfig } from '../runtime/config';
import { createLogger } from '../runtime/logger';
import { encryptingDataConverter, payloadKeysFromEnv } from '../runtime/payload-keys';
import { WatcherMetrics } from './metrics';
import { Watcher } from './watcher';

const config = loadConfig('watcher');
const logger = createLogger('watcher', config.logLevel);
const kubeConfig = loadKubeConfig();
const connection = await Connection.connect({ address: config.temporalAddress });
// Its signals and workflow starts carry encrypted payloads, like everything the worker writes.
const client = new Client({
  connection,
  namespace: config.temporalNamespace,
  dataConverter: encryptingDataConverter(payloadKeysFromEnv()),
});
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
});
await watcher.start();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    logger.info('stopping');
    await watcher.stop();
    server?.close();
    await connection.close();
    process.exit(0);
  });
}
