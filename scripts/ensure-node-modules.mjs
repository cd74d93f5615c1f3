// Runs before `npm run up` and `npm test` (npm's pre-scripts), so that the README's two
// commands work on a fresh clone: it installs the locked packages when node_modules is
// missing or older than package-lock.json. Plain JavaScript: nothing is installed yet.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const modifiedAt = (file) => {
  try {
    return statSync(join(root, file)).mtimeMs;
  } catch {
    return undefined;
  }
};

// npm writes node_modules/.package-lock.json at the end of every install; its postinstall
// applies patches/ (patch-package), so a patch newer than the install needs one too.
const installed = modifiedAt('node_modules/.package-lock.json');
const newest = Math.max(
  modifiedAt('package-lock.json') ?? 0,
  ...readdirSync(join(root, 'patches')).map((patch) => modifiedAt(join('patches', patch)) ?? 0),
);
if (installed === undefined || newest > installed) {
  console.log('chronoplane: installing Node packages (npm ci)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
