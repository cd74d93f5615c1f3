// Installs the real servers the stack runs, on a fresh machine or in seconds on a
// warm one. Each ensure* function is idempotent: it checks a stamp (what was built
// or installed, and from what) and only does work when that is missing or stale.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureHelm } from './helm';
import { binDir, cacheDir, repoRoot } from './paths';
import { progress } from './progress';
import { commandExists, runCommand } from './run-command';
import { isExecutable, readStamp } from './stamps';

// Newer CLI tags carry replace directives, which `go install pkg@version` refuses.
const TEMPORAL_CLI_VERSION = 'v1.5.1';
const MOTO_VERSION = '5.2.5';

const kubeModuleDir = join(repoRoot, 'tools', 'kube');
const kubeCommands = ['kube-apiserver', 'kube-controller-manager'] as const;

interface InstalledTools {
  temporal: string;
  helm: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  etcd: string;
  kubectl: string;
  /** The venv's python, which has moto installed. */
  motoPython: string;
}

/** Installs (or finds) everything; every step is quick when already done. */
export async function ensureInstalled(): Promise<InstalledTools> {
  await ensureOpenssl();
  const etcd = await ensureEtcd();
  const kubectl = await ensureKubectl();
  const temporal = await ensureTemporalBinary();
  const { kubeApiserver, kubeControllerManager } = await ensureKubeBinaries();
  const motoPython = await ensureMotoVenv();
  const helm = await ensureHelm();
  return { temporal, helm, kubeApiserver, kubeControllerManager, etcd, kubectl, motoPython };
}

export async function ensureTemporalBinary(): Promise<string> {
  const binary = join(binDir(), 'temporal');
  const stamp = join(binDir(), 'temporal.stamp');
  const wanted = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;
  if ((await isExecutable(binary)) && (await readStamp(stamp)) === wanted) return binary;

  await ensureGo();
  progress(`building the temporal CLI ${TEMPORAL_CLI_VERSION} (first run only, ~3 min)…`);
  await mkdir(binDir(), { recursive: true });
  const logFile = join(cacheDir(), 'temporal-build.log');
  await runCommand('go', ['install', wanted], { env: { ...process.env, GOBIN: binDir() }, logFile });
  await writeFile(stamp, wanted);
  return binary;
}

/**
 * Concurrent callers share one run of `work`: several clusters start side by side (the control
 * cluster and the remote clusters), and each would otherwise build kube-apiserver into the same
 * files, or apt-get etcd under the same dpkg lock, at the same time. Later calls run it again,
 * which is a quick stamp check.
 */
function sharedWhileRunning<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= work().finally(() => (running = undefined)));
}

/**
 * Builds kube-apiserver and kube-controller-manager from tools/kube. The stamp is a
 * hash of go.mod and go.sum, so changing the pinned Kubernetes version rebuilds.
 */
export const ensureKubeBinaries = sharedWhileRunning(buildKubeBinariesIfStale);

async function buildKubeBinariesIfStale(): Promise<{ kubeApiserver: string; kubeControllerManager: string }> {
  const binaries = {
    kubeApiserver: join(binDir(), 'kube-apiserver'),
    kubeControllerManager: join(binDir(), 'kube-controller-manager'),
  };
  const stamp = join(binDir(), 'kube.stamp');
  const ldflags = await kubeReleaseLdflags();
  const wanted = `${await moduleHash(kubeModuleDir)} ${createHash('sha256').update(ldflags).digest('hex')}`;
  const built = (await isExecutable(binaries.kubeApiserver)) && (await isExecutable(binaries.kubeControllerManager));
  if (built && (await readStamp(stamp)) === wanted) return binaries;

  await ensureGo();
  progress(
    'building kube-apiserver and kube-controller-manager (first run only: ~5 min on 2 cores, more if Go modules must be downloaded)…',
  );
  await mkdir(binDir(), { recursive: true });
  // A stale stamp must not survive a failed rebuild.
  await rm(stamp, { force: true });
  const logFile = join(cacheDir(), 'kube-build.log');
  progress(`  build log: ${logFile}`);
  await runCommand(
    'go',
    [
      'build',
      // The binaries must not depend on the state of this repo's work tree.
      '-buildvcs=false',
      '-trimpath',
      `-ldflags=${ldflags}`,
      '-o',
      `${binDir()}/`,
      ...kubeCommands.map((command) => `k8s.io/kubernetes/cmd/${command}`),
    ],
    { cwd: kubeModuleDir, logFile },
  );
  await writeFile(stamp, wanted);
  return binaries;
}

/**
 * The version stamps Kubernetes' own release build sets (hack/lib/version.sh), from the
 * k8s.io/kubernetes version tools/kube pins. Without them kube-apiserver reports v0.0.0-master,
 * and clients that check the server's version (helm against a chart's kubeVersion, kubectl's
 * skew warning) take it for an unknown, very old server. Linker flags only: changing them
 * relinks, it does not recompile.
 */
async function kubeReleaseLdflags(): Promise<string> {
  const goMod = await readFile(join(kubeModuleDir, 'go.mod'), 'utf8');
  const pinned = /^\s*(?:require\s+)?k8s\.io\/kubernetes (v(\d+)\.(\d+)\.\d+)\s*$/m.exec(goMod);
  if (!pinned) throw new Error(`cannot find the k8s.io/kubernetes version in ${kubeModuleDir}/go.mod`);
  const [, gitVersion, major, minor] = pinned;
  return [
    '-s -w',
    ...['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
      `-X ${pkg}.gitVersion=${gitVersion}`,
      `-X ${pkg}.gitMajor=${major}`,
      `-X ${pkg}.gitMinor=${minor}`,
      `-X ${pkg}.gitTreeState=clean`,
    ]),
  ].join(' ');
}

/** What a tools/ module pins: a hash of its go.mod and go.sum, so a changed pin rebuilds. */
async function moduleHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum']) hash.update(await readFile(join(dir, file)));
  return hash.digest('hex');
}

/** Debian's etcd-server; kube-apiserver only needs a plain etcd v3 endpoint. */
export const ensureEtcd = sharedWhileRunning(installEtcdIfMissing);

async function installEtcdIfMissing(): Promise<string> {
  const etcd = '/usr/bin/etcd';
  if (await isExecutable(etcd)) return etcd;
  progress('installing etcd (apt-get install etcd-server)…');
  await aptInstall('etcd-server');
  return etcd;
}

async function ensureOpenssl(): Promise<void> {
  if (await commandExists('openssl')) return;
  progress('installing openssl (apt-get)…');
  await aptInstall('openssl');
}

async function ensureKubectl(): Promise<string> {
  if (await commandExists('kubectl')) return 'kubectl';
  throw new Error('kubectl is not on PATH; the stack uses it to apply manifests (the machine image normally has it)');
}

/** A private venv with moto's server extras, pinned; the stamp records the version. */
export async function ensureMotoVenv(): Promise<string> {
  const venv = join(cacheDir(), 'venv');
  const python = join(venv, 'bin', 'python');
  const stamp = join(venv, 'chronoplane-moto.version');
  if ((await isExecutable(python)) && (await readStamp(stamp)) === MOTO_VERSION) return python;

  progress(`installing moto ${MOTO_VERSION} into ${venv} (first run only, ~1 min)…`);
  if (!(await isExecutable(python))) {
    try {
      await runCommand('python3', ['-m', 'venv', venv]);
    } catch {
      // Debian's python3 ships venv support as a separate package.
      await aptInstall('python3-venv');
      await rm(venv, { recursive: true, force: true });
      await runCommand('python3', ['-m', 'venv', venv]);
    }
  }
  await runCommand(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `moto[server]==${MOTO_VERSION}`], {
    logFile: join(cacheDir(), 'moto-install.log'),
  });
  await writeFile(stamp, MOTO_VERSION);
  return python;
}

// Temporal's own server, for tests that want a Temporal cluster as operators run it rather than
// the dev server: the version the temporal CLI v1.5.1 embeds as its dev server, built from
// tools/temporal-server, whose go.mod pins the CLI's own dependency versions. Built without
// -trimpath, as `go install` built the CLI, so Go's build cache serves nearly every package.
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const TEMPORAL_SERVER_MODULE = 'go.temporal.io/server';
const temporalServerModuleDir = join(repoRoot, 'tools', 'temporal-server');

export interface TemporalServerTools {
  /** `temporal-server --root <dir> --config config --env <env> start` */
  server: string;
  /** temporal-sql-tool: creates databases and applies the versioned schemas it embeds. */
  sqlTool: string;
}

export const ensureTemporalServer = sharedWhileRunning(buildTemporalServerIfStale);

async function buildTemporalServerIfStale(): Promise<TemporalServerTools> {
  const home = join(cacheDir(), 'temporal-server', TEMPORAL_SERVER_VERSION);
  const tools: TemporalServerTools = {
    server: join(home, 'temporal-server'),
    sqlTool: join(home, 'temporal-sql-tool'),
  };
  const stamp = join(home, 'build.stamp');
  const wanted = await moduleHash(temporalServerModuleDir);
  const built = (await isExecutable(tools.server)) && (await isExecutable(tools.sqlTool));
  if (built && (await readStamp(stamp)) === wanted) return tools;

  await ensureGo();
  // The CLI first: the server's build reuses what the CLI's compiled.
  await ensureTemporalBinary();
  const logFile = join(cacheDir(), 'temporal-server-build.log');
  progress(`building Temporal server ${TEMPORAL_SERVER_VERSION} and temporal-sql-tool (first run only, under a minute after the CLI)…`);
  progress(`  build log: ${logFile}`);
  await rm(home, { recursive: true, force: true });
  const staging = join(home, 'gobin');
  await mkdir(staging, { recursive: true });
  await runCommand(
    'go',
    [
      'build',
      '-buildvcs=false',
      '-ldflags=-s -w',
      '-o',
      `${staging}/`,
      ...['cmd/server', 'cmd/tools/sql'].map((cmd) => `${TEMPORAL_SERVER_MODULE}/${cmd}`),
    ],
    { cwd: temporalServerModuleDir, logFile },
  );
  await rename(join(staging, 'server'), tools.server);
  await rename(join(staging, 'sql'), tools.sqlTool);
  await rm(staging, { recursive: true, force: true });
  await writeFile(stamp, wanted);
  return tools;
}

/** Debian's PostgreSQL server; returns the directory of its programs (initdb, postgres). */
export const ensurePostgres = sharedWhileRunning(installPostgresIfMissing);

async function installPostgresIfMissing(): Promise<string> {
  const found = await postgresBinDir();
  if (found) return found;
  progress('installing PostgreSQL (apt-get install postgresql)…');
  await aptInstall('postgresql');
  const installed = await postgresBinDir();
  if (!installed) throw new Error('apt-get installed postgresql, but no /usr/lib/postgresql/<version>/bin/postgres was found');
  return installed;
}

/** The newest /usr/lib/postgresql/<major>/bin that has a server, as Debian lays them out. */
async function postgresBinDir(): Promise<string | undefined> {
  const root = '/usr/lib/postgresql';
  const majors = await readdir(root).catch(() => [] as string[]);
  for (const major of majors.sort((a, b) => Number(b) - Number(a))) {
    const bin = join(root, major, 'bin');
    if ((await isExecutable(join(bin, 'postgres'))) && (await isExecutable(join(bin, 'initdb')))) return bin;
  }
  return undefined;
}

async function ensureGo(): Promise<void> {
  if (await commandExists('go')) return;
  throw new Error('the Go toolchain (>= 1.24) is needed to build temporal and kube-apiserver, but `go` is not on PATH');
}

let aptListsUpdated = false;

async function aptInstall(pkg: string): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // A fresh machine has no package lists; update once per run, not per package.
  if (!aptListsUpdated) {
    await runCommand('apt-get', ['update'], { env });
    aptListsUpdated = true;
  }
  await runCommand('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env });
}
