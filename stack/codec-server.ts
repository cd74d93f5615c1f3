// The codec endpoint of the dev stack (worker/codec-server.ts): a detached process beside the
// worker, with the same key, on 127.0.0.1 only, so the Temporal UI (started with
// --ui-codec-endpoint pointing here) shows decoded payloads to whoever uses this machine.
import { join } from 'node:path';
import { repoRoot } from './paths';
import { ensureProcess, isRunning, stopProcess, type ManagedProcess } from './processes';
import { tcpProbe, waitUntilReady } from './readiness';

export const DEV_CODEC_PORT = 8234;

interface CodecServerOptions {
  /** Holds logs/ and run/. */
  dir: string;
  port: number;
  /** The payload key file the worker uses. */
  keyFile: string;
  /** The Temporal UI's origins, which may call it from the browser. */
  allowedOrigins: readonly string[];
}

export function codecServerUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

export function codecServerLogFile(dir: string): string {
  return join(dir, 'logs', 'codec-server.log');
}

function pidFile(dir: string): string {
  return join(dir, 'run', 'codec-server.pid');
}

export async function startCodecServer(options: CodecServerOptions): Promise<ManagedProcess> {
  const spec = {
    name: 'codec-server',
    command: process.execPath,
    args: ['--import', 'tsx', join(repoRoot, 'worker', 'codec-server-main.ts')],
    cwd: repoRoot,
    env: {
      ...process.env,
      CHRONOPLANE_PAYLOAD_KEY_FILE: options.keyFile,
      CHRONOPLANE_CODEC_HOST: '127.0.0.1',
      CHRONOPLANE_CODEC_PORT: String(options.port),
      CHRONOPLANE_CODEC_ALLOWED_ORIGINS: options.allowedOrigins.join(','),
    },
    logFile: codecServerLogFile(options.dir),
    pidFile: pidFile(options.dir),
    detached: true,
  };
  const started = await ensureProcess(spec);
  await waitUntilReady({
    name: 'codec server',
    probe: tcpProbe('127.0.0.1', options.port),
    logFile: spec.logFile,
    pidFile: spec.pidFile,
    timeoutMs: 30_000,
  });
  return started;
}

export async function stopCodecServer(dir: string): Promise<void> {
  await stopProcess(pidFile(dir));
}

export async function codecServerRunning(dir: string): Promise<boolean> {
  return isRunning(pidFile(dir));
}
