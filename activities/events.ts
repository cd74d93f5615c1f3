// Kubernetes Events about a managed resource, as `kubectl describe` shows them.
import type { CoreV1Event } from '@kubernetes/client-node';
import { hostname } from 'node:os';
import { apiVersionOf, type ResourceRef } from '#core/managed-kind';
import { kindFor } from '#providers/registry';
import type { EventNote } from '#contract/write-back';

/** Where the API server keeps events about cluster-scoped objects, as kubectl describe looks for them. */
const CLUSTER_EVENTS_NAMESPACE = 'default';

export function toKubeEvent(ref: ResourceRef, uid: string, note: EventNote, now: Date): CoreV1Event {
  const namespace = ref.namespace || CLUSTER_EVENTS_NAMESPACE;
  return {
    metadata: { name: `${ref.name}.${now.getTime().toString(16)}${Math.random().toString(16).slice(2, 8)}`, namespace },
    involvedObject: {
      apiVersion: apiVersionOf(kindFor(ref.group, ref.kind).api),
      kind: ref.kind,
      name: ref.name,
      namespace: ref.namespace || undefined,
      uid,
    },
    type: note.type,
    reason: note.reason,
    message: note.message,
    source: { component: 'chronoplane' },
    reportingComponent: 'chronoplane',
    reportingInstance: hostname(),
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
}
