// The worker's workflow bundle entry point.
export { reconcileManagedResource } from './reconcile';
