// The Docker Compose v2 CLI plugin, built from Go modules for machines whose docker
// client has no compose plugin (this one: a docker client, no engine, no plugin).
// `docker compose config` needs no engine, so this is enough to check
// docker-compose.yml; running the stack still needs a real Docker engine.
//
// Callers run `docker compose ...` with DOCKER_CONFIG=<dockerConfigDir>: the docker
// client looks for plugins in $DOCKER_CONFIG/cli-plugins, so the user's own
// ~/.docker is never touched.
import { spawn } from 'node:child_process';
import { chmod, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from './paths';
import { progress } from './progress';
import { isExecutable, readStamp } from './stamps';

const COMPOSE_VERSION = 'v2.40.3';
const COMPOSE_MODULE = `github.com/docker/compose/v2@${COMPOSE_VERSION}`;

export async function ensureDockerCompose(): Promise<{ dockerConfigDir: string }> {
  const dockerConfigDir = join(cacheDir(), 'docker');
  const plugin = join(dockerConfigDir, 'cli-plugins', 'docker-compose');
  // Beside cli-plugins, not in it: the docker client treats every docker-* file
  // there as a plugin and would list a stamp as a broken one.
  const stamp = join(dockerConfigDir, 'compose.version');
  if ((await isExecutable(plugin)) && (await readStamp(stamp)) === COMPOSE_VERSION) return { dockerConfigDir };

  progress(`building docker compose ${COMPOSE_VERSION} (first run only, ~3 min on 2 cores)…`);
  const buildDir = join(cacheDir(), 'compose-build');
  await mkdir(buildDir, { recursive: true });
  await mkdir(join(dockerConfigDir, 'cli-plugins'), { recursive: true });
  // A stale stamp must not vouch for a binary a failed rebuild left behind.
  await rm(stamp, { force: true });
  const logFile = join(cacheDir(), 'compose-build.log');
  progress(`  build log: ${logFile}`);
  const log = await open(logFile, 'w');
  try {
    // Not `go install …/cmd@version`: compose's go.mod has `exclude` directives, which
    // go install refuses just like `replace`. Building inside the downloaded module
    // makes it the main module, so its go.mod and go.sum apply exactly as in
    // upstream's own build. cwd is our build dir so no surrounding go.mod interferes.
    const download = await go(['mod', 'download', '-json', COMPOSE_MODULE], buildDir, log.fd);
    const moduleDir = (JSON.parse(download) as { Dir?: string }).Dir;
    if (!moduleDir) throw new Error(`\`go mod download ${COMPOSE_MODULE}\` did not say where the module is:\n${download}`);

    const built = join(buildDir, 'docker-compose');
    // -X: without it the plugin reports its version as "dev".
    const ldflags = `-s -w -X github.com/docker/compose/v2/internal.Version=${COMPOSE_VERSION}`;
    await go(['build', '-trimpath', `-ldflags=${ldflags}`, '-o', built, './cmd'], moduleDir, log.fd);
    await chmod(built, 0o755);
    // Same filesystem, so rename is atomic: a concurrent `docker compose` never
    // runs a half-written plugin.
    await rename(built, plugin);
  } catch (error) {
    throw new Error(`building docker compose ${COMPOSE_VERSION} failed (log: ${logFile}): ${(error as Error).message}`);
  } finally {
    await log.close();
  }
  await writeFile(stamp, COMPOSE_VERSION);
  return { dockerConfigDir };
}

/**
 * Runs `go` and resolves with its stdout; stderr goes to the log. stdin is closed
 * from the start (nothing to write to a child that may already have exited).
 * CGO off: a static binary, and no C compiler needed on a fresh machine.
 */
function go(args: string[], cwd: string, logFd: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, { cwd, env: { ...process.env, CGO_ENABLED: '0' }, stdio: ['ignore', 'pipe', logFd] });
    let stdout = '';
    // Never null with "pipe"; the types cannot tell, because stderr is an fd.
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('the Go toolchain (>= 1.24) is needed, but `go` is not on PATH') : error),
    );
    child.on('close', (code) =>
      // `go mod download -json` reports its errors on stdout, so pass that along.
      code === 0 ? resolve(stdout) : reject(new Error(`\`go ${args.join(' ')}\` exited with ${code ?? 'a signal'}\n${stdout.trim()}`)),
    );
  });
}
