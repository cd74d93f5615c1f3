// Build stamps: a small file beside a cached build says what it was built from, so a rerun
// skips the build only when the same inputs would produce it again.
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';

export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function readStamp(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}
