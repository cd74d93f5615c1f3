// The worker's workflow bundle entry point.
export { reconcileManagedResource } from './reconcile';
export { sweepManagedKind } from './sweep';
