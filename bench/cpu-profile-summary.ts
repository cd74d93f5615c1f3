// `npx tsx bench/cpu-profile-summary.ts DIR_OR_FILES…`: where a thread's CPU went, from V8
// .cpuprofile files (bench/profile-threads.mjs writes one per thread, as `node --cpu-prof` does). Self time is added up by package
// (node_modules/<package>, our own files by top-level folder, Node's internals, native code),
// and the heaviest functions are listed, so a benchmark's "the worker is the bottleneck" comes
// with where in the worker. Profile a benchmark's worker with
// BENCH_WORKER_NODE_OPTIONS="--import $PWD/bench/profile-threads.mjs" BENCH_PROFILE_DIR=/tmp/prof
// (node refuses --cpu-prof in NODE_OPTIONS) and summarize each thread's file on its own.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { table } from './measure';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byPackage: Map<string, number>;
  byFunction: Map<string, number>;
}

/** The bucket a frame's self time counts toward. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '')
    return functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)' ? functionName : '(native)';
  // The innermost node_modules names the package whose code ran (a dependency's own copy of yaml is yaml).
  const modules = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].pop();
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return 'node internals';
  // Our own code: the repository's top-level folder (activities, providers, …), wherever it runs from.
  const ours = /\/(activities|apis|bench|providers|runtime|stack|watcher|worker|workflows)\//.exec(url);
  if (ours) return `chronoplane ${ours[1]}/`;
  return url.split('/').slice(-1)[0] ?? url;
}

/** Adds one profile's self time (sample time deltas) into the summary. */
export function addProfile(summary: ProfileSummary, profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    if (!node) return;
    const bucket = packageOf(node.callFrame);
    if (bucket === '(idle)') return;
    summary.totalMs += ms;
    summary.byPackage.set(bucket, (summary.byPackage.get(bucket) ?? 0) + ms);
    // Some native frames are named by a whole regular expression: a name is for reading.
    const name = (node.callFrame.functionName || '(anonymous)').slice(0, 80);
    const fn = `${name} ${bucket}:${node.callFrame.lineNumber + 1}`;
    summary.byFunction.set(fn, (summary.byFunction.get(fn) ?? 0) + ms);
  });
}

async function profileFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) {
      files.push(...(await readdir(path)).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(path, f)));
    } else files.push(path);
  }
  return files;
}

function top(entries: Map<string, number>, totalMs: number, count: number): string[][] {
  return [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => [name, `${(ms / 1000).toFixed(1)} s`, `${((100 * ms) / totalMs).toFixed(1)}%`]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = await profileFiles(process.argv.slice(2));
  if (files.length === 0) throw new Error('usage: bench/cpu-profile-summary.ts DIR_OR_FILE.cpuprofile…');
  const summary: ProfileSummary = { totalMs: 0, byPackage: new Map(), byFunction: new Map() };
  for (const file of files) addProfile(summary, JSON.parse(await readFile(file, 'utf8')) as CpuProfile);
  console.log(`${files.length} profile(s), ${(summary.totalMs / 1000).toFixed(1)} s of CPU (idle left out)\n`);
  console.log(table([['self time by package', '', ''], ...top(summary.byPackage, summary.totalMs, 20)]));
  console.log(`\n${table([['heaviest functions (self time)', '', ''], ...top(summary.byFunction, summary.totalMs, 25)])}`);
}
