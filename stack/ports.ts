// Fixed ports for the developer stack (`npm run up`), and free ports for tests so
// that a test run never collides with a running dev stack or another test run.
import { createServer } from 'node:net';

export const DEV_PORTS = {
  temporal: 7233,
  temporalUi: 8233,
  kubeApiserver: 6443,
  // Not etcd's usual 2379/2380: a distro etcd service may already hold those.
  etcdClient: 12379,
  etcdPeer: 12380,
  moto: 4566,
} as const;

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port the OS assigned'));
        return;
      }
      server.close(() => resolvePort(address.port));
    });
  });
}
