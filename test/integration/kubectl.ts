// Tests drive the API server the way users do: with the real kubectl.
import { execFile } from 'node:child_process';
import { inject } from 'vitest';

export function runKubectl(args: string[], stdin?: string, kubeconfig = inject('kubeconfigPath')): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`kubectl ${args.join(' ')}: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}
