// Kubernetes Events about a managed resource, as `kubectl describe` shows them.
import type { CoreV1Event } from '@kubernetes/client-node';
import { hostname } from 'node:os';
import { apiVersionOf, type ResourceRef } from '../runtime/managed-kind';
import { kindFor } from '../providers/registry';

export interface EventNote {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export function toKubeEvent(ref: ResourceRef, uid: string, note: EventNote, now: Date): CoreV1Event {
  return {
    metadata: { name: `${ref.name}.${now.getTime().toString(16)}${Math.random().toString(16).slice(2, 8)}`, namespace: ref.namespace },
    involvedObject: {
      apiVersion: apiVersionOf(kindFor(ref.group, ref.kind).api),
      kind: ref.kind,
      name: ref.name,
      namespace: ref.namespace,
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
