// Wake-ups from a kind's own watch of its external system (ConnectContext.wake), sent as the
// watcher sends its wake-ups: a resourceEvent signal with `wake`, coalesced per resource by
// the Signaler, so a burst of changes to one target becomes at most two signals.
import type { ManagedResource } from '#core/managed-resource';
import { groupOf } from '#runtime/references/dependencies';
import type { Signaler } from './signaler';

export function wakeBySignal(signaler: Pick<Signaler, 'enqueue'>): (mr: ManagedResource) => void {
  return (mr) =>
    signaler.enqueue({
      ref: { group: groupOf(mr.apiVersion), kind: mr.kind, namespace: mr.metadata.namespace ?? '', name: mr.metadata.name },
      event: {
        type: 'MODIFIED',
        uid: mr.metadata.uid,
        generation: mr.metadata.generation,
        resourceVersion: mr.metadata.resourceVersion,
        wake: true,
      },
      receivedAt: Date.now(),
    });
}
