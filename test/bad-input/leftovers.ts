// What is left in a cluster after the corpus deleted everything it applied: any object in a
// namespace the corpus owns (other than what Kubernetes puts in every namespace), and any
// cluster-scoped object named after a case. Every listable resource type is looked at, so a
// target kind nobody thought of (a Role, a CronJob) cannot hide.
import { runKubectl } from '../integration/kubectl';

type Kubectl = (args: string[]) => Promise<string>;

/** What every namespace holds from birth, or what only the cluster itself writes. */
const BUILT_IN = new Set(['ConfigMap/kube-root-ca.crt', 'ServiceAccount/default']);
/** Records of what happened, not things that were made. */
const RECORDS = /^events(\.|$)/;

export const localKubectl: Kubectl = (args) => runKubectl(args);

async function resourceTypes(kubectl: Kubectl, namespaced: boolean): Promise<string[]> {
  const out = await kubectl(['api-resources', '--verbs=list', `--namespaced=${namespaced}`, '-o', 'name']);
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter((name) => name && !RECORDS.test(name));
}

interface Listed {
  kind: string;
  metadata: { name: string; namespace?: string };
}

async function listed(kubectl: Kubectl, args: string[]): Promise<Listed[]> {
  return ((JSON.parse(await kubectl([...args, '-o', 'json'])) as { items?: Listed[] }).items ?? []).filter(
    (item) => !BUILT_IN.has(`${item.kind}/${item.metadata.name}`),
  );
}

/** `Kind/name` of everything in `namespace`, besides its built-in ConfigMap and ServiceAccount. */
export async function namespaceContents(kubectl: Kubectl, namespace: string): Promise<string[]> {
  const types = await resourceTypes(kubectl, true);
  return (await listed(kubectl, ['get', types.join(','), '-n', namespace])).map((item) => `${item.kind}/${item.metadata.name}`);
}

/** `Kind/name` of every cluster-scoped object whose name starts with one of `prefixes`. */
export async function clusterScopedNamed(kubectl: Kubectl, prefixes: readonly string[]): Promise<string[]> {
  const types = await resourceTypes(kubectl, false);
  return (await listed(kubectl, ['get', types.join(',')]))
    .filter((item) => prefixes.some((prefix) => item.metadata.name.startsWith(prefix)))
    .map((item) => `${item.kind}/${item.metadata.name}`);
}
