// The dev stack's payload encryption key (runtime/payload-codec.ts): made once, on the first
// `npm run up`, and kept with the stack's state, because histories written with it can only be
// read with it. Readable by its owner only.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

function payloadKeyFile(stateRoot: string): string {
  return join(stateRoot, 'payload.key');
}

/** The key file's path, after writing a new random key there if there was none. */
export async function ensurePayloadKeyFile(stateRoot: string): Promise<string> {
  const file = payloadKeyFile(stateRoot);
  await mkdir(stateRoot, { recursive: true });
  try {
    // 'wx': never replaces a key, even one another `up` wrote a moment ago.
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return file;
}
