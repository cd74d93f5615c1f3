// A server-side apply to a target sends the manifest as written and asks for strict field validation.
// A local HTTP server stands in for the target's API server and records what it was asked.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrictApplyObjectApi } from './strict-apply';

const requests: string[] = [];
const bodies: string[] = [];
const contentTypes: string[] = [];
/** Answers discovery for v1, and any other call with a ConfigMap, once it has read the whole request. */
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    requests.push(`${request.method} ${request.url}`);
    if (request.method === 'PATCH') {
      contentTypes.push(String(request.headers['content-type']));
      bodies.push(body);
    }
    response.setHeader('Content-Type', 'application/json');
    const discovery = {
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [{ name: 'configmaps', namespaced: true, kind: 'ConfigMap', verbs: [] }],
    };
    const configMapAnswer = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } };
    response.end(JSON.stringify(request.url === '/api/v1' ? discovery : configMapAnswer));
  });
});
let api: StrictApplyObjectApi;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'target', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name: 'user' }],
    contexts: [{ name: 'target', cluster: 'target', user: 'user' }],
    currentContext: 'target',
  });
  api = StrictApplyObjectApi.forConfig(kubeConfig);
});
afterAll(() => server.close());

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: 'b' } };

describe('StrictApplyObjectApi', () => {
  it('applies the manifest as written, unknown fields included, with strict field validation, dry runs too', async () => {
    requests.length = 0;
    bodies.length = 0;
    const withTypo = { ...configMap, dta: { typo: 'x' } };
    await api.serverSideApply(withTypo, { fieldManager: 'chronoplane/c', force: true });
    await api.serverSideApply(withTypo, { fieldManager: 'chronoplane/c', force: false, dryRun: 'All' });
    const patches = requests.filter((r) => r.startsWith('PATCH'));
    expect(patches).toHaveLength(2);
    const query = (request: string) => Object.fromEntries(new URL(request.split(' ')[1]!, 'http://x').searchParams);
    expect(query(patches[0]!)).toEqual({ fieldManager: 'chronoplane/c', force: 'true', fieldValidation: 'Strict' });
    expect(query(patches[1]!)).toEqual({ fieldManager: 'chronoplane/c', force: 'false', fieldValidation: 'Strict', dryRun: 'All' });
    expect(patches[0]).toMatch(/^PATCH \/api\/v1\/namespaces\/default\/configmaps\/c\?/);
    expect(bodies.map((b) => JSON.parse(b))).toEqual([withTypo, withTypo]);
    expect(contentTypes).toContain('application/apply-patch+yaml');
  });
});
