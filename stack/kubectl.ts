// kubectl against one cluster, by kubeconfig path (never the user's current context).
import { runCommand, type RunResult } from './run-command';

export function kubectl(kubeconfigPath: string, args: string[], input?: string): Promise<RunResult> {
  return runCommand('kubectl', ['--kubeconfig', kubeconfigPath, ...args], { input });
}
