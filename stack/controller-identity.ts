// The identity the Helm chart gives Chronoplane in a cluster, installed into a local cluster so
// that a worker and watcher can run as it: the chart's ServiceAccount, its ClusterRole and
// leader-election Role with their bindings (rendered by `helm template` from
// deploy/helm/chronoplane, exactly what `helm install` would create), and a kubeconfig holding a
// token of that ServiceAccount (`kubectl create token`). A process given that kubeconfig has the
// chart's rights and no others, so a verb the chart forgot fails the request that needs it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments, parse, stringify } from 'yaml';
import { ensureHelm } from './helm';
import { kubectl } from './kubectl';
import { repoRoot } from './paths';
import { runCommand } from './run-command';

const CHART_DIR = join(repoRoot, 'deploy', 'helm', 'chronoplane');
/** Where the chart is installed, as docs/install.md's `helm install` does. */
export const CONTROLLER_NAMESPACE = 'chronoplane-system';
const CONTROLLER_RELEASE = 'chronoplane';
/** Every ServiceAccount of CONTROLLER_NAMESPACE: an audit policy can name it before the chart is rendered. */
export const CONTROLLER_USER_GROUP = `system:serviceaccounts:${CONTROLLER_NAMESPACE}`;

const RBAC_KINDS = new Set(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** `helm template` of the chart, as objects; `set` are `--set` pairs. */
async function renderChart(set: Record<string, string> = {}): Promise<ManifestObject[]> {
  const helm = await ensureHelm();
  const args = ['template', CONTROLLER_RELEASE, CHART_DIR, '--namespace', CONTROLLER_NAMESPACE];
  for (const [key, value] of Object.entries(set)) args.push('--set', `${key}=${value}`);
  const { stdout } = await runCommand(helm, args);
  return parseAllDocuments(stdout)
    .map((document) => document.toJSON() as ManifestObject | null)
    .filter((object): object is ManifestObject => object !== null && typeof object === 'object' && 'kind' in object);
}

export interface ControllerIdentity {
  /** A kubeconfig that authenticates as the chart's ServiceAccount. */
  kubeconfigPath: string;
  /** `system:serviceaccount:<namespace>:<name>`, as the API server's audit log names it. */
  user: string;
  /** The RBAC objects the chart renders, as applied. */
  rbac: ManifestObject[];
}

/**
 * Applies the chart's ServiceAccount and RBAC to the cluster of `adminKubeconfig` and writes a
 * kubeconfig for that ServiceAccount into `dir`. The token lasts a day: longer than any test run.
 */
export async function installControllerIdentity(adminKubeconfig: string, dir: string): Promise<ControllerIdentity> {
  const rbac = (await renderChart()).filter((object) => RBAC_KINDS.has(object.kind));
  const serviceAccounts = rbac.filter((object) => object.kind === 'ServiceAccount');
  if (serviceAccounts.length !== 1) throw new Error(`the chart renders ${serviceAccounts.length} ServiceAccounts; expected one`);
  const serviceAccount = serviceAccounts[0]!.metadata.name;
  await kubectl(adminKubeconfig, ['create', 'namespace', CONTROLLER_NAMESPACE]).catch((error: unknown) => {
    if (!String(error).includes('AlreadyExists')) throw error;
  });
  await kubectl(adminKubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: rbac }));
  const { stdout: token } = await kubectl(adminKubeconfig, [
    'create',
    'token',
    serviceAccount,
    '--namespace',
    CONTROLLER_NAMESPACE,
    '--duration=24h',
  ]);
  const admin = parse(await readFile(adminKubeconfig, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  };
  const cluster = admin.clusters[0]!.cluster;
  const name = `${CONTROLLER_RELEASE}-controller`;
  await mkdir(dir, { recursive: true });
  const kubeconfigPath = join(dir, 'controller.kubeconfig');
  await writeFile(
    kubeconfigPath,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name, cluster }],
      users: [{ name, user: { token: token.trim() } }],
      contexts: [{ name, context: { cluster: name, user: name, namespace: CONTROLLER_NAMESPACE } }],
      'current-context': name,
    }),
    { mode: 0o600 },
  );
  return { kubeconfigPath, user: `system:serviceaccount:${CONTROLLER_NAMESPACE}:${serviceAccount}`, rbac };
}
