// Annotation and finalizer names, kept identical to Crossplane's so that its users feel at home.

/** The provider's identifier of the external resource (for a VPC, its vpc-id). */
export const EXTERNAL_NAME = 'crossplane.io/external-name';
/** When "true", reconciliation stops and Synced reports ReconcilePaused. */
export const PAUSED = 'crossplane.io/paused';
/** Keeps the object until the external resource has been deleted (or orphaned). */
export const FINALIZER = 'finalizer.managedresource.crossplane.io';
