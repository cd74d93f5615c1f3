// No dead code: knip (knip.json names the entries it cannot find alone) reports no unused file,
// export, type or dependency. An export nobody imports is a promise to nobody; an unused file
// is a trap for the next reader.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('dead code', () => {
  it('has none, by knip', async () => {
    const knip = join(root, 'node_modules', '.bin', 'knip');
    const report = await promisify(execFile)(knip, ['--reporter', 'compact', '--no-progress'], { cwd: root }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(report.trim()).toBe('');
  }, 120_000);
});
