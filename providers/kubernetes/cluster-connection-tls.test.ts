// A target cluster's API clients reuse their TLS connections, against a real HTTPS server:
// @kubernetes/client-node 1.x on its own opens a new one (a full handshake) for every request,
// which runtime/kube-config.ts (KeepAliveKubeConfig) prevents.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKubeconfig } from './cluster-connection';

let dir: string;
let server: Server;
let handshakes = 0;
let kubeconfig: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-config-test-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [] }));
  });
  server.on('secureConnection', () => (handshakes += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  kubeconfig = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'u', user: { token: 'not-a-real-token' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function handshakesFor(config: KubeConfig, requests: number): Promise<number> {
  const before = handshakes;
  const core = config.makeApiClient(CoreV1Api);
  for (let i = 0; i < requests; i++) await core.listNamespace();
  return handshakes - before;
}

describe('API clients of a target cluster', () => {
  it('open one TLS connection for many requests', async () => {
    expect(await handshakesFor(parseKubeconfig(kubeconfig, 'the test'), 5)).toBe(1);
  });

  it('where a plain KubeConfig would open one per request (why we keep our own agent)', async () => {
    const plain = new KubeConfig();
    plain.loadFromString(kubeconfig);
    expect(await handshakesFor(plain, 3)).toBe(3);
  });
});
