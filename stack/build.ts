// Builds the worker and the watcher into plain JavaScript, as they would ship, for the stack to
// run. Running them through tsx costs each process about 100 MiB more memory (its loader runs a
// second V8 isolate beside the program and transforms every module as it loads), which would be
// most of what a benchmark reports as their memory.
//
// esbuild bundles only our own TypeScript; npm packages stay imports (`packages: 'external'`)
// and load from node_modules as usual. Code splitting keeps the providers' dynamic imports
// lazy: the watcher never loads the EC2 SDK, as with tsx. A build takes about a second, so it
// runs at every start and always matches the source.
import { build } from 'esbuild';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './paths';

type BuiltController = 'worker' | 'watcher';

/**
 * Builds `<controller>/main.ts` into `<buildDir>/<controller>/` and returns the entry file to run
 * with node. Node resolves the packages it imports from a `node_modules` beside it, a link to
 * the repository's.
 */
export async function buildController(controller: BuiltController, buildDir: string): Promise<string> {
  const outdir = join(buildDir, controller);
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await symlink(join(repoRoot, 'node_modules'), join(buildDir, 'node_modules'), 'dir').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await build({
    entryPoints: { main: join(repoRoot, controller, 'main.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Stack traces map back to the TypeScript with NODE_OPTIONS=--enable-source-maps.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return join(outdir, 'main.mjs');
}
