import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPayloadConverter, METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { ENCRYPTED_ENCODING, EncryptionCodec, KEY_ID_METADATA_KEY, isEncrypted, keyIdOf, keyringOf } from './payload-codec';
import { parsePayloadKeys, payloadKeysFromEnv } from './payload-keys';

const secret = 'sentinel-value-7f3a';
const plain = (value: unknown): Payload => defaultPayloadConverter.toPayload(value)!;
const text = (payload: Payload) => Buffer.concat([...Object.values(payload.metadata ?? {}), payload.data ?? new Uint8Array()]).toString();

describe('EncryptionCodec', () => {
  const key = randomBytes(32);
  const codec = new EncryptionCodec(keyringOf([key]));

  it('round-trips payloads, metadata included', async () => {
    const payloads = [plain({ name: secret, n: 1 }), plain(undefined), plain(new Uint8Array([1, 2, 3]))];
    const encoded = await codec.encode(payloads);
    expect(encoded).toHaveLength(3);
    for (const payload of encoded) {
      expect(isEncrypted(payload)).toBe(true);
      expect(Buffer.from(payload.metadata![KEY_ID_METADATA_KEY]!).toString()).toBe(keyIdOf(key));
      expect(text(payload)).not.toContain(secret);
      expect(text(payload)).not.toContain('json/plain');
    }
    const decoded = await codec.decode(encoded);
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([
      { name: secret, n: 1 },
      undefined,
      new Uint8Array([1, 2, 3]),
    ]);
    expect(Buffer.from(decoded[0]!.metadata![METADATA_ENCODING_KEY]!).toString()).toBe('json/plain');
  });

  it('never encrypts the same payload to the same bytes', async () => {
    const [a, b] = await codec.encode([plain(secret), plain(secret)]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it('passes payloads it did not encrypt through decode untouched', async () => {
    const payload = plain({ recorded: 'before encryption' });
    const [decoded] = await codec.decode([payload]);
    expect(decoded).toBe(payload);
  });

  it('detects altered ciphertext', async () => {
    const [encoded] = await codec.encode([plain(secret)]);
    const data = Buffer.from(encoded!.data!);
    data[20] = data[20]! ^ 1;
    await expect(codec.decode([{ ...encoded, data }])).rejects.toThrow(/failed authentication/);
  });

  it('detects a payload relabelled with another key id it has', async () => {
    const other = randomBytes(32);
    const both = new EncryptionCodec(keyringOf([key, other]));
    const [encoded] = await both.encode([plain(secret)]);
    const relabelled = { ...encoded, metadata: { ...encoded!.metadata, [KEY_ID_METADATA_KEY]: Buffer.from(keyIdOf(other)) } };
    await expect(both.decode([relabelled])).rejects.toThrow(/failed authentication/);
  });

  it('rejects truncated ciphertext', async () => {
    const [encoded] = await codec.encode([plain(secret)]);
    await expect(codec.decode([{ ...encoded, data: encoded!.data!.subarray(0, 10) }])).rejects.toThrow(/truncated/);
  });

  it('names an unknown key id, so a missing old key is obvious', async () => {
    const [encoded] = await new EncryptionCodec(keyringOf([randomBytes(32)])).encode([plain(secret)]);
    const keyId = Buffer.from(encoded!.metadata![KEY_ID_METADATA_KEY]!).toString();
    await expect(codec.decode([encoded!])).rejects.toThrow(`payload was encrypted with key ${keyId}, which this process does not have`);
  });

  it('rotates: a new key encrypts, the old one still decrypts what it wrote', async () => {
    const [old] = await codec.encode([plain('old')]);
    const rotated = new EncryptionCodec(keyringOf([randomBytes(32), key]));
    const [fresh] = await rotated.encode([plain('new')]);
    expect(Buffer.from(fresh!.metadata![KEY_ID_METADATA_KEY]!).toString()).not.toBe(keyIdOf(key));
    const decoded = await rotated.decode([old!, fresh!]);
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(['old', 'new']);
  });

  it('labels what it writes binary/encrypted', async () => {
    const [encoded] = await codec.encode([plain(1)]);
    expect(Buffer.from(encoded!.metadata![METADATA_ENCODING_KEY]!).toString()).toBe(ENCRYPTED_ENCODING);
  });
});

describe('payload keys', () => {
  const a = randomBytes(32).toString('base64');
  const b = randomBytes(32).toString('base64');

  it('takes the first key to encrypt and keeps the rest for decrypting', () => {
    const keyring = parsePayloadKeys(`${a},\n${b}\n`, 'test');
    expect(keyring.current).toBe(keyIdOf(Buffer.from(a, 'base64')));
    expect([...keyring.keys.keys()]).toEqual([keyIdOf(Buffer.from(a, 'base64')), keyIdOf(Buffer.from(b, 'base64'))]);
  });

  it.each([
    ['', /holds no payload key/],
    [randomBytes(16).toString('base64'), /key 1 in test is not 32 bytes of base64/],
    [`${a} not-base64!`, /key 2 in test is not 32 bytes of base64/],
  ])('rejects %j without echoing it', (input, error) => {
    expect(() => parsePayloadKeys(input, 'test')).toThrow(error);
    try {
      parsePayloadKeys(input, 'test');
    } catch (e) {
      if (input) expect(String(e)).not.toContain(input.split(' ').pop());
    }
  });

  it('reads the environment, then the key file, and refuses to run without a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payload-key-'));
    writeFileSync(join(dir, 'payload.key'), `${b}\n`);
    expect(payloadKeysFromEnv({ CHRONOPLANE_PAYLOAD_KEY: a }).current).toBe(keyIdOf(Buffer.from(a, 'base64')));
    expect(payloadKeysFromEnv({ CHRONOPLANE_PAYLOAD_KEY_FILE: join(dir, 'payload.key') }).current).toBe(keyIdOf(Buffer.from(b, 'base64')));
    expect(() => payloadKeysFromEnv({})).toThrow(/no payload encryption key/);
  });
});
