// @kubernetes/client-node 1.x makes its requests with node-fetch 2, which runs with one patch
// (patches/, applied by patch-package at install). node-fetch takes a chunked response for a cut
// one when its socket still has a data listener once the response closes; on a keep-alive socket
// (runtime/kube-config.ts) that listener is the next queued request's, so a whole response failed
// with "Premature close" (node-fetch#1767). Under a burst of 500 VPCs that was 35 failed reads
// and writes, each an activity attempt retried. The patch trusts the HTTP parser: a message it
// saw to its end is whole. These tests fail when the installed node-fetch is not the version the
// patch was made for, when the false "Premature close" comes back, or when a body that is really
// cut short stops failing.
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, Agent, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fetch from 'node-fetch';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

let server: Server | undefined;
let agent: Agent | undefined;
afterEach(() => {
  server?.close();
  agent?.destroy();
});

/** Fetches `count` bodies at once through a keep-alive agent of 2 sockets: most requests wait for a socket. */
async function fetchAll(handler: RequestListener, count: number): Promise<{ ok: number; errors: string[] }> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const errors: string[] = [];
  let ok = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        await (await fetch(url, { agent })).text();
        ok += 1;
      } catch (error) {
        errors.push((error as Error).message);
      }
    }),
  );
  return { ok, errors };
}

// No Content-Length: Node sends the body chunked, as the API server does for large answers.
const chunked: RequestListener = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`{"data":"${'x'.repeat(5_000)}",`);
  setImmediate(() => res.end('"end":true}'));
};

describe('the patched node-fetch', () => {
  it('is the version the patch was made for, with the patch applied', () => {
    const patches = readdirSync(join(root, 'patches')).filter((f) => f.startsWith('node-fetch+'));
    expect(patches).toHaveLength(1);
    const patchedVersion = patches[0]!.replace('node-fetch+', '').replace('.patch', '');
    const fetchDir = dirname(require.resolve('node-fetch/package.json'));
    expect((JSON.parse(readFileSync(join(fetchDir, 'package.json'), 'utf8')) as { version: string }).version).toBe(patchedVersion);
    // The CommonJS build, the ES module build bundlers pick (worker/bundle), and the older one.
    for (const file of ['index.js', 'index.mjs', 'index.es.js']) {
      expect(readFileSync(join(fetchDir, 'lib', file), 'utf8'), file).toContain('!hadError && !response.complete');
    }
  });

  it('reads every whole chunked body over reused keep-alive sockets', async () => {
    expect(await fetchAll(chunked, 500)).toEqual({ ok: 500, errors: [] });
  });

  it('still fails a chunked body the server cuts short', async () => {
    const cut: RequestListener = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"data":"${'x'.repeat(5_000)}`);
      // The connection ends without the last chunk.
      setImmediate(() => res.socket?.end());
    };
    const { ok, errors } = await fetchAll(cut, 10);
    expect(ok).toBe(0);
    expect(errors).toHaveLength(10);
    for (const message of errors) expect(message).toContain('Premature close');
  });
});
