// Namespace labels, which a ClusterProviderConfig's namespaceSelector is checked against at every
// pass: served from the shared watch of Namespaces so a settled resource's pass costs no API read,
// and from a short-lived read until that watch has synced or where it cannot run.
import type { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { TargetKey, TargetWatches } from '#providers/kubernetes/target-watches';
import { orUndefinedOn404 } from './api-errors';

/** How long a Namespace's labels read from the API server (not from the watch) are reused. */
const NAMESPACE_LABELS_TTL_MS = 10_000;

export class NamespaceLabels {
  /** Namespace labels read while the Namespace watch is not synced. */
  private readonly read = new Map<string, { labels: Record<string, string> | undefined; expires: number }>();

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly watches: TargetWatches,
    private readonly core: CoreV1Api,
  ) {}

  /**
   * From the shared watch of Namespaces once it has synced (no API read per pass); until then,
   * or where it cannot run, a read kept for NAMESPACE_LABELS_TTL_MS. A relabelled namespace
   * takes effect at the next pass after the watch sees it. Undefined when it does not exist.
   */
  async get(namespace: string): Promise<Record<string, string> | undefined> {
    const watched = await this.watches.cached(namespaceTarget(namespace), this.kubeConfig);
    if (watched !== undefined) return watched === null ? undefined : (watched.metadata?.labels ?? {});
    const now = Date.now();
    const hit = this.read.get(namespace);
    if (hit && hit.expires > now) return hit.labels;
    const found = await orUndefinedOn404(() => this.core.readNamespace({ name: namespace }));
    const labels = found ? (found.metadata?.labels ?? {}) : undefined;
    this.read.set(namespace, { labels, expires: now + NAMESPACE_LABELS_TTL_MS });
    return labels;
  }
}

/** A Namespace of the control cluster, in TargetWatches' terms (cluster-scoped: namespace ''). */
function namespaceTarget(name: string): TargetKey {
  return { cluster: 'control', apiVersion: 'v1', kind: 'Namespace', namespace: '', name };
}
