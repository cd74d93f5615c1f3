// Entry point: watch every registered managed kind and signal its workflows.
import { loadKubeConfig } from '#runtime/kube-config';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '#runtime/config';
import { createLogger } from '#runtime/logger';
import { encryptingDataConverter, payloadKeysFromEnv } from '#runtime/payload-keys';
import { setUpWatcher } from './setup';

const config = loadConfig('watcher');
const logger = createLogger('watcher', config.logLevel);
const connection = await Connection.connect(config.temporal.connectionOptions());
// Its signals and workflow starts carry encrypted payloads, like everything the worker writes.
const client = new Client({
  connection,
  namespace: config.temporalNamespace,
  dataConverter: encryptingDataConverter(payloadKeysFromEnv()),
});
const { watcher, stop } = setUpWatcher(loadKubeConfig(), client, logger);
await watcher.start();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    logger.info('stopping');
    await stop();
    await connection.close();
    process.exit(0);
  });
}
