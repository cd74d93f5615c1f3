// Waiting until a freshly started server actually answers. A server that dies or
// never answers is reported with the tail of its log, which is nearly always
// where the reason is.
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureProcess, runningPidFromFile, type ManagedProcess, type ProcessSpec } from './processes';

/** Resolves true when the server is ready; false or a rejection mean "not yet". */
export type Probe = () => Promise<boolean>;

export function tcpProbe(host: string, port: number): Probe {
  return () =>
    new Promise((resolveProbe) => {
      const socket = connect({ host, port });
      socket.setTimeout(2_000);
      socket.once('connect', () => {
        socket.destroy();
        resolveProbe(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolveProbe(false);
      });
      socket.once('error', () => resolveProbe(false));
    });
}

/** PEM file paths: the CA to trust, and the client certificate to present. */
interface TlsClientFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Ready when GET `url` answers with a status accepted by `isReady` (default: 200). */
export function httpProbe(url: string, options: { tls?: TlsClientFiles; isReady?: (status: number) => boolean } = {}): Probe {
  const isReady = options.isReady ?? ((status: number) => status === 200);
  return async () => {
    const tls = options.tls && {
      ca: await readFile(options.tls.caFile),
      cert: await readFile(options.tls.certFile),
      key: await readFile(options.tls.keyFile),
    };
    return new Promise((resolveProbe) => {
      const send = url.startsWith('https:') ? httpsRequest : httpRequest;
      const request = send(url, { method: 'GET', timeout: 2_000, ...tls }, (response) => {
        response.resume();
        resolveProbe(isReady(response.statusCode ?? 0));
      });
      request.once('timeout', () => request.destroy());
      request.once('error', () => resolveProbe(false));
      request.end();
    });
  };
}

interface WaitOptions {
  name: string;
  probe: Probe;
  /** Where to look for the reason when it does not come up. */
  logFile: string;
  /** If given, give up as soon as this process is gone instead of waiting out the timeout. */
  pidFile?: string;
  timeoutMs?: number;
}

export async function waitUntilReady(options: WaitOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await options.probe().catch(() => false)) return;
    if (options.pidFile && (await runningPidFromFile(options.pidFile)) === undefined) {
      throw new ExitedBeforeReadyError(
        `${options.name} exited before it was ready. Last lines of ${options.logFile}:\n${await logTail(options.logFile)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${options.name} was not ready after ${timeoutMs / 1000}s. Last lines of ${options.logFile}:\n${await logTail(options.logFile)}`,
      );
    }
    await sleep(250);
  }
}

/** The server's process was gone before it answered (as opposed to: it never answered in time). */
export class ExitedBeforeReadyError extends Error {}

/**
 * Starts `spec` unless it already runs, and waits until it is ready. A server that exits before
 * it answers is started again, up to `attempts` starts in all: on a loaded machine one start can
 * lose a race (a port held for a moment by a process on its way out, a kill), and one lost race
 * should not fail a whole test run. A server that never answers is not started again; its log
 * keeps every attempt. When it fails, a test's server is stopped and a detached one left. Because `ensureProcess` leaves a live process alone, a retry never
 * starts a second copy of a server that was alive after all.
 */
export async function startUntilReady(
  spec: ProcessSpec,
  wait: { probe: Probe; timeoutMs?: number; name?: string },
  attempts = 3,
): Promise<ManagedProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await ensureProcess(spec);
    try {
      await waitUntilReady({
        name: wait.name ?? spec.name,
        probe: wait.probe,
        timeoutMs: wait.timeoutMs,
        logFile: spec.logFile,
        pidFile: spec.pidFile,
      });
      return started;
    } catch (error) {
      if (error instanceof ExitedBeforeReadyError && attempt < attempts) continue;
      // A detached server (npm run up) stays, so that `status` and its log can be inspected.
      if (!spec.detached) await started.stop();
      throw error;
    }
  }
}

export async function logTail(logFile: string, lines = 30): Promise<string> {
  try {
    const content = await readFile(logFile, 'utf8');
    return content.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
