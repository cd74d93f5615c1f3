// `chronoplane pause|resume <kind>/<name>`: Crossplane's crossplane.io/paused annotation.
import { PAUSED } from '#core/annotations';
import { managedKinds } from '#providers/registry';
import type { Cluster } from './cluster';
import { parseObjectName } from './object-name';

export async function pause(cluster: Cluster, target: string, namespace: string): Promise<string> {
  const { kind, name } = parseObjectName(target, managedKinds);
  await cluster.annotate(kind, namespace, name, { [PAUSED]: 'true' });
  return `${kind.api.kind.toLowerCase()}/${name} paused: no pass touches it until it is resumed\n`;
}

export async function resume(cluster: Cluster, target: string, namespace: string): Promise<string> {
  const { kind, name } = parseObjectName(target, managedKinds);
  await cluster.annotate(kind, namespace, name, { [PAUSED]: null });
  return `${kind.api.kind.toLowerCase()}/${name} resumed\n`;
}
