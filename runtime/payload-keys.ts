// Where the payload codec's keys come from, and the data converter every Temporal client and
// worker of ours is built with. Encryption is not optional: a process with no key refuses to
// start rather than write plaintext history that a later process would happily read.
import { readFileSync } from 'node:fs';
import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, keyringOf, type PayloadKeyring } from './payload-codec';

/** Base64 keys, separated by commas or whitespace; the first encrypts, all decrypt. */
const PAYLOAD_KEY_ENV = 'CHRONOPLANE_PAYLOAD_KEY';
/** A file holding the same: one base64 key per line. `npm run up` generates one. */
const PAYLOAD_KEY_FILE_ENV = 'CHRONOPLANE_PAYLOAD_KEY_FILE';

/**
 * Parses base64 keys. Errors name the key's position, never its text: they end up in logs.
 */
export function parsePayloadKeys(text: string, source: string): PayloadKeyring {
  const encoded = text.split(/[\s,]+/).filter((part) => part !== '');
  if (encoded.length === 0) throw new Error(`${source} holds no payload key`);
  const keys = encoded.map((part, index) => {
    const key = Buffer.from(part, 'base64');
    if (key.length !== 32 || key.toString('base64') !== part) {
      throw new Error(`key ${index + 1} in ${source} is not 32 bytes of base64 (make one with: openssl rand -base64 32)`);
    }
    return key;
  });
  return keyringOf(keys);
}

export function payloadKeysFromEnv(env: NodeJS.ProcessEnv = process.env): PayloadKeyring {
  const inline = env[PAYLOAD_KEY_ENV];
  if (inline) return parsePayloadKeys(inline, PAYLOAD_KEY_ENV);
  const file = env[PAYLOAD_KEY_FILE_ENV];
  if (file) return parsePayloadKeys(readFileSync(file, 'utf8'), file);
  throw new Error(
    `no payload encryption key: set ${PAYLOAD_KEY_ENV} (base64, 32 bytes) or ${PAYLOAD_KEY_FILE_ENV}; ` +
      '`npm run up` keeps one in ~/.local/state/chronoplane/payload.key',
  );
}

/** The data converter for a Temporal Client or Worker: our payloads encrypted with `keyring`. */
export function encryptingDataConverter(keyring: PayloadKeyring): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keyring)] };
}
