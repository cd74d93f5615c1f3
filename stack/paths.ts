// Where the stack keeps things on disk. Builds are cached per machine (they take
// minutes); state is per user and survives `npm run down` / `npm run up`.
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function cacheDir(): string {
  return process.env.CHRONOPLANE_CACHE ?? join(homedir(), '.cache', 'chronoplane');
}

export function binDir(): string {
  return join(cacheDir(), 'bin');
}

export function stateDir(): string {
  return process.env.CHRONOPLANE_STATE ?? join(homedir(), '.local', 'state', 'chronoplane');
}
