// The name every write of ours to the control plane carries, so the objects' managedFields say
// which fields Chronoplane owns, whichever part of the access wrote them.
export const FIELD_MANAGER = 'chronoplane';
