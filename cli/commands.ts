// The commands of `npx chronoplane`: day-2 operations on managed objects, as Crossplane's CLI
// and annotations offer them. They talk to the API server only (the admin's kubeconfig):
// workflows are named, not called, so no Temporal credentials are needed.
import { parseArgs } from 'node:util';
import { loadKubeConfig } from '#runtime/kube-config';
import { parseGoDuration } from '#runtime/go-duration';
import { Cluster } from './cluster';
import { UsageError } from './object-name';
import { pause, resume } from './pause';
import { reconcile } from './reconcile';
import { trace } from './trace';
import type { OutputFormat } from './render-tree';

const USAGE = `Usage: chronoplane <command> <kind>/<name> [-n namespace (default: the context's, else default)]

Commands:
  trace <kind>/<name> [-o wide|json]    the object, what it uses and what uses it, with
                                        Synced, Ready, why not, and (wide) each workflow
  reconcile <kind>/<name> [--wait] [--timeout 2m]
                                        run a pass now (crossplane.io/reconcile-requested-at)
  pause <kind>/<name>                   stop reconciling it (crossplane.io/paused)
  resume <kind>/<name>                  reconcile it again

Kinds are named as kubectl names them: vpc/main, vpcs/main, or vpc.ec2.aws.chronoplane.io/main.
Environment: KUBECONFIG; TEMPORAL_UI_URL (default http://localhost:8233) and
TEMPORAL_NAMESPACE for the links that trace -o wide prints.
`;

/** Runs one command line and returns what to print; a UsageError says what to fix. */
export async function runCommand(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      namespace: { type: 'string', short: 'n' },
      output: { type: 'string', short: 'o', default: 'default' },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '2m' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, target, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') return USAGE;
  if (target === undefined || extra.length > 0) throw new UsageError(`${command} takes one <kind>/<name>\n\n${USAGE}`);
  const kubeConfig = loadKubeConfig();
  const cluster = new Cluster(kubeConfig);
  // As kubectl: the context's namespace, else default.
  const namespace = values.namespace ?? kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ?? 'default';
  switch (command) {
    case 'trace':
      return trace(cluster, target, namespace, outputFormat(values.output));
    case 'reconcile':
      return reconcile(cluster, target, namespace, { wait: values.wait, timeoutSeconds: timeoutSeconds(values.timeout) });
    case 'pause':
      return pause(cluster, target, namespace);
    case 'resume':
      return resume(cluster, target, namespace);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

function outputFormat(text: string): OutputFormat {
  if (text === 'default' || text === 'wide' || text === 'json') return text;
  throw new UsageError(`-o takes wide or json, not "${text}"`);
}

function timeoutSeconds(text: string): number {
  const parsed = parseGoDuration(text);
  if ('error' in parsed || parsed.seconds <= 0) throw new UsageError(`--timeout: ${'error' in parsed ? parsed.error : 'must be positive'}`);
  return parsed.seconds;
}

/** parseArgs reports unknown options and missing values with an ERR_PARSE_ARGS code. */
export function isUsageMistake(error: unknown): error is Error {
  return error instanceof UsageError || ((error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS') ?? false);
}
