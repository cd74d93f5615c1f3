// The codec endpoint answers real HTTP requests the way the Temporal UI and CLI send them.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { JSONToPayload, payloadToJSON } from '@temporalio/common/lib/proto-utils';
import { EncryptionCodec, keyringOf } from '#runtime/payload-codec';
import { createCodecServer } from './codec-server';

const UI = 'http://127.0.0.1:8233';
const codec = new EncryptionCodec(keyringOf([randomBytes(32)]));
let open: Server;
let guarded: Server;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}
let openUrl: string;
let guardedUrl: string;

beforeAll(async () => {
  open = createCodecServer(codec, { allowedOrigins: [UI] });
  guarded = createCodecServer(codec, { allowedOrigins: [UI], token: 'let-me-in' });
  [openUrl, guardedUrl] = await Promise.all([listen(open), listen(guarded)]);
});
afterAll(() => {
  open.close();
  guarded.close();
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', Origin: UI, ...headers },
    body: JSON.stringify(body),
  });
  return { response, body: (await response.json()) as { payloads?: ReturnType<typeof payloadToJSON>[]; message?: string } };
}

describe('codec server', () => {
  it('decodes what the codec encoded, as protobuf JSON, with CORS for the UI', async () => {
    const encrypted = await codec.encode([defaultPayloadConverter.toPayload({ name: 'main-vpc' })!]);
    const { response, body } = await post(`${openUrl}/decode`, { payloads: encrypted.map(payloadToJSON) });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(UI);
    expect(body.payloads).toHaveLength(1);
    expect(defaultPayloadConverter.fromPayload(JSONToPayload(body.payloads![0]!))).toEqual({ name: 'main-vpc' });
  });

  it('encodes, on any mount path, so a decode of its answer gives the input back', async () => {
    const plain = payloadToJSON(defaultPayloadConverter.toPayload('hello')!);
    const encoded = await post(`${openUrl}/some/prefix/encode`, { payloads: [plain] });
    expect(encoded.response.status).toBe(200);
    expect(encoded.body.payloads![0]).not.toEqual(plain);
    const decoded = await codec.decode(encoded.body.payloads!.map(JSONToPayload));
    expect(defaultPayloadConverter.fromPayload(decoded[0]!)).toBe('hello');
  });

  it('answers the browser’s preflight, without a token, for the UI’s origin only', async () => {
    const preflight = (origin: string) =>
      fetch(`${guardedUrl}/decode`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-namespace' },
      });
    const fromUi = await preflight(UI);
    expect(fromUi.status).toBe(204);
    expect(fromUi.headers.get('access-control-allow-origin')).toBe(UI);
    expect(fromUi.headers.get('access-control-allow-headers')).toMatch(/X-Namespace/);
    const fromElsewhere = await preflight('http://evil.example');
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('requires the bearer token when it has one', async () => {
    const encrypted = (await codec.encode([defaultPayloadConverter.toPayload('secret')!])).map(payloadToJSON);
    expect((await post(`${guardedUrl}/decode`, { payloads: encrypted })).response.status).toBe(401);
    expect((await post(`${guardedUrl}/decode`, { payloads: encrypted }, { Authorization: 'Bearer wrong' })).response.status).toBe(401);
    const allowed = await post(`${guardedUrl}/decode`, { payloads: encrypted }, { Authorization: 'Bearer let-me-in' });
    expect(allowed.response.status).toBe(200);
  });

  it('says why it cannot decode: a payload from an unknown key, a body that is not Payloads', async () => {
    const foreign = await new EncryptionCodec(keyringOf([randomBytes(32)])).encode([defaultPayloadConverter.toPayload(1)!]);
    const unknown = await post(`${openUrl}/decode`, { payloads: foreign.map(payloadToJSON) });
    expect(unknown.response.status).toBe(422);
    expect(unknown.body.message).toMatch(/which this process does not have/);
    const malformed = await post(`${openUrl}/decode`, { payloads: [{ data: 42 }] });
    expect(malformed.response.status).toBe(400);
    const elsewhere = await fetch(`${openUrl}/health`);
    expect(elsewhere.status).toBe(404);
  });
});
