// A private PostgreSQL cluster (Debian's `postgresql`) for a production-shaped Temporal server:
// `initdb` into a directory of its own and one `postgres` process on a port of its own, so it
// never touches a system cluster or another test's. PostgreSQL refuses to run as root; run as
// root (as this machine and CI are), both run as the `postgres` user the Debian package creates.
import { chmod, chown, mkdir, writeFile, rm } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensurePostgres } from './install';
import { isRunning, stopProcess, type ManagedProcess } from './processes';
import { startUntilReady, tcpProbe } from './readiness';
import { runCommand } from './run-command';
import { pathExists } from './pki';

interface PostgresOptions {
  /** Holds data/, socket/, logs/ and run/. Every directory above it must be reachable by `postgres`. */
  dir: string;
  port: number;
  /** The superuser that initdb creates, and its password (scram-sha-256 over TCP). */
  user: string;
  password: string;
  /** Load pg_stat_statements, so that a benchmark can say which statements the time went to. */
  statementStats?: boolean;
}

export interface PostgresServer {
  host: string;
  port: number;
  user: string;
  password: string;
  process: ManagedProcess;
  /** Runs one SQL statement with psql over the local socket as the superuser; rows as lines, fields tab-separated. */
  query(database: string, sql: string): Promise<string[][]>;
  stop(): Promise<void>;
}

const SYSTEM_USER = 'postgres';
const runningAsRoot = () => userInfo().uid === 0;

/** Creates the cluster on first use, then starts it and waits until it accepts connections. */
export async function startPostgres(options: PostgresOptions): Promise<PostgresServer> {
  const bin = await ensurePostgres();
  const dataDir = join(options.dir, 'data');
  const socketDir = join(options.dir, 'socket');
  await mkdir(options.dir, { recursive: true });
  if (!(await pathExists(join(dataDir, 'PG_VERSION')))) await initCluster(bin, dataDir, socketDir, options);
  const spec = {
    name: 'postgres',
    ...asServiceUser(join(bin, 'postgres'), [
      '-D',
      dataDir,
      '-p',
      String(options.port),
      '-k',
      socketDir,
      '-c',
      'listen_addresses=127.0.0.1',
      ...(options.statementStats ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : []),
    ]),
    logFile: join(options.dir, 'logs', 'postgres.log'),
    pidFile: join(options.dir, 'run', 'postgres.pid'),
    detached: false,
  };
  const serverProcess = await startUntilReady(spec, { probe: tcpProbe('127.0.0.1', options.port), timeoutMs: 60_000 });
  return {
    host: '127.0.0.1',
    port: options.port,
    user: options.user,
    password: options.password,
    process: serverProcess,
    query: async (database, sql) => {
      const psql = asServiceUser(join(bin, 'psql'), [
        ...['-h', socketDir, '-p', String(options.port), '-U', options.user, '-d', database],
        ...['--no-psqlrc', '--tuples-only', '--no-align', '--field-separator', '\t', '--set', 'ON_ERROR_STOP=1', '-c', sql],
      ]);
      const { stdout } = await runCommand(psql.command, psql.args);
      return stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\t'));
    },
    stop: () => stopPostgres(bin, dataDir, spec.pidFile),
  };
}

/**
 * pg_ctl's fast shutdown: clients are disconnected, and it returns once the server is down. A
 * SIGTERM to runuser would not do: runuser passes it on, then kills the server two seconds later,
 * in the middle of its shutdown checkpoint if that takes longer.
 */
async function stopPostgres(bin: string, dataDir: string, pidFile: string): Promise<void> {
  const pgCtl = asServiceUser(join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '--mode', 'fast', '--wait', '--timeout', '60']);
  // It fails when the server is not running, which leaves nothing to stop but runuser.
  await runCommand(pgCtl.command, pgCtl.args).catch(() => undefined);
  // runuser ends by itself once the server has; a signal while it does costs two more seconds.
  const deadline = Date.now() + 5_000;
  while ((await isRunning(pidFile)) && Date.now() < deadline) await sleep(50);
  await stopProcess(pidFile);
}

async function initCluster(bin: string, dataDir: string, socketDir: string, options: PostgresOptions): Promise<void> {
  const passwordFile = join(options.dir, 'initdb-password');
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { mode: 0o700 });
  await mkdir(socketDir, { recursive: true });
  await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if (runningAsRoot()) {
    await chmod(options.dir, 0o755);
    const { uid, gid } = await systemUserIds();
    for (const path of [dataDir, socketDir, passwordFile]) await chown(path, uid, gid);
    await runCommand('runuser', ['-u', SYSTEM_USER, '--', 'test', '-x', options.dir]).catch(() => {
      throw new Error(`${options.dir} must be reachable by the user "${SYSTEM_USER}" (every directory above it needs o+x)`);
    });
  }
  try {
    const initdb = asServiceUser(join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      options.user,
      `--pwfile=${passwordFile}`,
      // Only this machine's sockets are trusted; every TCP client, Temporal included, proves the password.
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    await runCommand(initdb.command, initdb.args);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * As root, `runuser` switches to the postgres user, and setpriv's parent-death signal stops the
 * server if runuser is killed outright (a test run's exit hook sends SIGKILL): SIGINT is
 * PostgreSQL's fast shutdown. The pid file then names runuser.
 */
function asServiceUser(command: string, args: string[]): { command: string; args: string[] } {
  if (!runningAsRoot()) return { command, args };
  return { command: 'runuser', args: ['-u', SYSTEM_USER, '--', 'setpriv', '--pdeathsig', 'INT', '--', command, ...args] };
}

async function systemUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all(
    ['-u', '-g'].map(async (flag) => Number((await runCommand('id', [flag, SYSTEM_USER])).stdout.trim())),
  );
  return { uid: uid!, gid: gid! };
}
