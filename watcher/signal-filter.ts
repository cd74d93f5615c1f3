// Which watch events are worth a signal to the object's own workflow.
// - Status writes (most of them our own) change only status and resourceVersion; signalling them
//   would make every write cause another pass (see fingerprint.ts).
// - The deletion of an object that carried our finalizer: only its own workflow takes that
//   finalizer off, in the final pass that ends the workflow, so the workflow already knows.
//   Signalling it then races its completion: Temporal refuses to complete a workflow with an
//   unhandled signal, and the worker replays the whole task, local activities included.
import type { KubernetesObject } from '@kubernetes/client-node';
import { FINALIZER } from '#core/annotations';
import type { ResourceEvent } from '#contract/reconcile-workflow';
import { fingerprint } from './fingerprint';

interface LastSeen {
  print: string;
  finalized: boolean;
}

export class SignalFilter {
  /** By uid: a successor under the same name is a different object. */
  private readonly lastSeen = new Map<string, LastSeen>();

  /** Records the event and says whether the object's workflow should hear of it. */
  admit(obj: KubernetesObject, type: ResourceEvent['type']): boolean {
    const uid = obj.metadata?.uid;
    if (!uid) return false;
    const before = this.lastSeen.get(uid);
    if (type === 'DELETED') {
      this.lastSeen.delete(uid);
      // Without our finalizer it vanished behind the workflow's back (deleted before the first
      // pass, or the finalizer was stripped by hand): tell the workflow, so it ends now. When the
      // finalizer was stripped in the very update that deleted it, the workflow finds the object
      // gone at its next pass instead.
      return !before?.finalized;
    }
    const print = fingerprint(obj);
    this.lastSeen.set(uid, { print, finalized: obj.metadata?.finalizers?.includes(FINALIZER) ?? false });
    return !(type === 'MODIFIED' && before?.print === print);
  }
}
