// Encrypts every payload our Temporal clients and workers send (workflow inputs, activity
// results, signals, queries, memos), so the Temporal server, its database and anyone reading
// history without the key see only ciphertext. Connection details never enter history at all
// (activities/connection-secret.ts); this covers the rest: object names, spec fields, messages.
//
// AES-256-GCM, the whole payload (metadata and data) sealed as one protobuf message, in the
// shape of Temporal's encryption sample. The key id travels in the payload's metadata, so keys
// can rotate: a new key encrypts, old keys still decrypt what they wrote. Payloads without our
// encoding pass through decode untouched, so histories recorded before encryption still replay.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA_KEY = 'encryption-key-id';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ProtoPayload = proto.temporal.api.common.v1.Payload;

/** A set of keys by id: `current` encrypts, every key decrypts. */
export interface PayloadKeyring {
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

/**
 * A key's id: derived from the key itself, so ids never collide or need managing. A digest of
 * a random 256-bit key gives nothing away about the key.
 */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('chronoplane payload key\0').update(key).digest('hex').slice(0, 16);
}

/** The keyring for `keys`, the first one encrypting. */
export function keyringOf(keys: readonly Buffer[]): PayloadKeyring {
  if (keys.length === 0) throw new Error('a payload keyring needs at least one key');
  for (const key of keys) {
    if (key.length !== KEY_BYTES) throw new Error(`a payload key must be ${KEY_BYTES} bytes, got ${key.length}`);
  }
  return { current: keyIdOf(keys[0]!), keys: new Map(keys.map((key) => [keyIdOf(key), key])) };
}

export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly keyring: PayloadKeyring) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.decrypt(payload) : payload));
  }

  private encrypt(payload: Payload): Payload {
    const keyId = this.keyring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keyring.keys.get(keyId)!, iv);
    // The key id is authenticated too: a payload relabelled with another key's id fails.
    cipher.setAAD(Buffer.from(keyId));
    const sealed = Buffer.concat([cipher.update(ProtoPayload.encode(payload).finish()), cipher.final()]);
    return {
      metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA_KEY]: Buffer.from(keyId) },
      data: Buffer.concat([iv, sealed, cipher.getAuthTag()]),
    };
  }

  private decrypt(payload: Payload): Payload {
    const keyId = Buffer.from(payload.metadata?.[KEY_ID_METADATA_KEY] ?? []).toString();
    const key = this.keyring.keys.get(keyId);
    if (!key) {
      throw new Error(`payload was encrypted with key ${keyId || '(no key id)'}, which this process does not have`);
    }
    const data = Buffer.from(payload.data ?? []);
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error(`encrypted payload (key ${keyId}) is truncated`);
    const decipher = createDecipheriv(ALGORITHM, key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    try {
      const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      return ProtoPayload.decode(plain);
    } catch {
      throw new Error(`encrypted payload (key ${keyId}) failed authentication: it was altered or is corrupt`);
    }
  }
}

export function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && Buffer.from(encoding).toString() === ENCRYPTED_ENCODING;
}
