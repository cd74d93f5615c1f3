// Which changes to an object are worth a reconcile pass. Status writes (most of them our own)
// change only status and resourceVersion; signalling those would make every write cause
// another pass. Spec edits bump generation; annotations, labels, finalizers and deletion do not,
// so they are compared directly (controller-runtime's generation + annotation predicates).
import type { KubernetesObject } from '@kubernetes/client-node';

export function fingerprint(obj: KubernetesObject): string {
  const m = obj.metadata ?? {};
  return JSON.stringify([m.generation, m.annotations ?? {}, m.labels ?? {}, m.finalizers ?? [], m.deletionTimestamp ?? null]);
}
