// `chronoplane reconcile <kind>/<name> [--wait] [--timeout 2m]`: asks for a pass now through
// crossplane.io/reconcile-requested-at, as Crossplane does, and with --wait waits until a pass
// has run for it (status.lastHandledReconcileAt carries the token).
import { setTimeout as delay } from 'node:timers/promises';
import { PAUSED } from '#core/annotations';
import { managedKinds } from '#providers/registry';
import { RECONCILE_REQUESTED_AT } from '#runtime/reconcile-annotations';
import type { Cluster, TracedObject } from './cluster';
import { parseObjectName, UsageError } from './object-name';
import { conditionSummary } from './trace-graph';

/** How often --wait looks at the object: a person waits on it, so often enough to feel prompt. */
const WAIT_POLL_MS = 500;

interface ReconcileOptions {
  wait: boolean;
  timeoutSeconds: number;
}

export async function reconcile(cluster: Cluster, target: string, namespace: string, options: ReconcileOptions): Promise<string> {
  const { kind, name } = parseObjectName(target, managedKinds);
  const label = `${kind.api.kind.toLowerCase()}/${name}`;
  // A timestamp is unique enough and tells a reader when it was asked for.
  const token = new Date().toISOString();
  const requested = await cluster.annotate(kind, namespace, name, { [RECONCILE_REQUESTED_AT]: token });
  if (requested.metadata.annotations?.[PAUSED] === 'true') {
    throw new UsageError(`${label} is paused: the request ${token} is recorded, and runs when it is resumed`);
  }
  if (!options.wait) return `${label} reconcile requested at ${token}\n`;
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  for (;;) {
    const object = await cluster.get(kind, namespace, name);
    if (!object) throw new UsageError(`${label} is gone`);
    if (object.status?.lastHandledReconcileAt === token) return `${label} reconciled (${token}): ${outcome(object)}\n`;
    if (Date.now() > deadline) {
      throw new UsageError(`${label}: no pass has recorded ${token} within ${options.timeoutSeconds}s; is the worker running?`);
    }
    await delay(WAIT_POLL_MS);
  }
}

function outcome(object: TracedObject): string {
  const { synced, ready, status } = conditionSummary(object, true);
  return `Synced=${synced} Ready=${ready}${status ? ` (${status})` : ''}`;
}
