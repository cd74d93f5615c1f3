// `chronoplane trace <kind>/<name> [-n namespace] [-o wide|json]`
import { managedKinds } from '#providers/registry';
import { DEFAULT_TEMPORAL_NAMESPACE, temporalSettingsFromEnv } from '#runtime/temporal-connection';
import type { Cluster } from './cluster';
import { parseObjectName, UsageError } from './object-name';
import { buildTrace } from './trace-graph';
import { renderTrace, type OutputFormat, type TemporalUi } from './render-tree';

const DEFAULT_TEMPORAL_UI = 'http://localhost:8233';

export async function trace(cluster: Cluster, target: string, namespace: string, format: OutputFormat): Promise<string> {
  const { kind, name } = parseObjectName(target, managedKinds);
  const object = await cluster.get(kind, namespace, name);
  if (!object) throw new UsageError(`${kind.api.kind} ${namespace}/${name} not found`);
  const tree = await buildTrace({ kind, object }, cluster, managedKinds);
  return renderTrace(tree, format, temporalUi());
}

/** Where the workflows' pages are: TEMPORAL_UI_URL, and the namespace the workers use. */
function temporalUi(env: NodeJS.ProcessEnv = process.env): TemporalUi {
  let namespace: string;
  try {
    namespace = temporalSettingsFromEnv(env).namespace;
  } catch {
    // Settings a connection would refuse still name the namespace well enough for a link.
    namespace = env.TEMPORAL_NAMESPACE || DEFAULT_TEMPORAL_NAMESPACE;
  }
  return { baseUrl: env.TEMPORAL_UI_URL || DEFAULT_TEMPORAL_UI, namespace };
}
