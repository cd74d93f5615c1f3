// Runs a short-lived command to completion (openssl, go, apt-get, kubectl, pip).
// Output is captured so a failure can say what went wrong; long builds pass a log
// file instead so their output does not pile up in memory.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the command's stdin (e.g. a manifest for `kubectl apply -f -`). */
  input?: string;
  /** Append stdout and stderr here instead of capturing them. */
  logFile?: string;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

export class CommandFailedError extends Error {
  constructor(
    readonly commandLine: string,
    readonly exitCode: number | null,
    readonly output: string,
  ) {
    super(`\`${commandLine}\` failed (exit ${exitCode ?? 'by signal'})${output ? `:\n${output}` : ''}`);
  }
}

export function runCommand(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const commandLine = [command, ...args].join(' ');
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // Both are pipes (see stdio above); the types cannot tell.
    const childStdout = child.stdout!;
    const childStderr = child.stderr!;
    let stdout = '';
    let stderr = '';
    if (options.logFile) {
      const log = createWriteStream(options.logFile, { flags: 'a' });
      childStdout.pipe(log);
      childStderr.pipe(log);
    } else {
      childStdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      childStderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    }
    child.on('error', (error) => reject(new Error(`could not run \`${commandLine}\`: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) {
        resolveRun({ stdout, stderr });
      } else {
        const output = options.logFile ? `see ${options.logFile}` : (stderr || stdout).trim();
        reject(new CommandFailedError(commandLine, code, output));
      }
    });
    if (options.input !== undefined && child.stdin) {
      // A command that exits without reading all of its input is judged by its
      // exit code, not by the broken pipe.
      child.stdin.on('error', () => {});
      child.stdin.end(options.input);
    }
  });
}

/** True if `command` can be found on PATH. */
export async function commandExists(command: string): Promise<boolean> {
  try {
    await runCommand('sh', ['-c', 'command -v "$1"', 'sh', command]);
    return true;
  } catch {
    return false;
  }
}
