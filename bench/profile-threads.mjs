// Loaded into a benchmark's worker with
//   BENCH_WORKER_NODE_OPTIONS="--import /abs/path/bench/profile-threads.mjs"
// (node refuses --cpu-prof in NODE_OPTIONS): profiles each thread it is loaded into (the main
// thread, where every activity, informer and gRPC call runs, and Temporal's workflow thread,
// which inherits the option) for BENCH_PROFILE_SECONDS (default 90), from its start or from
// BENCH_PROFILE_AFTER_SECONDS after it (default 0: a benchmark's delete comes after its apply and
// idle window, about two minutes in at 1,000 Objects), and writes
// `<pid>-thread-<id>.cpuprofile` into BENCH_PROFILE_DIR (default the working directory), for
// bench/cpu-profile-summary.ts. A window rather than "until exit": the worker is stopped by a
// signal, and what it does while shutting down is not what a benchmark asks about.
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 90);
const after = Number(process.env.BENCH_PROFILE_AFTER_SECONDS ?? 0);
const dir = process.env.BENCH_PROFILE_DIR ?? process.cwd();
const session = new Session();
session.connect();
await session.post('Profiler.enable');

async function profileWindow() {
  await session.post('Profiler.start');
  // The profile must not keep a worker alive that is done.
  setTimeout(async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(dir, `${process.pid}-thread-${threadId}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }, seconds * 1000).unref();
}

if (after > 0) setTimeout(profileWindow, after * 1000).unref();
else await profileWindow();
