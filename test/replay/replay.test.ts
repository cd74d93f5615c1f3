// Replays recorded workflow histories against today's workflow code. A change that would make
// running workflows non-deterministic fails here; gate such changes with patched().
// Record a new branch's history with RECORD_HISTORIES=1 and `-t` on the test that takes it
// (docs/upgrades.md), keeping the files of the old branches.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { bundleWorkflows } from '../unit/temporal-env';
import { encryptingDataConverter, parsePayloadKeys } from '#runtime/payload-keys';

const dir = join(import.meta.dirname, 'histories');

describe('recorded workflow histories', async () => {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const workflowBundle = await bundleWorkflows();
  // With the worker's codec: histories recorded before encryption hold plain payloads, which
  // it must pass through untouched.
  const dataConverter = encryptingDataConverter(parsePayloadKeys(randomBytes(32).toString('base64'), 'a test key'));
  it('exist', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s replays deterministically', async (file) => {
    const history = JSON.parse(await readFile(join(dir, file), 'utf8'));
    await Worker.runReplayHistory({ workflowBundle, dataConverter }, history, file);
  });
});
