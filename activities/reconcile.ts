// The reconcile workflow's activities: every read and write of the managed resource and of the
// external resource happens here, in three groups: read and observe (read-and-observe.ts), writes
// to the object (object-writes.ts), and calls that change the external resource
// (external-calls.ts). They share one PassContext per worker.
import type { ReconcileActivities } from '#contract/reconcile-activities';
import type { KubeAccess } from './kube';
import { PassContext, type ReconcileActivityOptions } from './pass-context';
import { readAndObserveActivities } from './read-and-observe';
import { objectWriteActivities } from './object-writes';
import { externalCallActivities } from './external-calls';

export function createReconcileActivities(kube: KubeAccess, options: ReconcileActivityOptions = {}): ReconcileActivities {
  const ctx = new PassContext(kube, options);
  return { ...readAndObserveActivities(ctx), ...objectWriteActivities(ctx), ...externalCallActivities(ctx) };
}
