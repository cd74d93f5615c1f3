// The network applied the careful way: one file at a time in dependency order, each only once
// everything before it is Ready, as someone would without a control plane that orders for them.
// Each object's time from its own `kubectl apply` to Ready is its create latency through the
// whole path a user waits on (kubectl, the watcher, its workflow, EC2, the status write). Summed
// along the heaviest chain, that is the time to bring the chain up step by step with no waiting
// between steps. Applying the whole directory at once costs more than that by its ordering (the
// wake-ups, where a requeue-based controller waits seconds to a minute per edge) and by every
// object's work competing for the same cores, which an object applied alone does not meet.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchStack } from './chronoplane-stack';
import { dependencyOrder, heaviestChain, type NetworkGraph } from './network-graph';
import { watchObjects } from './watch-objects';

export interface OneAtATime {
  /** From each object's own `kubectl apply` to seen Ready, by Kind/name. */
  applyToReadySeconds: Record<string, number>;
  /** The heaviest chain by those latencies, and their sum. */
  chain: string[];
  chainSeconds: number;
  /** From the first apply to the last object Ready, every object one after another. */
  totalSeconds: number;
  deleteToGoneSeconds: number;
}

export async function applyOneAtATime(
  bench: BenchStack,
  graph: NetworkGraph,
  dir: string,
  namespace: string,
  timeoutMs: number,
): Promise<OneAtATime> {
  const ordered = dependencyOrder(graph);
  const files = ordered.map((o) => o.file);
  const shared = files.filter((file, i) => files.indexOf(file) !== i);
  if (shared.length > 0) throw new Error(`one object per file, to time each apply alone; ${shared.join(', ')} declare more`);
  await bench.kubectl(['create', 'namespace', namespace]);
  // What the managed objects read but nobody manages (the Instance's user-data Secret) is there first.
  const unmanaged = (await readdir(dir)).filter((file) => /\.ya?ml$/.test(file) && !files.includes(file));
  for (const file of unmanaged) await bench.kubectl(['apply', '-n', namespace, '-f', join(dir, file)]);

  const apis = [...new Map(graph.objects.map((o) => [o.api.kind, o.api])).values()];
  const objects = await watchObjects(bench.servers.kubeconfigPath, apis, { namespace });
  try {
    const applyToReadySeconds: Record<string, number> = {};
    const firstApplyAt = Date.now();
    for (const { key, file } of ordered) {
      const appliedAt = Date.now();
      await bench.kubectl(['apply', '-n', namespace, '-f', join(dir, file)]);
      await objects
        .waitFor(() => objects.readyAt.has(key), timeoutMs)
        .catch((error: Error) => {
          throw new Error(`${error.message}: ${key} applied alone is not Ready. ${objects.describe()}`);
        });
      applyToReadySeconds[key] = (objects.readyAt.get(key)! - appliedAt) / 1000;
    }
    const totalSeconds = (Date.now() - firstApplyAt) / 1000;

    const deleteStart = Date.now();
    await bench.kubectl(['delete', '-n', namespace, '-f', dir, '--wait=false']);
    await objects
      .waitFor(() => ordered.every(({ key }) => !objects.current.has(key)), timeoutMs)
      .catch((error: Error) => {
        throw new Error(`${error.message}: not all gone. ${objects.describe()}`);
      });
    const { path, total } = heaviestChain(graph, (key) => applyToReadySeconds[key] ?? 0);
    return { applyToReadySeconds, chain: path, chainSeconds: total, totalSeconds, deleteToGoneSeconds: (Date.now() - deleteStart) / 1000 };
  } finally {
    await objects.stop();
  }
}
