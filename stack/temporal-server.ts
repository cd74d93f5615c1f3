// Temporal as operators run it, for tests that must not lean on the dev server: Temporal's own
// server binary (all four services in one process) on PostgreSQL for persistence and
// visibility, its schemas applied by temporal-sql-tool, mutual TLS on the frontend, the
// `default` namespace and Chronoplane's search attributes registered with the temporal CLI, as
// Temporal's docs tell an operator to. Everything else (internode traffic, PostgreSQL) stays on
// 127.0.0.1 in plain text.
import { Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SEARCH_ATTRIBUTE_FLAGS } from '#contract/search-attributes';
import { dynamicConfigFile } from './temporal-dynamic-config';
import { ensureTemporalBinary, ensureTemporalServer, TEMPORAL_SERVER_VERSION, type TemporalServerTools } from './install';
import { freePort } from './ports';
import { startPostgres, type PostgresServer } from './postgres';
import { stopProcess, type ManagedProcess } from './processes';
import { startUntilReady, type Probe } from './readiness';
import { runCommand } from './run-command';
import { createCa, ensureLeaf, pathExists, type LeafProfile } from './pki';

interface TemporalServerOptions {
  /** Holds pki/, config/, logs/ and run/. */
  dir: string;
  postgres: PostgresServer;
  namespace?: string;
}

/** PEM files for a client of the frontend: the CA that signed the server, and a client certificate. */
export interface TemporalClientTls {
  caFile: string;
  certFile: string;
  keyFile: string;
  /** The name in the frontend's certificate. */
  serverName: string;
}

export interface TemporalServer {
  /** host:port of the TLS frontend. */
  address: string;
  namespace: string;
  version: string;
  tls: TemporalClientTls;
  /** Temporal's environment configuration for this server: what a worker, watcher or the CLI reads. */
  clientEnv: Record<string, string>;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** Temporal's server on a PostgreSQL of its own: the setup of docs/production-temporal.md. */
export interface TemporalOnPostgres {
  postgres: PostgresServer;
  server: TemporalServer;
  /** Temporal before its database, so it never sees PostgreSQL go away under it. */
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL in `dir`/postgres and Temporal's server on it in `dir`/temporal-server;
 * `statementStats` loads pg_stat_statements (stack/postgres.ts).
 */
export async function startTemporalOnPostgres(dir: string, options: { statementStats?: boolean } = {}): Promise<TemporalOnPostgres> {
  // PostgreSQL runs as its own user, which must reach its directory inside this one.
  await chmod(dir, 0o755);
  const postgres = await startPostgres({
    dir: join(dir, 'postgres'),
    port: await freePort(),
    user: 'temporal',
    password: randomBytes(16).toString('hex'),
    ...(options.statementStats ? { statementStats: true } : {}),
  });
  try {
    const server = await startTemporalServer({ dir: join(dir, 'temporal-server'), postgres });
    return {
      postgres,
      server,
      stop: async () => {
        await server.stop();
        await postgres.stop();
      },
    };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}

const DATABASES = { temporal: 'temporal', visibility: 'temporal_visibility' } as const;
const FRONTEND_NAME = 'temporal-frontend';
const CONFIG_ENV = 'production';

async function startTemporalServer(options: TemporalServerOptions): Promise<TemporalServer> {
  const namespace = options.namespace ?? 'default';
  const [tools, cli] = await Promise.all([ensureTemporalServer(), ensureTemporalBinary()]);
  await mkdir(options.dir, { recursive: true });
  const pki = await createTemporalPki(join(options.dir, 'pki'));
  await setUpSchemas(tools, options.postgres, join(options.dir, 'logs', 'schema.log'));

  const ports = await distinctFreePorts(9);
  // The server reads <root>/<config dir>/<env>.yaml: here <dir>/config/production.yaml.
  const configDir = join(options.dir, 'config');
  await mkdir(configDir, { recursive: true });
  const dynamicConfig = join(configDir, 'dynamic-config.yaml');
  await writeFile(dynamicConfig, stringify(dynamicConfigFile()));
  await writeFile(join(configDir, `${CONFIG_ENV}.yaml`), stringify(serverConfig(options.postgres, pki, ports, dynamicConfig)), {
    mode: 0o600,
  });
  const address = `127.0.0.1:${ports.frontend}`;
  const tls: TemporalClientTls = {
    caFile: pki.caCert,
    certFile: pki.clientCert,
    keyFile: pki.clientKey,
    serverName: FRONTEND_NAME,
  };
  const spec = {
    name: 'temporal-server',
    command: tools.server,
    args: ['--root', options.dir, '--config', 'config', '--env', CONFIG_ENV, '--allow-no-auth', 'start'],
    logFile: join(options.dir, 'logs', 'temporal-server.log'),
    pidFile: join(options.dir, 'run', 'temporal-server.pid'),
    detached: false,
  };
  // The server binds its frontend before its other services have joined the ring; a health
  // check over TLS answers SERVING only once the frontend can serve.
  const serverProcess = await startUntilReady(spec, { probe: frontendHealthProbe(address, tls), timeoutMs: 180_000 });
  const stop = () => stopProcess(spec.pidFile);
  try {
    const operator = temporalCli(cli, address, tls);
    // Both are idempotent, so a server started again on the same database comes up as before.
    await operator(['operator', 'namespace', 'create', '--namespace', namespace, '--retention', '72h']).catch(unlessAlreadyDone);
    await operator([
      'operator',
      'search-attribute',
      'create',
      '--namespace',
      namespace,
      ...SEARCH_ATTRIBUTE_FLAGS.flatMap((flag) => {
        const [name, type] = flag.split('=');
        return ['--name', name!, '--type', type!];
      }),
    ]).catch(unlessAlreadyDone);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    address,
    namespace,
    version: TEMPORAL_SERVER_VERSION,
    tls,
    clientEnv: {
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: tls.caFile,
      TEMPORAL_TLS_CLIENT_CERT_PATH: tls.certFile,
      TEMPORAL_TLS_CLIENT_KEY_PATH: tls.keyFile,
      TEMPORAL_TLS_SERVER_NAME: tls.serverName,
    },
    process: serverProcess,
    stop,
  };
}

interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

function serverConfig(postgres: PostgresServer, pki: TemporalPki, ports: ServerPorts, dynamicConfig: string): unknown {
  const sqlStore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${postgres.host}:${postgres.port}`,
      connectProtocol: 'tcp',
      user: postgres.user,
      password: postgres.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort: number, membershipPort: number, httpPort?: number) => ({
    rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...(httpPort ? { httpPort } : {}) },
  });
  const frontendClient = { serverName: FRONTEND_NAME, rootCaFiles: [pki.caCert] };
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      // Shards are fixed for a cluster's life; four suit one small machine, production sizes it
      // for its peak (Temporal suggests 512 or more for a large cluster).
      numHistoryShards: 4,
      datastores: {
        'postgres-default': sqlStore(DATABASES.temporal, 20),
        'postgres-visibility': sqlStore(DATABASES.visibility, 10),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      tls: {
        // Every client of the frontend, Chronoplane's workers included, shows a certificate
        // signed by this CA.
        frontend: {
          server: {
            certFile: pki.frontendCert,
            keyFile: pki.frontendKey,
            requireClientAuth: true,
            clientCaFiles: [pki.caCert],
          },
          client: frontendClient,
        },
        // Temporal's own system workers (namespace deletion, scavengers) are frontend clients too.
        systemWorker: { certFile: pki.systemWorkerCert, keyFile: pki.systemWorkerKey, client: frontendClient },
      },
    },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, ports.frontendHttp),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${ports.frontend}` },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: dynamicConfig, pollInterval: '60s' },
  };
}

/**
 * Creates both databases and brings their schemas to the release's version, the way Temporal's
 * docs and its auto-setup script do: create-database, setup-schema at 0.0, then update-schema
 * through the versioned steps (the ones the tool embeds, schema/postgresql/v12/… of the same
 * release). A marker file makes a restart skip it.
 */
async function setUpSchemas(tools: TemporalServerTools, postgres: PostgresServer, logFile: string): Promise<void> {
  await mkdir(join(logFile, '..'), { recursive: true });
  for (const [store, database] of Object.entries(DATABASES)) {
    const marker = join(logFile, '..', `schema-${database}.done`);
    if (await pathExists(marker)) continue;
    const sqlTool = (args: string[]) =>
      runCommand(
        tools.sqlTool,
        [
          '--plugin',
          'postgres12',
          '--endpoint',
          postgres.host,
          '--port',
          String(postgres.port),
          '--user',
          postgres.user,
          '--database',
          database,
          ...args,
        ],
        // The password goes in the environment, not the command line another user can read.
        { env: { ...process.env, SQL_PASSWORD: postgres.password }, logFile },
      );
    await sqlTool(['create-database']);
    await sqlTool(['setup-schema', '--version', '0.0']);
    await sqlTool(['update-schema', '--schema-name', `postgresql/v12/${store}`]);
    await writeFile(marker, TEMPORAL_SERVER_VERSION);
  }
}

// Its output is kept in memory: a failure's message is what tells "already exists" apart.
function temporalCli(cli: string, address: string, tls: TemporalClientTls) {
  return (args: string[]) =>
    runCommand(cli, [
      ...args,
      '--address',
      address,
      '--tls-ca-path',
      tls.caFile,
      '--tls-cert-path',
      tls.certFile,
      '--tls-key-path',
      tls.keyFile,
      '--tls-server-name',
      tls.serverName,
    ]);
}

function unlessAlreadyDone(error: unknown): void {
  if (!/already (exists|registered)/i.test(String(error))) throw error;
}

function frontendHealthProbe(address: string, tls: TemporalClientTls): Probe {
  return async () => {
    const connection = await Connection.connect({
      address,
      connectTimeout: 2_000,
      tls: {
        serverNameOverride: tls.serverName,
        serverRootCACertificate: await readFile(tls.caFile),
        clientCertPair: { crt: await readFile(tls.certFile), key: await readFile(tls.keyFile) },
      },
    });
    try {
      const health = await connection.healthService.check({ service: 'temporal.api.workflowservice.v1.WorkflowService' });
      return health.status === 1; // SERVING
    } finally {
      await connection.close();
    }
  };
}

interface TemporalPki {
  caCert: string;
  caKey: string;
  frontendCert: string;
  frontendKey: string;
  clientCert: string;
  clientKey: string;
  systemWorkerCert: string;
  systemWorkerKey: string;
}

/** A CA of its own, the frontend's serving certificate, and client certificates signed by the CA. */
async function createTemporalPki(dir: string): Promise<TemporalPki> {
  const file = (name: string) => join(dir, name);
  const pki: TemporalPki = {
    caCert: file('ca.crt'),
    caKey: file('ca.key'),
    frontendCert: file('frontend.crt'),
    frontendKey: file('frontend.key'),
    clientCert: file('client.crt'),
    clientKey: file('client.key'),
    systemWorkerCert: file('system-worker.crt'),
    systemWorkerKey: file('system-worker.key'),
  };
  if (await pathExists(pki.systemWorkerCert)) return pki;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await createCa(pki, '/CN=temporal-test-ca');
  const leaf = (subject: string, extensions: string[]): LeafProfile => ({
    subject,
    extensions: ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', ...extensions],
  });
  await ensureLeaf(
    pki,
    pki.frontendCert,
    pki.frontendKey,
    leaf(`/CN=${FRONTEND_NAME}`, [
      'extendedKeyUsage=serverAuth,clientAuth',
      `subjectAltName=DNS:${FRONTEND_NAME},DNS:localhost,IP:127.0.0.1`,
    ]),
  );
  await ensureLeaf(pki, pki.clientCert, pki.clientKey, leaf('/CN=chronoplane', ['extendedKeyUsage=clientAuth']));
  await ensureLeaf(pki, pki.systemWorkerCert, pki.systemWorkerKey, leaf('/CN=temporal-system-worker', ['extendedKeyUsage=clientAuth']));
  return pki;
}

/**
 * Free ports below 32768: Temporal's SQL schema keeps a node's membership port in a smallint
 * (cluster_membership.rpc_port), so a port from the OS's ephemeral range (32768 and up here)
 * stops every service at start with "out of range for type smallint".
 */
async function distinctFreePorts(count: number): Promise<ServerPorts> {
  const ports = new Set<number>();
  while (ports.size < count) {
    const port = LOW_PORTS.first + Math.floor(Math.random() * (LOW_PORTS.last - LOW_PORTS.first));
    if (!ports.has(port) && (await canListen(port))) ports.add(port);
  }
  const [frontend, frontendHttp, frontendMembership, history, historyMembership, matching, matchingMembership, worker, workerMembership] = [
    ...ports,
  ] as [number, number, number, number, number, number, number, number, number];
  return { frontend, frontendHttp, frontendMembership, history, historyMembership, matching, matchingMembership, worker, workerMembership };
}

const LOW_PORTS = { first: 20_000, last: 32_767 };

function canListen(port: number): Promise<boolean> {
  return new Promise((resolveListen) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolveListen(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveListen(true)));
  });
}
