// The dev stack's codec server process, started as `npm run up` starts it, answers a real
// decode request with the key from the stack's key file.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { JSONToPayload, payloadToJSON } from '@temporalio/common/lib/proto-utils';
import { EncryptionCodec } from '#runtime/payload-codec';
import { parsePayloadKeys } from '#runtime/payload-keys';
import { codecServerRunning, codecServerUrl, startCodecServer, stopCodecServer } from './codec-server';
import { ensurePayloadKeyFile } from './payload-key';
import { freePort } from './ports';

describe('the dev stack’s codec server', () => {
  let dir: string;
  afterAll(async () => {
    await stopCodecServer(join(dir, 'codec'));
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps one key, and decodes with it for the UI’s origin', async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoplane-codec-'));
    const keyFile = await ensurePayloadKeyFile(dir);
    const key = await readFile(keyFile, 'utf8');
    expect(await ensurePayloadKeyFile(dir)).toBe(keyFile);
    expect(await readFile(keyFile, 'utf8')).toBe(key); // never replaced
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

    const port = await freePort();
    const ui = 'http://127.0.0.1:8233';
    await startCodecServer({ dir: join(dir, 'codec'), port, keyFile, allowedOrigins: [ui] });
    const codec = new EncryptionCodec(parsePayloadKeys(key, keyFile));
    const encrypted = await codec.encode([defaultPayloadConverter.toPayload({ cidrBlock: '10.0.0.0/16' })!]);
    const response = await fetch(`${codecServerUrl(port)}/decode`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', Origin: ui },
      body: JSON.stringify({ payloads: encrypted.map(payloadToJSON) }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ui);
    const { payloads } = (await response.json()) as { payloads: Parameters<typeof JSONToPayload>[0][] };
    expect(defaultPayloadConverter.fromPayload(JSONToPayload(payloads[0]!))).toEqual({ cidrBlock: '10.0.0.0/16' });

    await stopCodecServer(join(dir, 'codec'));
    expect(await codecServerRunning(join(dir, 'codec'))).toBe(false);
  }, 60_000);
});
