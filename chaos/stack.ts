// The servers a chaos run kills and restarts: the test stack's (kube-apiserver with etcd,
// Temporal, moto counting requests), fresh in a temp dir, with the worker and the watcher built
// once and started from that build after every kill, and a Temporal client that reads the
// encrypted histories of objects that went wrong.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { MOTO_COUNT_REQUESTS_ENV } from '#bench/ec2-call-counter';
import { ensureInstalled } from '#stack/install';
import { startTestStack, type TestStack } from '#stack/test-stack';
import { encryptingDataConverter, parsePayloadKeys } from '#runtime/payload-keys';
import { prepareControllers, type RestartableController } from './controllers';

interface ChaosStack {
  dir: string;
  servers: TestStack;
  controllers: Record<'worker' | 'watcher', RestartableController>;
  temporal: Client;
  /** Stops everything; the state directory goes too unless `keep`. */
  stop(keep: boolean): Promise<void>;
}

export async function startChaosStack(): Promise<ChaosStack> {
  await ensureInstalled();
  // moto counts requests by access key, action and error code: how DependencyViolations are counted.
  process.env[MOTO_COUNT_REQUESTS_ENV] = '1';
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-chaos-'));
  let servers: TestStack;
  try {
    servers = await startTestStack({ dir, bootstrap: true });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const payloadKey = randomBytes(32).toString('base64');
  let connection: Connection | undefined;
  let controllers: ChaosStack['controllers'] | undefined;
  const stop = async (keep: boolean) => {
    await connection?.close();
    if (controllers) await Promise.allSettled(Object.values(controllers).map((c) => c.stop()));
    await servers.stop();
    if (!keep) await rm(dir, { recursive: true, force: true });
  };
  try {
    controllers = await prepareControllers(dir, {
      temporalAddress: servers.temporalAddress,
      temporalNamespace: servers.temporalNamespace,
      kubeconfigPath: servers.kubeconfigPath,
      payloadKey,
    });
    await Promise.all([controllers.worker.start(), controllers.watcher.start()]);
    connection = await Connection.connect({ address: servers.temporalAddress });
    const temporal = new Client({
      connection,
      namespace: servers.temporalNamespace,
      dataConverter: encryptingDataConverter(parsePayloadKeys(payloadKey, 'the chaos run key')),
    });
    return { dir, servers, controllers, temporal, stop };
  } catch (error) {
    await stop(false);
    throw error;
  }
}
