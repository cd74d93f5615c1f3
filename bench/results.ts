// Every scenario keeps its figures as JSON in bench/results/ (git-ignored), one file per run,
// so runs can be compared later without scraping the printed tables.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const RESULTS_DIR = join(import.meta.dirname, 'results');

/** Writes `bench/results/<name>-<date>.json` and returns its path. */
export async function writeResult<Result extends { date: string }>(name: string, result: Result): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}-${result.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(result, null, 2));
  return file;
}

/** What the figures were measured on; a 2-core box with every server on it is not a cloud. */
export async function machine(): Promise<{ cores: number | undefined; node: string }> {
  return { cores: (await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm)?.length, node: process.version };
}

/** The 1, 5 and 15 minute load averages: on a shared 2-core box they say how noisy a figure is. */
export const loadAverage = () => loadavg().map((load) => Math.round(load * 100) / 100);

/** A label that tells one run's objects from another's. */
export const newRunLabel = () => randomBytes(4).toString('hex');
