// Temporal's dev server (the CLI's `server start-dev`): the whole Temporal service
// in one process on SQLite. With a db file under `dir`, workflow history and
// namespaces survive restarts.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureTemporalBinary } from './install';
import { isRunning, stopProcess, type ManagedProcess } from './processes';
import { httpProbe, startUntilReady, tcpProbe, waitUntilReady } from './readiness';
import { SEARCH_ATTRIBUTE_FLAGS } from '#contract/search-attributes';
import { dynamicConfigFlags } from './temporal-dynamic-config';

const TEMPORAL_NAMESPACE = 'default';

export interface TemporalOptions {
  /** Holds temporal.db, logs/ and run/. */
  dir: string;
  /** Frontend gRPC port (what clients and workers dial). */
  port: number;
  uiPort: number;
  /** true: outlive this process (npm run up); false: die with it (tests). */
  detached: boolean;
  /** A remote codec the web UI decodes payloads with (stack/codec-server.ts). */
  codecEndpoint?: string;
}

interface TemporalServer {
  /** host:port for Connection.connect / NativeConnection.connect. */
  address: string;
  namespace: string;
  uiUrl: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export function temporalLogFile(dir: string): string {
  return join(dir, 'logs', 'temporal.log');
}

function pidFile(dir: string): string {
  return join(dir, 'run', 'temporal.pid');
}

/** Where the server in `dir` keeps its pid: to signal it from outside, as a chaos run does. */
export const temporalPidFile = pidFile;

export async function startTemporal(options: TemporalOptions): Promise<TemporalServer> {
  const binary = await ensureTemporalBinary();
  await mkdir(options.dir, { recursive: true });
  const spec = {
    name: 'temporal',
    command: binary,
    args: temporalArgs(options),
    logFile: temporalLogFile(options.dir),
    pidFile: pidFile(options.dir),
    detached: options.detached,
  };
  const serverProcess = await startUntilReady(spec, {
    name: 'temporal frontend',
    probe: tcpProbe('127.0.0.1', options.port),
    timeoutMs: 60_000,
  });
  const uiUrl = `http://127.0.0.1:${options.uiPort}`;
  try {
    await waitUntilReady({
      name: 'temporal UI',
      probe: httpProbe(uiUrl, { isReady: (status) => status > 0 && status < 500 }),
      logFile: spec.logFile,
      pidFile: spec.pidFile,
      timeoutMs: 30_000,
    });
  } catch (error) {
    if (!options.detached) await serverProcess.stop();
    throw error;
  }
  return {
    address: `127.0.0.1:${options.port}`,
    namespace: TEMPORAL_NAMESPACE,
    uiUrl,
    process: serverProcess,
    stop: () => stopTemporal(options.dir),
  };
}

export async function stopTemporal(dir: string): Promise<void> {
  await stopProcess(pidFile(dir));
}

export async function temporalRunning(dir: string): Promise<boolean> {
  return isRunning(pidFile(dir));
}

function temporalArgs(options: TemporalOptions): string[] {
  return [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--ui-port',
    String(options.uiPort),
    '--db-filename',
    join(options.dir, 'temporal.db'),
    // WAL + NORMAL: durable across process exits, far fewer fsyncs than the default.
    '--sqlite-pragma',
    'journal_mode=WAL',
    '--sqlite-pragma',
    'synchronous=NORMAL',
    '--namespace',
    TEMPORAL_NAMESPACE,
    '--log-level',
    'warn',
    ...dynamicConfigFlags(),
    // Registered at every start; an existing db that already has them is fine.
    ...SEARCH_ATTRIBUTE_FLAGS.flatMap((flag) => ['--search-attribute', flag]),
    ...(options.codecEndpoint ? ['--ui-codec-endpoint', options.codecEndpoint] : []),
  ];
}
